import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// eslint-disable-next-line @typescript-eslint/no-empty-function -- filled in by the module's work
export const staffAccountRoutes: FastifyPluginAsyncZod = async () => {};

// eslint-disable-next-line @typescript-eslint/no-empty-function -- filled in by the module's work
export const staffManageRoutes: FastifyPluginAsyncZod = async () => {};
