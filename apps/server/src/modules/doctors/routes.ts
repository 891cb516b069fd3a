import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Doctors, care teams and patient/doctor requests under /account. */
export const doctorAccountRoutes: FastifyPluginAsyncZod = async () => {
  // Routes are registered as the feature lands.
};
