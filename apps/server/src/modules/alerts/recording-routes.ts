import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** SOS voice recordings under /health: the patient app attaches one to its own SOS case. */
export const sosRecordingRoutes: FastifyPluginAsyncZod = async () => {
  // Routes arrive with the feature.
};
