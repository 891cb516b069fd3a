import fastifyMultipart from '@fastify/multipart';
import {
  centerCountQuerySchema,
  clinicalCountQuerySchema,
  operatorCountQuerySchema,
  PATIENT_FILE_MAX_BYTES,
  patientCreateSchema,
  patientDeleteSchema,
  patientDeletionSchema,
  patientDetailSchema,
  patientExportQuerySchema,
  patientListQuerySchema,
  patientStatusChangeSchema,
  patientStatusCountsSchema,
  patientStatusHistoryEntrySchema,
  patientPageSchema,
  patientUpdateSchema,
  successEnvelope,
  type RoleCode,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import { requireAuth, type AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { attachmentHeader, XLSX_CONTENT_TYPE } from '../../lib/xlsx.js';
import { countPatients } from './dashboard.js';
import { exportPatients } from './export.js';
import { medicalRecordRoutes } from './medical-records-routes.js';
import { type PatientFileEnvironment, type ReceiveFileUpload } from './medical-records-service.js';
import { assertPatientInput } from './input.js';
import { installPurgeJob } from './purge-job.js';
import {
  changeStatus,
  createPatient,
  deletePatient,
  listPatients,
  readPatient,
  readStatusHistory,
  updatePatient,
  type PatientEnvironment,
} from './service.js';

const idParams = z.object({ id: z.uuid() });
const detailResponse = { 200: successEnvelope(patientDetailSchema) };
const countsResponse = { 200: successEnvelope(patientStatusCountsSchema) };
const LIST_NOTE =
  'Paged (page from 0, size), searchable by words (each the start of a word of the name or patient id, diacritics and case aside; the phone’s first or last digits; the email from its start; every word must match), filterable by status, centerId, doctorId and packageCode, scope mine (the caller’s care team) or center (all the caller sees, the default), sortable (sortField name|code|status|created|birthday|severity, sortType asc|desc; severity desc is triage order: open SOS case, SOS, HIGH_RISK, AT_RISK, no data, NORMAL, then the latest reading first). Each row has its triage columns: attention, last reading and its age, what crossed (the latest unresolved alert), the open SOS case and open ticket. Deleted accounts are not listed.';

/** Routes for one kind of caller are role-gated: access 'session' plus this check before the body is read. */
const requireCaller = (isAllowed: (auth: AuthContext) => boolean) => async (request: FastifyRequest) => {
  if (!isAllowed(requireAuth(request))) throw new AppError('auth.permissionDenied');
};
const CENTER_ADMIN_ROLES: readonly RoleCode[] = ['MAIN_ADMIN', 'SUPPORT_ADMIN', 'SCOPE_ADMIN', 'MHSC_ADMIN'];
const hasDashboardAs = (roles: readonly RoleCode[]) => (auth: AuthContext) =>
  roles.includes(auth.role) && auth.permissions.has('dashboard.view');

/** Reads the multipart field `file` lazily: the service calls it once the patient is known to be reachable. */
function receiveFrom(request: FastifyRequest): ReceiveFileUpload {
  return async () => {
    if (!request.isMultipart()) throw new AppError('file.missing');
    let part: Awaited<ReturnType<FastifyRequest['file']>>;
    try {
      part = await request.file();
    } catch (error) {
      throw new AppError('common.invalidParameter', { cause: error });
    }
    if (part === undefined) throw new AppError('file.missing');
    const { file } = part;
    if (part.fieldname !== 'file') {
      file.resume();
      throw new AppError('file.missing');
    }
    return { stream: file, fileName: part.filename, isTruncated: () => file.truncated };
  };
}

/** Patients (spec §2 patient management and profile) and the dashboard counts (§7) under /account. */
export const patientAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so only this plugin's routes accept multipart (the file upload).
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: PATIENT_FILE_MAX_BYTES,
      files: 1,
      fields: 5,
      parts: 6,
      fieldSize: 1024,
      headerPairs: 100,
    },
  });
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  installPurgeJob(app, storage);
  const environmentOf = (request: FastifyRequest): PatientEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  });
  const fileEnvironmentOf = (request: FastifyRequest): PatientFileEnvironment => ({
    ...environmentOf(request),
    storage,
    log: request.log,
  });
  const tags = ['patients'];

  app.get(
    '/patients',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: `Patients the caller sees (their level’s health centers). ${LIST_NOTE} Audited (PATIENT_LISTED)`,
        querystring: patientListQuerySchema,
        response: { 200: successEnvelope(patientPageSchema) },
      },
    },
    async (request) => ok(await listPatients(environmentOf(request), request.query)),
  );

  app.get(
    '/patients/export',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary:
          'The patient list as an xlsx file, with the list’s filters and sort (export.noData when nothing matches). Audited (PATIENT_EXPORTED)',
        querystring: patientExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await exportPatients(
        environmentOf(request),
        request.query,
        request.language,
      );
      return reply
        .header('content-disposition', attachmentHeader(fileName))
        .header('cache-control', 'no-store')
        .type(XLSX_CONTENT_TYPE)
        .send(stream);
    },
  );

  app.get(
    '/patients/:id',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary:
          'A patient’s profile (patient.notFound outside the caller’s centers; patient.accountDeleted once deleted). Audited (PATIENT_VIEWED)',
        params: idParams,
        response: detailResponse,
      },
    },
    async (request) => ok(await readPatient(environmentOf(request), request.params.id)),
  );

  app.post(
    '/patients',
    {
      config: { access: 'user.create' },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Create a patient. Spec §5: names without digits, birthday not in the future and 18+ (patient.underage), phone 3-16 digits, valid email, height and weight ranges, at least one of patient id, phone, email (patient.identifierRequired); patient id, phone, email and contract id unique in the tenant. Without a patient id the next one of the tenant’s sequence is given',
        body: patientCreateSchema,
        response: detailResponse,
      },
    },
    async (request) => {
      assertPatientInput(request);
      return ok(await createPatient(environmentOf(request), request.body));
    },
  );

  app.put(
    '/patients/:id',
    {
      config: { access: 'user.update' },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Edit a patient (the whole record, same rules as create). The contract id cannot change once set (patient.contractIdLocked)',
        params: idParams,
        body: patientUpdateSchema,
        response: detailResponse,
      },
    },
    async (request) => {
      assertPatientInput(request);
      return ok(await updatePatient(environmentOf(request), request.params.id, request.body));
    },
  );

  app.put(
    '/patients/:id/status',
    {
      config: { access: 'health.update' },
      schema: {
        tags,
        summary:
          'Change a patient’s status with a reason (PATIENT_STATUS_TRANSITIONS; patient.invalidStatus, patient.reasonRequired, patient.cannotChangeStatus). Writes a history row',
        params: idParams,
        body: patientStatusChangeSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await changeStatus(environmentOf(request), request.params.id, request.body)),
  );

  app.get(
    '/patients/:id/status-history',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: 'A patient’s status changes, newest first',
        params: idParams,
        response: { 200: successEnvelope(z.array(patientStatusHistoryEntrySchema)) },
      },
    },
    async (request) => ok(await readStatusHistory(environmentOf(request), request.params.id)),
  );

  app.delete(
    '/patients/:id',
    {
      config: { access: 'user.delete' },
      schema: {
        tags,
        summary:
          'Delete a patient account (spec §4): disabled at once, data removed 30 days later, irreversible. The body repeats the patient id to confirm',
        params: idParams,
        body: patientDeleteSchema,
        response: { 200: successEnvelope(patientDeletionSchema) },
      },
    },
    async (request) => ok(await deletePatient(environmentOf(request), request.params.id, request.body)),
  );

  await app.register(medicalRecordRoutes({ environmentOf: fileEnvironmentOf, receiveFrom }));

  // Dashboard counts (spec §7, exact paths) ---------------------------------------------------

  app.get(
    '/doctor/getCountPatientStatus',
    {
      config: { access: 'session' },
      onRequest: requireCaller(hasDashboardAs(['DOCTOR'])),
      schema: {
        tags,
        summary:
          'Dashboard: the calling doctor’s patients (scope mine, the default: their care teams; center: all they see) by status, equal to the patient list’s totals for the same scope (doctors holding dashboard.view)',
        querystring: clinicalCountQuerySchema,
        response: countsResponse,
      },
    },
    async (request) =>
      ok(
        await countPatients(environmentOf(request), {
          scope: request.query.scope,
          centerId: request.query.mhscId,
        }),
      ),
  );

  app.get(
    '/doctor-assistant/get-count-patient-status',
    {
      config: { access: 'session' },
      onRequest: requireCaller(hasDashboardAs(['DOCTOR_ASSISTANT'])),
      schema: {
        tags,
        summary:
          'Dashboard: patients of the calling assistant’s doctors (scope mine, the default; center: all they see) by status, equal to the patient list’s totals for the same scope (doctor assistants holding dashboard.view)',
        querystring: clinicalCountQuerySchema,
        response: countsResponse,
      },
    },
    async (request) =>
      ok(
        await countPatients(environmentOf(request), {
          scope: request.query.scope,
          centerId: request.query.mhscId,
        }),
      ),
  );

  app.get(
    '/operator/getCountPatientStatus',
    {
      config: { access: 'dashboard.view' },
      schema: {
        tags,
        summary:
          'Dashboard: patients the caller’s level sees by status (scope center, the default; mine: their care team), optionally of one health center (mhscId), equal to the patient list’s totals for the same scope',
        querystring: operatorCountQuerySchema,
        response: countsResponse,
      },
    },
    async (request) =>
      ok(
        await countPatients(environmentOf(request), {
          scope: request.query.scope,
          centerId: request.query.mhscId,
        }),
      ),
  );

  app.get(
    '/smadmin/mhsc/getCountPatientStatus',
    {
      config: { access: 'session' },
      onRequest: requireCaller(hasDashboardAs(CENTER_ADMIN_ROLES)),
      schema: {
        tags,
        summary:
          'Dashboard: patients of one health center (mhscId) by status (center and scope admins holding dashboard.view)',
        querystring: centerCountQuerySchema,
        response: countsResponse,
      },
    },
    async (request) =>
      ok(await countPatients(environmentOf(request), { scope: 'center', centerId: request.query.mhscId })),
  );
};
