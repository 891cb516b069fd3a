import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OpenedFile } from '../../lib/file-storage.js';
import { type OrgEnvironment } from './environment.js';

export type OrgApp = Parameters<FastifyPluginAsyncZod>[0];
export type EnvironmentOf = (request: FastifyRequest) => OrgEnvironment;

export function sendImage(reply: FastifyReply, image: OpenedFile) {
  return reply
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-length', image.size)
    .type(image.contentType)
    .send(image.stream);
}
