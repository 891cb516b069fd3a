import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  LIMITS,
  adminSetPasswordSchema,
  auditEntrySchema,
  changePasswordSchema,
  logHistoryQuerySchema,
  pageOf,
  profileSchema,
  profileUpdateSchema,
  successEnvelope,
  unlockUserSchema,
  updateLanguageSchema,
  updateTimeZoneSchema,
  deactivateAccountSchema,
  deactivationResultSchema,
  unitSettingsSchema,
  unitSettingsUpdateSchema,
  type RoleCode,
} from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { registerAvatarRoutes } from './avatar-routes.js';
import { deactivateOwnAccount, readUnitSettings, updateUnitSettings } from './preferences.js';
import { clearSessionCookies } from '../auth/session-cookies.js';
import {
  changePassword,
  readLogHistory,
  readProfile,
  setPasswordByAdmin,
  unlockAccount,
  updateLanguage,
  updateProfile,
  updateTimeZone,
  type AccountEnvironment,
} from './service.js';

const environmentOf = (app: FastifyInstance, request: FastifyRequest): AccountEnvironment => ({
  database: app.database,
  clock: app.clock,
  audit: auditContextOf(request),
});

/** Refuses other roles before the body is even validated (the permission hook has run). */
const requireRole = (role: RoleCode) => async (request: FastifyRequest) => {
  if (requireAuth(request).role !== role) throw new AppError('auth.permissionDenied');
};

const profileResponse = { 200: successEnvelope(profileSchema) };
const nothingResponse = { 200: successEnvelope(z.null()) };

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, not on the app: only this plugin's upload routes accept multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: LIMITS.profilePhotoMaxBytes, files: 1, fields: 10, parts: 12, fieldSize: 1024, headerPairs: 100 },
  });
  registerAvatarRoutes(app, createLocalFileStorage(path.join(app.config.dataDir, 'files')));

  app.get(
    '/me/unit-settings',
    {
      config: { access: 'session' },
      schema: { tags: ['account'], summary: 'The caller’s units: own choice and what applies (own, else the tenant’s)', response: { 200: successEnvelope(unitSettingsSchema) } },
    },
    async (request) => ok(await readUnitSettings(environmentOf(app, request), requireAuth(request))),
  );

  app.put(
    '/me/unit-settings',
    {
      config: { access: 'session' },
      schema: { tags: ['account'], summary: 'Choose units (null follows the tenant’s setting)', body: unitSettingsUpdateSchema, response: { 200: successEnvelope(unitSettingsSchema) } },
    },
    async (request) => ok(await updateUnitSettings(environmentOf(app, request), requireAuth(request), request.body)),
  );

  app.post(
    '/me/deactivate',
    {
      config: { access: 'session' },
      schema: {
        tags: ['account'],
        summary: 'Deactivate the own account for 3 days, 2 weeks, 1 month or indefinitely (a doctor’s needs admin approval)',
        body: deactivateAccountSchema,
        response: { 200: successEnvelope(deactivationResultSchema) },
      },
    },
    async (request, reply) => {
      const result = await deactivateOwnAccount(environmentOf(app, request), requireAuth(request), request.body);
      if (result.outcome === 'DEACTIVATED') clearSessionCookies(reply);
      return ok(result);
    },
  );

  for (const url of ['/me/profile/get', '/user/get']) {
    app.get(
      url,
      {
        config: { access: 'session' },
        schema: {
          tags: ['account'],
          summary: url === '/user/get' ? 'The caller’s profile (the apps’ variant of /me/profile/get)' : 'The caller’s profile',
          response: profileResponse,
        },
      },
      async (request) => ok(await readProfile(environmentOf(app, request), requireAuth(request))),
    );
  }

  const profileUpdates: { url: string; summary: string; role?: RoleCode }[] = [
    { url: '/me/profile', summary: 'Update the caller’s profile (names, birthday, body data, address, notes)' },
    {
      url: '/doctor/me/profile',
      role: 'DOCTOR',
      summary: 'Update a doctor’s own profile (doctors only; the same fields as /me/profile until doctor-specific fields such as specialties arrive)',
    },
    {
      url: '/doctor-assistant/me/profile',
      role: 'DOCTOR_ASSISTANT',
      summary: 'Update a doctor assistant’s own profile (doctor assistants only; the same fields as /me/profile for now)',
    },
  ];
  for (const { url, summary, role } of profileUpdates) {
    app.put(
      url,
      {
        config: { access: 'session' },
        ...(role === undefined ? {} : { onRequest: requireRole(role) }),
        schema: { tags: ['account'], summary, body: profileUpdateSchema, response: profileResponse },
      },
      async (request) => ok(await updateProfile(environmentOf(app, request), requireAuth(request), request.body)),
    );
  }

  app.post(
    '/me/profile/update-language',
    {
      config: { access: 'session' },
      schema: { tags: ['account'], summary: 'Set the caller’s language: en or vi ("can" and en-CA are stored as en)', body: updateLanguageSchema, response: profileResponse },
    },
    async (request) => ok(await updateLanguage(environmentOf(app, request), requireAuth(request), request.body.lang)),
  );

  app.post(
    '/me/profile/update-time-zone',
    {
      config: { access: 'session' },
      schema: { tags: ['account'], summary: 'Set the caller’s time zone (an IANA name such as Asia/Ho_Chi_Minh)', body: updateTimeZoneSchema, response: profileResponse },
    },
    async (request) => ok(await updateTimeZone(environmentOf(app, request), requireAuth(request), request.body.tz)),
  );

  app.post(
    '/change-password',
    {
      config: { access: 'session' },
      schema: {
        tags: ['account'],
        summary: 'Change the caller’s password (needs the current one); every other session of the account ends',
        body: changePasswordSchema,
        response: nothingResponse,
      },
    },
    async (request) => {
      await changePassword(environmentOf(app, request), requireAuth(request), request.body);
      return ok(null);
    },
  );

  app.post(
    '/admin/user/unlock',
    {
      config: { access: 'staff.update' },
      schema: { tags: ['account'], summary: 'Lift a login lock of an account of the acting tenant', body: unlockUserSchema, response: nothingResponse },
    },
    async (request) => {
      await unlockAccount(environmentOf(app, request), requireAuth(request), request.body.userId);
      return ok(null);
    },
  );

  app.get(
    '/log/history',
    {
      config: { access: 'session' },
      schema: {
        tags: ['account'],
        summary: 'Audit history of the caller’s account, newest first; with userId, another account’s (needs staff.view)',
        querystring: logHistoryQuerySchema,
        response: { 200: successEnvelope(pageOf(auditEntrySchema)) },
      },
    },
    async (request) => ok(await readLogHistory(environmentOf(app, request), requireAuth(request), request.query)),
  );
};

export const manageAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/system-admin/change-password',
    {
      config: { access: 'staff.update' },
      schema: {
        tags: ['account'],
        summary: 'Give another account a new password; only ROOT or SUPER_ADMIN may do so for a super admin. Their sessions end',
        body: adminSetPasswordSchema,
        response: nothingResponse,
      },
    },
    async (request) => {
      await setPasswordByAdmin(environmentOf(app, request), requireAuth(request), request.body);
      return ok(null);
    },
  );
};
