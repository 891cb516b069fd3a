import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The patient app's own watches under /health: bind, unbind, settings, firmware. */
export const deviceMeRoutes: FastifyPluginAsyncZod = async () => {
  // Routes arrive with the feature.
};
