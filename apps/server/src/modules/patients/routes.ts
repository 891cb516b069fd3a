import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Patients and the dashboard counts under /account. */
export const patientAccountRoutes: FastifyPluginAsyncZod = async () => {
  // Routes are registered as the feature lands.
};
