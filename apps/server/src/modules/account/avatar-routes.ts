import { sendImage } from '../../http/send-image.js';
import { profileSchema, successEnvelope, usernameQuerySchema } from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import type { FileStorage } from '../../lib/file-storage.js';
import {
  openOwnAvatar,
  openUserAvatar,
  uploadAvatarForUser,
  uploadOwnAvatar,
  uploadOwnAvatarByUsername,
  type AvatarEnvironment,
  type ReceiveUpload,
} from './avatar-service.js';
import { readProfile } from './service.js';

type AccountApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * Reads the multipart field `file` of the request, lazily: the service calls it only after it has
 * decided the upload may go ahead. The multipart limits (1 MB, one file) come from the plugin.
 */
function receiveFrom(request: FastifyRequest): ReceiveUpload {
  return async () => {
    if (!request.isMultipart()) throw new AppError('file.missing');
    let part: Awaited<ReturnType<FastifyRequest['file']>>;
    try {
      part = await request.file();
    } catch (error) {
      // Malformed multipart bodies and exceeded part limits are the caller's mistake.
      throw new AppError('common.invalidParameter', { cause: error });
    }
    if (part === undefined) throw new AppError('file.missing');
    const { file } = part;
    if (part.fieldname !== 'file') {
      file.resume();
      throw new AppError('file.missing');
    }
    return { stream: file, isTruncated: () => file.truncated };
  };
}


const uploadSchema = { tags: ['account'], consumes: ['multipart/form-data'] };
const uploadDescription = 'Multipart field `file`: PNG, JPEG, GIF or WEBP (recognised by content), at most 1 MB.';

export function registerAvatarRoutes(app: AccountApp, storage: FileStorage): void {
  const environmentOf = (request: FastifyRequest): AvatarEnvironment => ({
    database: app.database,
    clock: app.clock,
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });

  app.post(
    '/me/profile/upload-avatar',
    {
      config: { access: 'session' },
      schema: { ...uploadSchema, summary: 'Set the caller’s profile photo', description: uploadDescription, response: { 200: successEnvelope(profileSchema) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      await uploadOwnAvatar(environmentOf(request), auth, receiveFrom(request));
      return ok(await readProfile(environmentOf(request), auth));
    },
  );

  app.post(
    '/avatar',
    {
      config: { access: 'session' },
      schema: {
        ...uploadSchema,
        summary: 'Set the caller’s profile photo, naming the account by username (email or phone); any other username is not found',
        description: uploadDescription,
        querystring: usernameQuerySchema,
        response: { 200: successEnvelope(profileSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await uploadOwnAvatarByUsername(environmentOf(request), auth, request.query.username, receiveFrom(request));
      return ok(await readProfile(environmentOf(request), auth));
    },
  );

  app.post(
    '/admin/user/adminUploadAvatarForUser',
    {
      config: { access: 'user.update' },
      schema: {
        ...uploadSchema,
        summary: 'Set the profile photo of a user of the acting tenant, found by username (email or phone)',
        description: uploadDescription,
        querystring: usernameQuerySchema,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await uploadAvatarForUser(environmentOf(request), requireAuth(request), request.query.username, receiveFrom(request));
      return ok(null);
    },
  );

  app.get(
    '/me/avatar',
    { config: { access: 'session' }, schema: { tags: ['account'], summary: 'The caller’s profile photo (image bytes)' } },
    async (request, reply) => sendImage(reply, await openOwnAvatar(environmentOf(request), requireAuth(request))),
  );

  app.get(
    '/user/:id/avatar',
    {
      config: { access: 'user.view' },
      schema: { tags: ['account'], summary: 'The profile photo of a user of the acting tenant (image bytes)', params: z.object({ id: z.uuid() }) },
    },
    async (request, reply) => sendImage(reply, await openUserAvatar(environmentOf(request), requireAuth(request), request.params.id)),
  );
}
