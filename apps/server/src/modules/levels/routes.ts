import { levelContextSchema, levelInputSchema, levelOptionsSchema, levelSwitchSchema, staffDetailSchema, successEnvelope, type LevelContext } from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readSessionToken, requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { resolveSession, toCheckTokenResponse } from '../auth/sessions.js';
import { readLevelOptions, switchLevel, type LevelEnvironment } from './service.js';
import { addStaffLevel, removeStaffLevel } from './staff-levels.js';

/**
 * The level-access selector and switcher (spec §2: role, tenant, scope and health center), and the
 * extra levels an admin gives staff. The active level is part of the session: every list follows it.
 */
export const levelRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest): LevelEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const tags = ['levels'];

  app.get(
    '/level/options',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The caller’s levels (main and extra), the tenants they may act in, the scopes and health centers their active level may narrow to, and the current choice',
        response: { 200: successEnvelope(levelOptionsSchema) },
      },
    },
    async (request) => ok(await readLevelOptions(environmentOf(request))),
  );

  app.put(
    '/level',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Switch the current session’s level, tenant (platform staff) and narrowing to one scope or health center; answers the session as check-token does, with permissions. Unknown ids: 404 level.notFound; ids not offered: 403',
        body: levelSwitchSchema,
        response: { 200: successEnvelope(levelContextSchema) },
      },
    },
    async (request) => {
      await switchLevel(environmentOf(request), request.body);
      const token = readSessionToken(request);
      if (token === undefined) throw new AppError('auth.unauthorized');
      const auth = await resolveSession(app.database, app.clock, token);
      const context: LevelContext = { ...toCheckTokenResponse(auth), levelId: auth.levelId, scopeId: auth.scopeId, centerId: auth.centerId, permissions: [...auth.permissions] };
      return ok(context);
    },
  );

  const staffParams = z.object({ id: z.uuid() });
  app.post(
    '/admin/staff/:id/levels',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary: 'Give a staff account an extra level (a role at a scope or health center) for the switcher; their sessions end',
        params: staffParams,
        body: levelInputSchema,
        response: { 200: successEnvelope(staffDetailSchema) },
      },
    },
    async (request) => ok(await addStaffLevel(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/admin/staff/:id/levels/:levelId',
    {
      config: { access: 'staff.update' },
      schema: {
        tags,
        summary: 'Take an extra level away from a staff account; their sessions end',
        params: staffParams.extend({ levelId: z.uuid() }),
        response: { 200: successEnvelope(staffDetailSchema) },
      },
    },
    async (request) => ok(await removeStaffLevel(environmentOf(request), request.params.id, request.params.levelId)),
  );
};
