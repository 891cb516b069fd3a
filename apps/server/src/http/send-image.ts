import type { FastifyReply } from 'fastify';
import type { OpenedFile } from '../lib/file-storage.js';

/**
 * Streams a stored image with the type detected when it was stored (never the client's), and
 * nosniff so a browser cannot be talked into reading it as anything else.
 */
export function sendImage(reply: FastifyReply, image: OpenedFile, cacheControl = 'private, no-cache') {
  return reply
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-length', image.size)
    .type(image.contentType)
    .send(image.stream);
}
