import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const verificationAuthRoutes: FastifyPluginAsyncZod = async () => {};

export const verificationAccountRoutes: FastifyPluginAsyncZod = async () => {};
