import {
  checkTokenResponseSchema,
  passwordGrantSchema,
  permissionListSchema,
  refreshTokenSchema,
  successEnvelope,
  tokenResponseSchema,
} from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { REFRESH_COOKIE, requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { recordAudit } from '../audit/store.js';
import { loginWithPassword, type LoginEnvironment } from './service.js';
import { clearSessionCookies, deliverSession } from './session-cookies.js';
import { refreshSession, toCheckTokenResponse } from './sessions.js';
import { revokeSession } from './store.js';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: Parameters<typeof auditContextOf>[0]): LoginEnvironment => ({
    database: app.database,
    clock: app.clock,
    sessionHours: app.config.sessionHours,
    audit: auditContextOf(request),
    secretsKey: app.config.secretsKey,
  });

  app.post(
    '/oauth-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Log in with a password (console: session cookies; apps: tokens in the body)',
        body: passwordGrantSchema,
        response: { 200: successEnvelope(tokenResponseSchema) },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const issued = await loginWithPassword(environmentOf(request), {
        tenant: body.tenant,
        username: body.username,
        password: body.password,
        rememberMe: body.remember_me ?? false,
        app: body.app ?? 'console',
      });
      return ok(deliverSession(app, reply, issued));
    },
  );

  app.post(
    '/refresh-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new pair (each refresh token works once)',
        body: refreshTokenSchema.nullish(),
        response: { 200: successEnvelope(tokenResponseSchema) },
      },
    },
    async (request, reply) => {
      const presented = request.body?.refresh_token ?? request.cookies[REFRESH_COOKIE];
      if (!presented) throw new AppError('auth.refreshInvalid');
      const issued = await refreshSession(app.database, app.clock, presented, async (session) => {
        await app.database.withTenant(session.accountTenantId, (tx) =>
          recordAudit(tx, session.accountTenantId, auditContextOf(request), {
            action: 'ACCOUNT_REFRESH_REUSED',
            subjectUserId: session.userId,
            details: { sessionFamily: session.familyId },
            at: app.clock.now(),
          }),
        );
      }).catch((error: unknown) => {
        clearSessionCookies(reply);
        throw error;
      });
      return ok(deliverSession(app, reply, issued));
    },
  );

  app.get(
    '/check-token',
    {
      config: { access: 'session' },
      schema: {
        tags: ['auth'],
        summary: 'The current session, or 401 (none or expired) / 403 (logged in elsewhere)',
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
      const auth = requireAuth(request);
      await revokeSession(app.database.system, auth.sessionId, 'logout', app.clock.now());
      await app.database.withTenant(auth.accountTenantId, (tx) =>
        recordAudit(tx, auth.accountTenantId, auditContextOf(request), { action: 'ACCOUNT_LOGOUT', subjectUserId: auth.userId, at: app.clock.now() }),
      );
      clearSessionCookies(reply);
      return ok(null);
    },
  );
};
