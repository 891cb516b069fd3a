import { checkTokenResponseSchema, permissionListSchema, successEnvelope } from '@rpm/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, SESSION_COOKIE } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { loginWithPassword, toCheckTokenResponse } from './service.js';
import { revokeSession } from './store.js';

const passwordGrantSchema = z.object({
  tenant: z.string().trim().min(1).max(64).describe('Tenant code'),
  username: z.string().trim().min(1).max(254).describe('Email or phone number'),
  password: z.string().min(1).max(128),
  grant_type: z.literal('password'),
  remember_me: z.boolean().optional(),
});

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const setSessionCookie = (reply: FastifyReply, token: string, maxAgeSeconds: number | undefined) =>
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: app.config.cookieSecure,
      path: '/',
      ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
    });

  app.post(
    '/oauth-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with a password; sets the session cookie and returns the session',
        body: passwordGrantSchema,
        response: { 200: successEnvelope(checkTokenResponseSchema) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = await loginWithPassword(
        app.database,
        { tenant: body.tenant, username: body.username, password: body.password, rememberMe: body.remember_me ?? false, app: 'console' },
        app.config.sessionHours,
      );
      const maxAge = result.rememberMe ? Math.floor((result.auth.expiresAt.getTime() - Date.now()) / 1000) : undefined;
      setSessionCookie(reply, result.token, maxAge);
      return ok(toCheckTokenResponse(result.auth));
    },
  );

  app.get(
    '/check-token',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'The current session, or 401 / 403 (logged in elsewhere)',
        response: { 200: successEnvelope(checkTokenResponseSchema) },
      },
    },
    async (request) => ok(toCheckTokenResponse(requireAuth(request))),
  );

  app.post(
    '/permission',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'Permission names granted to the caller',
        response: { 200: successEnvelope(permissionListSchema) },
      },
    },
    async (request) => ok({ permissions: [...requireAuth(request).permissions] }),
  );

  app.post(
    '/logout',
    {
      config: { access: 'session' },
      schema: { tags: ['auth'], summary: 'End the current session', response: { 200: successEnvelope(z.null()) } },
    },
    async (request, reply) => {
      await revokeSession(app.database.system, requireAuth(request).sessionId, 'logout');
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return ok(null);
    },
  );
};
