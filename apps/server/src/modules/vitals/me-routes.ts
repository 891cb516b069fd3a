import {
  dashboardSchema,
  healthSeriesSchema,
  meDataQuerySchema,
  osahsResultSchema,
  pageOf,
  recordListQuerySchema,
  sleepDetailSchema,
  sleepSummarySchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { readSeries, readSleep, readSleepList } from './fetch-service.js';
import { readDashboard, readOsahs } from './me-service.js';
import type { VitalsEnvironment } from './patient-access.js';

/**
 * The calling patient's own environment. A staff account holds health.view but has no patient
 * record of its own: 404 health.noPatientProfile.
 */
function selfEnvironment(request: FastifyRequest): VitalsEnvironment {
  const auth = requireAuth(request);
  if (auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return {
    database: request.server.database,
    clock: request.server.clock,
    auth,
    audit: auditContextOf(request),
  };
}

const SELF =
  'Patient sessions only (a staff account gets 404 health.noPatientProfile); audited as a read of the patient’s data.';
const recordParams = z.object({ recordId: z.uuid() });
/** The series answer of GET /health/patients/:patientId/data, with the time zone of its local buckets. */
const localSeriesSchema = healthSeriesSchema.extend({ timeZone: z.string() });

/**
 * The patient app's own health reads under /health/me: the patient comes from the session, so the
 * app never needs (or can name) a patient id, and another patient's record is simply not found.
 */
export const vitalsMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['vitals'];

  app.get(
    '/me/dashboard',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The calling patient’s status and latest value of every measure, each with its level against the patient’s thresholds (null for measures without thresholds); the app’s home. ${SELF}`,
        response: { 200: successEnvelope(dashboardSchema) },
      },
    },
    async (request) => ok(await readDashboard(selfEnvironment(request))),
  );

  app.get(
    '/me/data',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `One measure of the calling patient over the local day, week (Monday to Sunday), month or year holding date, in the tenant’s units: raw readings (day), hourly rollups (week), daily rollups (month, year). health.invalidDateRange for a period in the future. ${SELF}`,
        querystring: meDataQuerySchema,
        response: { 200: successEnvelope(localSeriesSchema) },
      },
    },
    async (request) => ok(await readSeries(selfEnvironment(request), undefined, request.query)),
  );

  app.get(
    '/me/sleep',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The calling patient’s sleep records, newest first (paged, optional from/to). ${SELF}`,
        querystring: recordListQuerySchema,
        response: { 200: successEnvelope(pageOf(sleepSummarySchema)) },
      },
    },
    async (request) => ok(await readSleepList(selfEnvironment(request), undefined, request.query)),
  );

  app.get(
    '/me/sleep/:recordId',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `One of the calling patient’s nights with its stages (health.recordNotFound for another patient’s). ${SELF}`,
        params: recordParams,
        response: { 200: successEnvelope(sleepDetailSchema) },
      },
    },
    async (request) => ok(await readSleep(selfEnvironment(request), undefined, request.params.recordId)),
  );

  app.get(
    '/me/sleep/:recordId/osahs',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `OSAHS screening of one of the calling patient’s nights: the oxygen desaturation index (SpO2 dips of ≥ 3 points from a rolling 5-minute baseline inside the sleep window, per hour of total sleep) and its band (normal < 5, mild 5–15, moderate 15–30, severe ≥ 30). A screening, not a diagnosis. ${SELF}`,
        params: recordParams,
        response: { 200: successEnvelope(osahsResultSchema) },
      },
    },
    async (request) => ok(await readOsahs(selfEnvironment(request), request.params.recordId)),
  );
};
