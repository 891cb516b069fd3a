import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Device management and role-prefixed lookups under /account. */
export const deviceAccountRoutes: FastifyPluginAsyncZod = async () => {
  // Routes are registered as the feature lands.
};
/** Device, connection-history and phone-history calls under /health (spec §7 "Health prefix"). */
export const deviceHealthRoutes: FastifyPluginAsyncZod = async () => {
  // Routes are registered as the feature lands.
};
