import { healthzResponseSchema, readyzResponseSchema } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Liveness and readiness for load balancers and orchestrators (outside the envelope). */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: { tags: ['system'], summary: 'The process is alive', response: { 200: healthzResponseSchema } },
    },
    () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags: ['system'],
        summary: 'The process can serve requests (database reachable, not shutting down)',
        response: { 200: readyzResponseSchema, 503: readyzResponseSchema },
      },
    },
    async (_request, reply) => {
      const isDatabaseUp = !app.isShuttingDown && (await app.database.isReachable());
      return reply
        .code(isDatabaseUp ? 200 : 503)
        .send({ status: isDatabaseUp ? 'ready' : 'not_ready', checks: { database: isDatabaseUp ? 'up' : 'down' } });
    },
  );
};
