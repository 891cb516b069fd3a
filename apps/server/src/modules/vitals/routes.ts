import {
  collectorBatchSchema,
  collectorResultSchema,
  ecgDetailSchema,
  ecgSummarySchema,
  healthDataQuerySchema,
  healthSeriesSchema,
  hotlineCallSchema,
  latestReadingsSchema,
  manualEntryResultSchema,
  manualEntrySchema,
  pageOf,
  recordListQuerySchema,
  sleepDetailSchema,
  sleepSummarySchema,
  sportRecordSchema,
  successEnvelope,
  thresholdsUpdateSchema,
  thresholdsViewSchema,
  VITAL_STATUSES,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { builtFieldByField } from '../../http/response-serializer.js';
import {
  readEcg,
  readEcgList,
  readLatest,
  readSeries,
  readSleep,
  readSleepList,
  readSportList,
} from './fetch-service.js';
import { enterManually, ingestBatch, recordHotlineCall } from './ingest-service.js';
import { installVitalsJobs } from './maintenance-job.js';
import type { VitalsEnvironment } from './patient-access.js';
import {
  readPatientThresholds,
  readTenantThresholds,
  resetPatientThresholds,
  resetTenantThresholds,
  updatePatientThresholds,
  updateTenantThresholds,
} from './thresholds-service.js';

const patientParams = z.object({ patientId: z.uuid() });
/** healthDataQuerySchema, where a local calendar date may stand for the range. */
const seriesQuerySchema = healthDataQuerySchema.extend({
  from: healthDataQuerySchema.shape.from.optional(),
  to: healthDataQuerySchema.shape.to.optional(),
  date: z.iso
    .date()
    .optional()
    .describe(
      'A local calendar date (YYYY-MM-DD) in the patient’s time zone: the range becomes the day, week (Monday to Sunday), month or year of the view that holds it; from and to are then ignored',
    ),
});
/** healthSeriesSchema and the IANA time zone of its local hours and days. */
const localSeriesSchema = healthSeriesSchema.extend({ timeZone: z.string() });
const recordParams = z.object({ patientId: z.uuid(), recordId: z.uuid() });
const thresholdsResponse = { 200: successEnvelope(thresholdsViewSchema) };
const PATIENT_NOTE =
  'A PATIENT session reaches only its own record; staff reach patients their level sees (patient.notFound otherwise).';

function environmentOf(request: FastifyRequest): VitalsEnvironment {
  return {
    database: request.server.database,
    clock: request.server.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  };
}

/** Vitals under /collector (spec §7): what watches and the patient app send. */
export const vitalsCollectorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/readings',
    {
      // A patient's own session, or staff holding health.update (checked by the service).
      config: { access: 'session' },
      bodyLimit: 8 * 1024 * 1024,
      // Watches sync all day long: a line per accepted batch would drown the log (failures still log).
      logLevel: 'warn',
      schema: {
        tags: ['vitals'],
        summary:
          'A batch of readings, ECG, sleep and sport records and fall / SOS-button events (at most 5,000 items). Values in the tenant’s units. Idempotent by batchId: a retry gets the first answer (replayed). Invalid items are listed in problems with their index and code; valid ones are stored and evaluated against the patient’s thresholds in the same transaction',
        body: collectorBatchSchema,
        response: { 200: successEnvelope(collectorResultSchema) },
      },
    },
    async (request) => ok(await ingestBatch(environmentOf(request), request.body)),
  );
};

