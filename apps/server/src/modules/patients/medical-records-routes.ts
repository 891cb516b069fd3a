import {
  medicalRecordInputSchema,
  medicalRecordListQuerySchema,
  medicalRecordSchema,
  pageOf,
  patientFileSchema,
  type PatientFile,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage, type OpenedFile } from '../../lib/file-storage.js';
import { attachmentHeader } from '../../lib/xlsx.js';
import {
  createMedicalRecord,
  deleteMedicalRecord,
  deleteRecordFile,
  listMedicalRecords,
  listMyMedicalRecords,
  openMyRecordFile,
  openRecordFile,
  readMedicalRecord,
  updateMedicalRecord,
  uploadRecordFile,
  type PatientFileEnvironment,
  type ReceiveFileUpload,
} from './medical-records-service.js';

/** An attachment's bytes, never cached, offered as a download under its name. */
function sendAttachment(reply: FastifyReply, file: PatientFile, opened: OpenedFile) {
  return reply
    .header('content-disposition', attachmentHeader(file.name))
    .header('cache-control', 'private, no-store')
    .header('content-length', opened.size)
    .type(opened.contentType)
    .send(opened.stream);
}

const patientParams = z.object({ id: z.uuid() });
const recordParams = z.object({ id: z.uuid(), recordId: z.uuid() });
const fileParams = z.object({ id: z.uuid(), recordId: z.uuid(), fileId: z.uuid() });
const recordResponse = { 200: successEnvelope(medicalRecordSchema) };
const done = { 200: successEnvelope(z.null()) };
const tags = ['patients'];

export interface MedicalRecordRouteOptions {
  environmentOf: (request: FastifyRequest) => PatientFileEnvironment;
  receiveFrom: (request: FastifyRequest) => ReceiveFileUpload;
}

/**
 * Medical records (spec §2 medical records: add, edit, detail) under /account/patients/:id/records:
 * read with user.view, written with user.update; a record's attachments are uploaded to it one
 * file per call. Registered inside the patients plugin, which accepts the multipart bodies.
 */
