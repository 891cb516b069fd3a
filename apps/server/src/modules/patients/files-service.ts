import { PATIENT_FILE_MAX_BYTES, PATIENT_FILE_TYPES, type PatientFile } from '@rpm/contracts';
import type { Readable } from 'node:stream';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import {
  FileRejectedError,
  type FileRejection,
  type FileStorage,
  type OpenedFile,
  type StoredFile,
} from '../../lib/file-storage.js';
import { acceptUploadName } from '../../lib/upload-name.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import type { PatientEnvironment } from './service.js';
import * as store from './store.js';
import { toFile } from './views.js';

export interface PatientFileEnvironment extends PatientEnvironment {
  storage: FileStorage;
  /** Where a failure after the commit goes (it must not turn a stored file into an error). */
  log: { warn(details: object, message: string): void };
}

/** The uploaded file, received only once the patient is known to be reachable. */
export interface FileUpload {
  stream: Readable;
  fileName: string;
  isTruncated: () => boolean;
}
export type ReceiveFileUpload = () => Promise<FileUpload>;

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

/** A display name: the client's base name without control characters, never used as a path. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let cleaned = '';
  for (const character of base) {
    const code = character.charCodeAt(0);
    cleaned += code < 32 || code === 127 ? '_' : character;
  }
  cleaned = cleaned.trim().slice(0, 200);
  return cleaned === '' ? 'file' : cleaned;
}

/** The patient must be visible and live; runs in the caller's view. */
async function assertPatient(environment: PatientEnvironment, patientId: string): Promise<void> {
  await withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findPatient(tx, patientId);
    if (row === undefined) throw new AppError('patient.notFound');
    if (row.patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
  });
}

export async function listPatientFiles(
  environment: PatientEnvironment,
  patientId: string,
): Promise<PatientFile[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findPatient(tx, patientId);
    if (row === undefined) throw new AppError('patient.notFound');
    if (row.patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
    const files = (await store.listFiles(tx, patientId)).map(toFile);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_FILES_LISTED',
        patientIds: [patientId],
        subjectUserId: row.patient.userId,
        targetId: patientId,
        details: { shown: files.length },
      },
      environment.clock.now(),
    );
    return files;
  });
}

/**
 * POST /account/patients/:id/files: jpg, png or pdf (by their first bytes), up to 10 MB. The file
 * is stored first, then its row and audit entry in one transaction; a failed save removes it.
 */
export async function uploadPatientFile(
  environment: PatientFileEnvironment,
  patientId: string,
  receive: ReceiveFileUpload,
): Promise<PatientFile> {
  const { auth, clock, storage } = environment;
  await assertPatient(environment, patientId);
  const upload = await receive();
  const fileName = await acceptUploadName(upload);
  let stored: StoredFile;
  try {
    stored = await storage.save(upload.stream, {
      tenantId: auth.tenantId,
      category: 'patientfiles',
      maxBytes: PATIENT_FILE_MAX_BYTES,
      accept: PATIENT_FILE_TYPES,
      isTruncated: upload.isTruncated,
    });
  } catch (error) {
    if (error instanceof FileRejectedError)
      throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
  try {
    return await withCaller(environment.database, auth, async (tx) => {
      const row = await store.findPatient(tx, patientId, { lock: true });
      if (row === undefined) throw new AppError('patient.notFound');
      if (row.patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
      const now = clock.now();
      const id = uuidv7();
      const name = cleanFileName(fileName);
      await store.insertFile(tx, {
        tenantId: auth.tenantId,
        id,
        patientId,
        name,
        contentType: stored.contentType,
        sizeBytes: stored.size,
        storageKey: stored.key,
        uploadedBy: auth.userId,
        uploadedAt: now,
      });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PATIENT_FILE_UPLOADED',
        subjectUserId: row.patient.userId,
        targetType: 'patient',
        targetId: patientId,
        details: { fileId: id, name, contentType: stored.contentType, size: stored.size },
        at: now,
      });
      const saved = await store.findFile(tx, patientId, id);
      if (saved === undefined) throw new AppError('patient.fileNotFound');
      return toFile(saved);
    });
  } catch (error) {
    await storage.remove(stored.key).catch((removeError: unknown) => {
      environment.log.warn(
        { err: removeError, key: stored.key },
        'could not remove a patient file that was not saved',
      );
    });
    throw error;
  }
}

/** GET /account/patients/:id/files/:fileId: the bytes, audited (a PHI read). */
export async function openPatientFile(
  environment: PatientFileEnvironment,
  patientId: string,
  fileId: string,
): Promise<{ file: PatientFile; opened: OpenedFile }> {
  await assertPatient(environment, patientId);
  const { auth, clock } = environment;
  const found = await withCaller(environment.database, auth, async (tx) => {
    const row = await store.findFile(tx, patientId, fileId);
    if (row === undefined) throw new AppError('patient.fileNotFound');
    await recordPatientReads(
      tx,
      auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_FILE_DOWNLOADED',
        patientIds: [patientId],
        targetId: patientId,
        details: { fileId, name: row.file.name },
      },
      clock.now(),
    );
    return row;
  });
  const opened = await environment.storage.open(found.file.storageKey);
  if (opened === undefined) throw new AppError('patient.fileNotFound');
  return { file: toFile(found), opened };
}

/** DELETE /account/patients/:id/files/:fileId: the row goes in the transaction, the bytes after it. */
export async function deletePatientFile(
  environment: PatientFileEnvironment,
  patientId: string,
  fileId: string,
): Promise<void> {
  await assertPatient(environment, patientId);
  const { auth, clock } = environment;
  const key = await withCaller(environment.database, auth, async (tx) => {
    const row = await store.findFile(tx, patientId, fileId);
    if (row === undefined) throw new AppError('patient.fileNotFound');
    await store.deleteFile(tx, fileId);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PATIENT_FILE_DELETED',
      targetType: 'patient',
      targetId: patientId,
      details: { fileId, name: row.file.name },
      at: clock.now(),
    });
    return row.file.storageKey;
  });
  await environment.storage.remove(key).catch((error: unknown) => {
    // The row is gone; an orphaned file costs disk space, not correctness.
    environment.log.warn({ err: error, key }, 'could not remove a deleted patient file');
  });
}
