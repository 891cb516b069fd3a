import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The patient app's own health reads under /health: a PATIENT session reaches only its own record. */
export const vitalsMeRoutes: FastifyPluginAsyncZod = async () => {
  // Routes arrive with the feature.
};
