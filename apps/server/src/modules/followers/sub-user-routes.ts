import { appProfileSchema, subUserInputSchema, subUserSchema, successEnvelope } from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import {
  createSubUser,
  deleteSubUser,
  listPatientSubUsers,
  listProfiles,
  listSubUsers,
  updateSubUser,
  type SubUserEnvironment,
} from './sub-user-service.js';

const SELF =
  'The signed-in account’s own (patient sessions only: a staff account gets 404 health.noPatientProfile; the profile header plays no part).';
const idParams = z.object({ id: z.uuid() });

/** The patient app's sub-users and profiles under /health (spec §2 sub-user management, §3 Sub-user). */
export const subUserMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['followers'];
  const environmentOf = (request: FastifyRequest): SubUserEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });

  app.get(
    '/me/sub-users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF} The sub-user profiles the account holds, oldest first (deleted ones are gone). Audited`,
        response: { 200: successEnvelope(z.array(subUserSchema)) },
      },
    },
    async (request) => ok(await listSubUsers(environmentOf(request))),
  );

  app.post(
    '/me/sub-users',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF} Adds a sub-user: a patient record with no login, held by the account, in the holder’s health center, numbered like every patient. 409 subUser.limitReached past the limit; 404 health.noPatientProfile for an account without an active patient record. Audited`,
        body: subUserInputSchema,
        response: { 200: successEnvelope(subUserSchema) },
      },
    },
    async (request) => ok(await createSubUser(environmentOf(request), request.body)),
  );

  app.put(
    '/me/sub-users/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF} Changes a sub-user’s profile (names, gender, birthday, relation, smoking, treated conditions). 404 subUser.notFound for one the account does not hold. Audited`,
        params: idParams,
        body: subUserInputSchema,
        response: { 200: successEnvelope(subUserSchema) },
      },
    },
    async (request) => ok(await updateSubUser(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/me/sub-users/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF} Deletes a sub-user like a patient account: disabled at once, its data purged 30 days later. 404 subUser.notFound for one the account does not hold. Audited`,
        params: idParams,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await deleteSubUser(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/me/profiles',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF} The profiles the app can switch to (x-patient-profile): the own record first, then sub-users (read and write, no SOS), then followed patients (read only, with the data kinds they hide). Audited`,
        response: { 200: successEnvelope(z.array(appProfileSchema)) },
      },
    },
    async (request) => ok(await listProfiles(environmentOf(request))),
  );
};

/** The console's view of a patient's sub-users under /account. */
export const subUserAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/patients/:patientId/sub-users',
    {
      config: { access: 'user.view' },
      schema: {
        tags: ['patients'],
        summary:
          'The sub-user profiles held by the patient’s account (none for a patient without a login), oldest first; each is a patient record of its own, marked SUB_USER in the patient list. 404 patient.notFound for a patient the caller does not see. Audited',
        params: z.object({ patientId: z.uuid() }),
        response: { 200: successEnvelope(z.array(subUserSchema)) },
      },
    },
    async (request) =>
      ok(
        await listPatientSubUsers(
          { database: app.database, clock: app.clock, auth: requireAuth(request), audit: auditContextOf(request) },
          request.params.patientId,
        ),
      ),
  );
};
