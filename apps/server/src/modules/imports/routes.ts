import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Bulk xlsx imports (patients, devices) under /account. */
export const importAccountRoutes: FastifyPluginAsyncZod = async () => {
  // Routes are registered as the feature lands.
};