export function medicalRecordRoutes(options: MedicalRecordRouteOptions): FastifyPluginAsyncZod {
  const { environmentOf, receiveFrom } = options;
  return async (app) => {
    app.get(
      '/patients/:id/records',
      {
        config: { access: 'user.view' },
        schema: {
          tags,
          summary:
            'A patient’s medical records with their attachments: paged, searchable (title, place, doctor), filterable by type, sortable (sortField examinationDate|title|created). Audited as MEDICAL_RECORDS_LISTED.',
          params: patientParams,
          querystring: medicalRecordListQuerySchema,
          response: { 200: successEnvelope(pageOf(medicalRecordSchema)) },
        },
      },
      async (request) =>
        ok(await listMedicalRecords(environmentOf(request), request.params.id, request.query)),
    );

    app.post(
      '/patients/:id/records',
      {
        config: { access: 'user.update' },
        schema: {
          tags,
          summary:
            'Add a medical record (title, type, examination date from 1900 to the patient’s today — medicalRecord.invalidDate otherwise — place, doctor, note); its files are uploaded to it next. Audited.',
          params: patientParams,
          body: medicalRecordInputSchema,
          response: recordResponse,
        },
      },
      async (request) =>
        ok(await createMedicalRecord(environmentOf(request), request.params.id, request.body)),
    );

    app.get(
      '/patients/:id/records/:recordId',
      {
        config: { access: 'user.view' },
        schema: {
          tags,
          summary: 'A medical record with its attachments (audited as MEDICAL_RECORD_VIEWED)',
          params: recordParams,
          response: recordResponse,
        },
      },
      async (request) =>
        ok(await readMedicalRecord(environmentOf(request), request.params.id, request.params.recordId)),
    );

    app.put(
      '/patients/:id/records/:recordId',
      {
        config: { access: 'user.update' },
        schema: {
          tags,
          summary:
            'Edit a medical record: every field replaced, the attachments kept. Audited with the fields changed.',
          params: recordParams,
          body: medicalRecordInputSchema,
          response: recordResponse,
        },
      },
      async (request) =>
        ok(
          await updateMedicalRecord(
            environmentOf(request),
            request.params.id,
            request.params.recordId,
            request.body,
          ),
        ),
    );

    app.delete(
      '/patients/:id/records/:recordId',
      {
        config: { access: 'user.update' },
        schema: {
          tags,
          summary: 'Delete a medical record and its attachments. Audited.',
          params: recordParams,
          response: done,
        },
      },
      async (request) => {
        await deleteMedicalRecord(environmentOf(request), request.params.id, request.params.recordId);
        return ok(null);
      },
    );

    app.post(
      '/patients/:id/records/:recordId/files',
      {
        config: { access: 'user.update' },
        schema: {
          tags,
          summary:
            'Attach a file to a medical record: multipart field `file`, JPG, PNG or PDF (recognised by content), at most 10 MB; at most 10 a record (medicalRecord.tooManyFiles)',
          consumes: ['multipart/form-data'],
          params: recordParams,
          response: { 200: successEnvelope(patientFileSchema) },
        },
      },
      async (request) =>
        ok(
          await uploadRecordFile(
            environmentOf(request),
            request.params.id,
            request.params.recordId,
            receiveFrom(request),
          ),
        ),
    );

    app.get(
      '/patients/:id/records/:recordId/files/:fileId',
      {
        config: { access: 'user.view' },
        schema: {
          tags,
          summary: 'An attachment’s bytes (audited as PATIENT_FILE_DOWNLOADED)',
          params: fileParams,
        },
      },
      async (request, reply) => {
        const { file, opened } = await openRecordFile(
          environmentOf(request),
          request.params.id,
          request.params.recordId,
          request.params.fileId,
        );
        return sendAttachment(reply, file, opened);
      },
    );

    app.delete(
      '/patients/:id/records/:recordId/files/:fileId',
      {
        config: { access: 'user.update' },
        schema: {
          tags,
          summary: 'Remove an attachment from a medical record. Audited.',
          params: fileParams,
          response: done,
        },
      },
      async (request) => {
        await deleteRecordFile(
          environmentOf(request),
          request.params.id,
          request.params.recordId,
          request.params.fileId,
        );
        return ok(null);
      },
    );
  };
}

/**
 * The patient app's medical records under /health/me (the session's profile: its own record or a
 * sub-user's; a followed patient's are not shared): read only, with their attachments.
 */
export const medicalRecordMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  const environmentOf = (request: FastifyRequest): PatientFileEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
  const SELF =
    'Patient sessions (health.noPatientProfile otherwise), on the session’s profile (x-patient-profile: own record or a sub-user; a followed patient’s records are not shared).';

  app.get(
    '/me/records',
    {
      config: { access: 'health.view' },
      schema: {
        tags: ['patient app'],
        summary: `The profile’s medical records with their attachments, read only. ${SELF} Paged, search, type, sortField examinationDate|title|created. Audited (MEDICAL_RECORDS_LISTED)`,
        querystring: medicalRecordListQuerySchema,
        response: { 200: successEnvelope(pageOf(medicalRecordSchema)) },
      },
    },
    async (request) => ok(await listMyMedicalRecords(environmentOf(request), request.query)),
  );

  app.get(
    '/me/records/:recordId/files/:fileId',
    {
      config: { access: 'health.view' },
      schema: {
        tags: ['patient app'],
        summary: `An attachment of one of the profile’s medical records (its bytes). ${SELF} medicalRecord.notFound, patient.fileNotFound. Audited (PATIENT_FILE_DOWNLOADED)`,
        params: z.object({ recordId: z.uuid(), fileId: z.uuid() }),
      },
    },
    async (request, reply) => {
      const { file, opened } = await openMyRecordFile(
        environmentOf(request),
        request.params.recordId,
        request.params.fileId,
      );
      return sendAttachment(reply, file, opened);
    },
  );
};
