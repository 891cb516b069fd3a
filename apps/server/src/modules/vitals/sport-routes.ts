import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The patient app's sport sessions and weight goal under /health. */
export const sportMeRoutes: FastifyPluginAsyncZod = async () => {
  // Routes arrive with the feature.
};
