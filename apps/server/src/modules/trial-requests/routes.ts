import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// eslint-disable-next-line @typescript-eslint/no-empty-function -- filled in by the module's work
export const trialRequestAccountRoutes: FastifyPluginAsyncZod = async () => {};

// eslint-disable-next-line @typescript-eslint/no-empty-function -- filled in by the module's work
export const trialRequestManageRoutes: FastifyPluginAsyncZod = async () => {};
