export { sendImage } from '../../http/send-image.js';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OrgEnvironment } from './environment.js';

export type OrgApp = Parameters<FastifyPluginAsyncZod>[0];
export type EnvironmentOf = (request: FastifyRequest) => OrgEnvironment;

