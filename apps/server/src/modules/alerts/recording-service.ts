import {
  SOS_RECORDING_MAX_BYTES,
  SOS_RECORDING_TYPES,
  type SosRecording,
  type SosRecordingFields,
} from '@rpm/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { sosCases, sosRecordings, type SosRecordingRow } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { FileRejectedError, type FileStorage, type OpenedFile, type StoredFile } from '../../lib/file-storage.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { publishEvent } from '../realtime/publish.js';
import { withOwnPatient, type OwnPatientEnvironment } from './own-patient.js';
import { recordCaseHistory } from './records.js';

export interface RecordingEnvironment extends OwnPatientEnvironment {
  storage: FileStorage;
  log: { warn(details: object, message: string): void };
}

/** The recording's bytes, received once the case is known to be the caller's own. */
export interface RecordingUpload {
  fields: SosRecordingFields;
  stream: Readable;
  isTruncated: () => boolean;
}

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const;

const toRecording = (row: SosRecordingRow): SosRecording => ({
  id: row.id,
  sosCaseId: row.sosCaseId,
  contentType: row.contentType as SosRecording['contentType'],
  sizeBytes: row.sizeBytes,
  durationSeconds: row.durationSeconds,
  createdAt: row.createdAt.toISOString(),
});

async function findByUpload(tx: TenantTransaction, uploadId: string) {
  const [row] = await tx.select().from(sosRecordings).where(eq(sosRecordings.uploadId, uploadId)).limit(1);
  return row;
}

/** The patient's own case (any state but closed: a recording made while help is on its way). */
async function requireOwnOpenCase(tx: TenantTransaction, patientId: string, sosCaseId: string) {
  const [found] = await tx
    .select({ id: sosCases.id, status: sosCases.status })
    .from(sosCases)
    .where(and(eq(sosCases.id, sosCaseId), eq(sosCases.patientId, patientId)))
    .limit(1);
  if (found === undefined) throw new AppError('sosCase.notFound');
  if (found.status === 'CLOSED') throw new AppError('sosCase.invalidTransition');
}

/**
 * POST /health/me/sos/recordings: the patient's voice message, attached to their own SOS case
 * (spec §2 "SOS message choice and recording"). WebM, Ogg or MP4 audio recognised by its first
 * bytes, at most 2 MB counted while streaming; stored first, then its row, history entry, live
 * event and audit row in one transaction (a failed save removes the bytes). The same uploadId
 * again answers the recording already stored.
 */