/** Vitals under /health (spec §7): manual entry, the SOS hotline, fetches and thresholds. */
export const vitalsHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  installVitalsJobs(app);
  const tags = ['vitals'];

  app.post(
    '/manual',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `One manual entry (spec §5 ranges, systolic ≥ diastolic + 20, no future date), all or nothing. A patient’s own session or staff holding health.update. ${PATIENT_NOTE}`,
        body: manualEntrySchema,
        response: { 200: successEnvelope(manualEntryResultSchema) },
      },
    },
    async (request) => ok(await enterManually(environmentOf(request), request.body)),
  );

  app.post(
    '/sos/hotline',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `A hotline call: raises the patient to SOS (HIGH_RISK for sub-users) and signals the alerting side. ${PATIENT_NOTE}`,
        body: hotlineCallSchema,
        response: { 200: successEnvelope(z.object({ patientId: z.uuid(), status: z.enum(VITAL_STATUSES) })) },
      },
    },
    async (request) => ok(await recordHotlineCall(environmentOf(request), request.body)),
  );

  app.get(
    '/patients/:patientId/data',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `One measure over a range in the tenant’s units: raw readings (view day, ≤ 2 days), hourly rollups (week, ≤ 8 days), daily rollups (month ≤ 32, year ≤ 367 days). Hours and days are the patient’s local ones (their account’s time zone, UTC without an account), named in timeZone; each bucket’s at is the instant it starts. The range is from and to, or the local period of date. health.invalidDateRange when neither is given, from ≥ to, too long, or in the future. Audited. ${PATIENT_NOTE}`,
        params: patientParams,
        querystring: seriesQuerySchema,
        response: { 200: builtFieldByField(successEnvelope(localSeriesSchema)) },
      },
    },
    async (request) => ok(await readSeries(environmentOf(request), request.params.patientId, request.query)),
  );

  app.get(
    '/patients/:patientId/latest',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The patient’s status and the latest value of every measure. Audited. ${PATIENT_NOTE}`,
        params: patientParams,
        response: { 200: successEnvelope(latestReadingsSchema) },
      },
    },
    async (request) => ok(await readLatest(environmentOf(request), request.params.patientId)),
  );

  app.get(
    '/me/latest',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The calling patient’s own status and the latest value of every measure (patient sessions only: a staff account gets 404 health.noPatientProfile; the patient app’s home). Audited',
        response: { 200: successEnvelope(latestReadingsSchema) },
      },
    },
    async (request) => {
      // A staff account holds health.view but has no patient record of its own.
      if (requireAuth(request).role !== 'PATIENT') throw new AppError('health.noPatientProfile');
      return ok(await readLatest(environmentOf(request), undefined));
    },
  );

  app.get(
    '/patients/:patientId/ecg',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'ECG records, newest first (paged, optional from/to). Audited',
        params: patientParams,
        querystring: recordListQuerySchema,
        response: { 200: successEnvelope(pageOf(ecgSummarySchema)) },
      },
    },
    async (request) => ok(await readEcgList(environmentOf(request), request.params.patientId, request.query)),
  );

  app.get(
    '/patients/:patientId/ecg/:recordId',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'One ECG record with its waveform (mV). Audited',
        params: recordParams,
        response: { 200: successEnvelope(ecgDetailSchema) },
      },
    },
    async (request) =>
      ok(await readEcg(environmentOf(request), request.params.patientId, request.params.recordId)),
  );

  app.get(
    '/patients/:patientId/sleep',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Sleep records, newest first (paged, optional from/to). Audited',
        params: patientParams,
        querystring: recordListQuerySchema,
        response: { 200: successEnvelope(pageOf(sleepSummarySchema)) },
      },
    },
    async (request) =>
      ok(await readSleepList(environmentOf(request), request.params.patientId, request.query)),
  );

  app.get(
    '/patients/:patientId/sleep/:recordId',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'One sleep record with its stages. Audited',
        params: recordParams,
        response: { 200: successEnvelope(sleepDetailSchema) },
      },
    },
    async (request) =>
      ok(await readSleep(environmentOf(request), request.params.patientId, request.params.recordId)),
  );

  app.get(
    '/patients/:patientId/sport',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Sport records, newest first (paged, optional from/to). Audited',
        params: patientParams,
        querystring: recordListQuerySchema,
        response: { 200: successEnvelope(pageOf(sportRecordSchema)) },
      },
    },
    async (request) =>
      ok(await readSportList(environmentOf(request), request.params.patientId, request.query)),
  );

  app.get(
    '/patients/:patientId/thresholds',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `The patient’s effective thresholds (canonical units) and which levels are custom. ${PATIENT_NOTE}`,
        params: patientParams,
        response: thresholdsResponse,
      },
    },
    async (request) => ok(await readPatientThresholds(environmentOf(request), request.params.patientId)),
  );

  app.put(
    '/patients/:patientId/thresholds',
    {
      config: { access: 'health.threshold' },
      schema: {
        tags,
        summary:
          'Sets the patient’s thresholds (the whole set; levels equal to the tenant default are not kept as custom). health.invalidThresholds when bands do not nest or leave plausible ranges. Audited (THRESHOLDS_UPDATED)',
        params: patientParams,
        body: thresholdsUpdateSchema,
        response: thresholdsResponse,
      },
    },
    async (request) =>
      ok(
        await updatePatientThresholds(
          environmentOf(request),
          request.params.patientId,
          request.body.thresholds,
        ),
      ),
  );

  app.delete(
    '/patients/:patientId/thresholds',
    {
      config: { access: 'health.threshold' },
      schema: {
        tags,
        summary: 'Resets the patient’s thresholds to the tenant defaults. Audited (THRESHOLDS_RESET)',
        params: patientParams,
        response: thresholdsResponse,
      },
    },
    async (request) => ok(await resetPatientThresholds(environmentOf(request), request.params.patientId)),
  );

  app.get(
    '/thresholds/defaults',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The tenant’s default thresholds (spec reference ranges with the tenant’s changes) and which levels the tenant changed',
        response: thresholdsResponse,
      },
    },
    async (request) => ok(await readTenantThresholds(environmentOf(request))),
  );

  app.put(
    '/thresholds/defaults',
    {
      config: { access: 'health.threshold', wholeTenant: true },
      schema: {
        tags,
        summary:
          'Sets the tenant’s default thresholds (tenant-wide levels only). Audited (THRESHOLD_DEFAULTS_UPDATED)',
        body: thresholdsUpdateSchema,
        response: thresholdsResponse,
      },
    },
    async (request) => ok(await updateTenantThresholds(environmentOf(request), request.body.thresholds)),
  );

  app.delete(
    '/thresholds/defaults',
    {
      config: { access: 'health.threshold', wholeTenant: true },
      schema: {
        tags,
        summary:
          'Resets the tenant’s defaults to the spec reference ranges. Audited (THRESHOLD_DEFAULTS_RESET)',
        response: thresholdsResponse,
      },
    },
    async (request) => ok(await resetTenantThresholds(environmentOf(request))),
  );
};
