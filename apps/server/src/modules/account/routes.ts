import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const accountRoutes: FastifyPluginAsyncZod = async () => {};

export const manageAccountRoutes: FastifyPluginAsyncZod = async () => {};
