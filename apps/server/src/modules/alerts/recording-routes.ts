import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  notificationListQuerySchema,
  notificationPageSchema,
  notificationReadAnswerSchema,
  notificationReadSchema,
  SOS_RECORDING_MAX_BYTES,
  sosRecordingFieldsSchema,
  sosRecordingSchema,
  successEnvelope,
  waitingAlertSchema,
} from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { auditContextOf } from '../../http/audit-context.js';
import { ok } from '../../http/envelope.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { listNotifications, markNotificationsRead, readWaitingAlert } from './notification-service.js';
import {
  listSosRecordings,
  openSosRecording,
  uploadSosRecording,
  type RecordingEnvironment,
  type RecordingUpload,
} from './recording-service.js';

function recordingEnvironmentOf(app: FastifyInstance) {
  const storage = createLocalFileStorage(path.join(app.config.dataDir, 'files'));
  return (request: FastifyRequest): RecordingEnvironment => ({
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
    storage,
    log: request.log,
  });
}

/** Reads the form fields sent before the file, then the `file` part (read lazily by the service). */
function receiveRecording(request: FastifyRequest) {
  return async (): Promise<RecordingUpload> => {
    if (!request.isMultipart()) throw new AppError('file.missing');
    let part: Awaited<ReturnType<FastifyRequest['file']>>;
    try {
      part = await request.file();
    } catch (error) {
      throw new AppError('common.invalidParameter', { cause: error });
    }
    if (part?.fieldname !== 'file') {
      part?.file.resume();
      throw new AppError('file.missing');
    }
    const values: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(part.fields)) {
      if (field !== undefined && !Array.isArray(field) && field.type === 'field') values[name] = field.value;
    }
    const fields = sosRecordingFieldsSchema.safeParse(values);
    if (!fields.success) {
      part.file.resume();
      throw new AppError('common.invalidParameter', {
        fieldErrors: fields.error.issues.map((issue) => ({
          field: issue.path.join('.'),
          code: issue.code,
          message: issue.message,
        })),
      });
    }
    const { file } = part;
    return { fields: fields.data, stream: file, isTruncated: () => file.truncated };
  };
}

/**
 * The patient app's own alert calls under /health (spec §2 SOS message choice and recording,
 * notifications; §4 alerts in the patient app): the SOS voice recording, the high-risk alert
 * waiting for an answer, the notifications with their read marks. Each resolves the patient from
 * the session; a staff login answers health.noPatientProfile.
 */
export const sosRecordingRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so only this plugin's routes accept multipart (the recording upload).
  await app.register(fastifyMultipart, {
    limits: { fileSize: SOS_RECORDING_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 200, headerPairs: 100 },
  });
  const environmentOf = recordingEnvironmentOf(app);
  const tags = ['alerts'];

  app.post(
    '/me/sos/recordings',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'Attach a voice recording to the patient’s own SOS case (not closed): multipart fields sosCaseId, uploadId (the same id again stores nothing new), durationSeconds (at most 60), then `file`: WebM, Ogg or MP4 audio recognised by content, at most 2 MB. Audited (SOS_RECORDING_UPLOADED)',
        consumes: ['multipart/form-data'],
        response: { 200: successEnvelope(sosRecordingSchema) },
      },
    },
    async (request) => ok(await uploadSosRecording(environmentOf(request), receiveRecording(request))),
  );

  app.get(
    '/me/alerts/waiting',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The high-risk alert waiting for "I am fine" or "call followers" (null: none) and when the escalation goes ahead without an answer (the tenant’s confirmation seconds). Audited (ALERT_WAITING_VIEWED)',
        response: { 200: successEnvelope(waitingAlertSchema) },
      },
    },
    async (request) => ok(await readWaitingAlert(environmentOf(request))),
  );

  app.get(
    '/me/notifications',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary:
          'The patient’s notifications (their alerts: at risk, high risk, SOS, no data), newest first, read or unread, page size 15 by default, with the unread count. Audited (APP_NOTIFICATIONS_VIEWED)',
        querystring: notificationListQuerySchema,
        response: { 200: successEnvelope(notificationPageSchema) },
      },
    },
    async (request) => ok(await listNotifications(environmentOf(request), request.query)),
  );

  app.post(
    '/me/notifications/read',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Mark one notification read (another patient’s: alert.notFound); answers the unread count',
        body: notificationReadSchema,
        response: { 200: successEnvelope(notificationReadAnswerSchema) },
      },
    },
    async (request) => ok(await markNotificationsRead(environmentOf(request), request.body.id)),
  );

  app.post(
    '/me/notifications/read-all',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: 'Mark every notification read; answers the unread count (0)',
        response: { 200: successEnvelope(notificationReadAnswerSchema) },
      },
    },
    async (request) => ok(await markNotificationsRead(environmentOf(request), null)),
  );
};

/**
 * The console's side of the recordings, under /account (registered by alertAccountRoutes): the
 * SOS case page lists a case's recordings and plays each through an authenticated, audited GET.
 */
export function registerRecordingAccountRoutes(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const environmentOf = recordingEnvironmentOf(app);
  const tags = ['alerts'];
  const caseParams = z.object({ id: z.uuid() });

  app.get(
    '/sos-cases/:id/recordings',
    {
      config: { access: ['health.sos', 'health.view'] },
      schema: {
        tags,
        summary: 'The voice recordings the patient attached to the case, oldest first. Audited (SOS_RECORDINGS_LISTED)',
        params: caseParams,
        response: { 200: successEnvelope(z.array(sosRecordingSchema)) },
      },
    },
    async (request) => ok(await listSosRecordings(environmentOf(request), request.params.id)),
  );

  app.get(
    '/sos-cases/:id/recordings/:recordingId',
    {
      config: { access: ['health.sos', 'health.view'] },
      schema: {
        tags,
        summary: 'A recording’s audio bytes (for an <audio> element). Audited (SOS_RECORDING_PLAYED)',
        params: caseParams.extend({ recordingId: z.uuid() }),
      },
    },
    async (request, reply) => {
      const opened = await openSosRecording(environmentOf(request), request.params.id, request.params.recordingId);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-length', opened.size)
        .type(opened.contentType)
        .send(opened.stream);
    },
  );
}