export async function uploadSosRecording(
  environment: RecordingEnvironment,
  receive: () => Promise<RecordingUpload>,
): Promise<SosRecording> {
  // A staff login (no patient record) is answered before its body is read.
  await withOwnPatient(environment, { write: true }, () => Promise.resolve());
  const upload = await receive();
  const { fields } = upload;
  const existing = await withOwnPatient(environment, { write: true }, async (tx, patient) => {
    await requireOwnOpenCase(tx, patient.id, fields.sosCaseId);
    return findByUpload(tx, fields.uploadId);
  });
  if (existing !== undefined) {
    upload.stream.resume();
    return toRecording(existing);
  }
  let stored: StoredFile;
  try {
    stored = await environment.storage.save(upload.stream, {
      tenantId: environment.auth.tenantId,
      category: 'sosrecordings',
      maxBytes: SOS_RECORDING_MAX_BYTES,
      accept: SOS_RECORDING_TYPES,
      isTruncated: upload.isTruncated,
    });
  } catch (error) {
    if (error instanceof FileRejectedError)
      throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
  try {
    return await withOwnPatient(
      environment,
      { lock: true, write: true },
      async (tx, patient) => {
        await requireOwnOpenCase(tx, patient.id, fields.sosCaseId);
        const again = await findByUpload(tx, fields.uploadId);
        if (again !== undefined) {
          await environment.storage.remove(stored.key);
          return toRecording(again);
        }
        const now = environment.clock.now();
        const [row] = await tx
          .insert(sosRecordings)
          .values({
            tenantId: environment.auth.tenantId,
            id: uuidv7(),
            sosCaseId: fields.sosCaseId,
            patientId: patient.id,
            uploadId: fields.uploadId,
            contentType: stored.contentType,
            sizeBytes: stored.size,
            durationSeconds: fields.durationSeconds,
            storageKey: stored.key,
            recordedBy: environment.auth.userId,
            createdAt: now,
          })
          .returning();
        if (row === undefined) throw new Error('recording not stored');
        await recordCaseHistory(tx, {
          tenantId: environment.auth.tenantId,
          sosCaseId: fields.sosCaseId,
          patientId: patient.id,
          kind: 'RECORDING',
          note: `${String(fields.durationSeconds)} s`,
          actorId: environment.auth.userId,
          at: now,
        });
        await publishEvent(tx, environment.auth.tenantId, {
          type: 'sos.updated',
          patientId: patient.id,
          healthCenterId: patient.healthCenterId,
          payload: { sosCaseId: fields.sosCaseId, recordingId: row.id },
        });
        await recordAudit(tx, environment.auth.tenantId, environment.audit, {
          action: 'SOS_RECORDING_UPLOADED',
          targetType: 'sosCase',
          targetId: fields.sosCaseId,
          details: { recordingId: row.id, size: stored.size, contentType: stored.contentType },
          at: now,
        });
        return toRecording(row);
      },
    );
  } catch (error) {
    await environment.storage.remove(stored.key).catch((removeError: unknown) => {
      environment.log.warn({ err: removeError, key: stored.key }, 'could not remove an SOS recording that was not saved');
    });
    throw error;
  }
}

/** The case as the caller sees it (another center's or tenant's: sosCase.notFound). */
async function requireVisibleCase(tx: TenantTransaction, sosCaseId: string) {
  const [found] = await tx
    .select({ id: sosCases.id, patientId: sosCases.patientId })
    .from(sosCases)
    .where(eq(sosCases.id, sosCaseId))
    .limit(1);
  if (found === undefined) throw new AppError('sosCase.notFound');
  return found;
}

/** GET /account/sos-cases/:id/recordings: the case's voice recordings, oldest first. Audited. */
export async function listSosRecordings(environment: OwnPatientEnvironment, sosCaseId: string): Promise<SosRecording[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const found = await requireVisibleCase(tx, sosCaseId);
    const rows = await tx
      .select()
      .from(sosRecordings)
      .where(eq(sosRecordings.sosCaseId, sosCaseId))
      .orderBy(asc(sosRecordings.createdAt));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'SOS_RECORDINGS_LISTED',
      targetType: 'sosCase',
      targetId: sosCaseId,
      patientIds: [found.patientId],
      details: { shown: rows.length },
    });
    return rows.map(toRecording);
  });
}

/** GET /account/sos-cases/:id/recordings/:recordingId: the bytes, audited (a PHI read). */
export async function openSosRecording(
  environment: RecordingEnvironment,
  sosCaseId: string,
  recordingId: string,
): Promise<OpenedFile> {
  const row = await withCaller(environment.database, environment.auth, async (tx) => {
    const found = await requireVisibleCase(tx, sosCaseId);
    const [recording] = await tx
      .select()
      .from(sosRecordings)
      .where(and(eq(sosRecordings.id, recordingId), eq(sosRecordings.sosCaseId, sosCaseId)))
      .limit(1);
    if (recording === undefined) throw new AppError('sosRecording.notFound');
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'SOS_RECORDING_PLAYED',
      targetType: 'sosCase',
      targetId: sosCaseId,
      patientIds: [found.patientId],
      details: { recordingId },
    });
    return recording;
  });
  const opened = await environment.storage.open(row.storageKey);
  if (opened === undefined) throw new AppError('sosRecording.notFound');
  return opened;
}
