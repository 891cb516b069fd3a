import {
  pageOf,
  recordListQuerySchema,
  sportSavedSchema,
  sportSessionInputSchema,
  sportSessionSchema,
  successEnvelope,
  weightGoalInputSchema,
  weightOverviewSchema,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import type { VitalsEnvironment } from './patient-access.js';
import { listOwnSport, readOwnSport, readOwnWeight, saveSportSession, setOwnWeightGoal } from './sport-service.js';

const OWN = 'Patient sessions only: a staff account gets 404 health.noPatientProfile.';

function environmentOf(request: FastifyRequest): VitalsEnvironment {
  return { database: request.server.database, clock: request.server.clock, auth: requireAuth(request), audit: auditContextOf(request) };
}

/** The patient app's sport sessions and weight goal under /health (the signed-in patient's own). */
export const sportMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['vitals'];

  app.post(
    '/me/sport',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `Saves a sport session tracked in the app (spec §7 sport data push). Idempotent by clientId: a retry stores nothing more and answers the stored record (replayed). health.futureDate when it starts or ends in the future, health.tooOld when it started over a year ago. Audited (HEALTH_DATA_RECEIVED). ${OWN}`,
        body: sportSessionInputSchema,
        response: { 200: successEnvelope(sportSavedSchema) },
      },
    },
    async (request) => ok(await saveSportSession(environmentOf(request), request.body)),
  );

  app.get(
    '/me/sport',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The caller's sport sessions (the app's and the watch's), newest first (paged, optional from/to). Audited. ${OWN}`,
        querystring: recordListQuerySchema,
        response: { 200: successEnvelope(pageOf(sportSessionSchema)) },
      },
    },
    async (request) => ok(await listOwnSport(environmentOf(request), request.query)),
  );

  app.get(
    '/me/sport/:recordId',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `One of the caller's sport sessions (health.recordNotFound for anyone else's). Audited. ${OWN}`,
        params: z.object({ recordId: z.uuid() }),
        response: { 200: successEnvelope(sportSessionSchema) },
      },
    },
    async (request) => ok(await readOwnSport(environmentOf(request), request.params.recordId)),
  );

  app.get(
    '/me/weight',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The caller's weight goal, recent weights (kg, newest first), height, BMI with its WHO band (and the Asian action-point note), and progress to the goal. Weights are entered as WEIGHT readings (POST /health/manual). Audited. ${OWN}`,
        response: { 200: successEnvelope(weightOverviewSchema) },
      },
    },
    async (request) => ok(await readOwnWeight(environmentOf(request))),
  );

  app.post(
    '/me/weight/goal',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `Sets the caller's weight goal (kg, above 1 and below 700); progress counts from the latest weight. Answers the weight overview. Audited (PATIENT_UPDATED). ${OWN}`,
        body: weightGoalInputSchema,
        response: { 200: successEnvelope(weightOverviewSchema) },
      },
    },
    async (request) => ok(await setOwnWeightGoal(environmentOf(request), request.body.goalKg)),
  );
};
