import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Photo entry under /collector: a device display's photo read by the tenant's OCR adapter. */
export const vitalsOcrRoutes: FastifyPluginAsyncZod = async () => {
  // Routes arrive with the feature.
};
