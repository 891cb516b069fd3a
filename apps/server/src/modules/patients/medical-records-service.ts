import {
  MEDICAL_RECORD_EARLIEST_DATE,
  MEDICAL_RECORD_MAX_FILES,
  MEDICAL_RECORD_TYPES,
  PATIENT_FILE_MAX_BYTES,
  PATIENT_FILE_TYPES,
  type MedicalRecord,
  type MedicalRecordInput,
  type MedicalRecordListQuery,
  type PatientFile,
} from '@rpm/contracts';
import type { Readable } from 'node:stream';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
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
import { patientToday } from '../care-plan/prescription-service.js';
import { requireProfile } from '../followers/profile.js';
import type { Page } from '../care-plan/store.js';
import * as records from './medical-records-store.js';
import type { PatientEnvironment } from './service.js';
import * as store from './store.js';
import { toFile } from './views.js';

/**
 * Medical records (spec §3 Medical record; §2 add, edit, detail) and their attachments: jpg, png
 * or pdf recognised by their first bytes, up to 10 MB each and MEDICAL_RECORD_MAX_FILES a record.
 * Reads are audited as PHI reads; writes as MEDICAL_RECORD_* and PATIENT_FILE_*.
 */

export interface PatientFileEnvironment extends PatientEnvironment {
  storage: FileStorage;
  /** Where a failure after the commit goes (it must not turn a stored file into an error). */
  log: { warn(details: object, message: string): void };
}

/** The uploaded file, received only once the patient and the record are known to be reachable. */
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

const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const typeOf = (value: string) => MEDICAL_RECORD_TYPES.find((type) => type === value) ?? 'OTHER';
const orNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);

function toRecord(row: records.MedicalRecordRow, files: PatientFile[]): MedicalRecord {
  return {
    id: row.id,
    patientId: row.patient_id,
    title: row.title,
    type: typeOf(row.record_type),
    examinationDate: row.examined_on,
    place: row.place,
    doctor: row.doctor_name,
    note: row.note,
    files,
    createdBy: row.created_by === null ? null : { id: row.created_by, fullName: row.created_by_name ?? '' },
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** The records of `rows` with their attachments, in one query for all of them. */
async function withFiles(tx: TenantTransaction, rows: records.MedicalRecordRow[]): Promise<MedicalRecord[]> {
  const files = await records.filesOf(
    tx,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRecord(row, files.filter((file) => file.file.recordId === row.id).map(toFile)));
}

/** The patient, visible and live, in the caller's view: its account user for the audit. */
async function livePatient(
  tx: TenantTransaction,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<{ userId: string | null }> {
  const row = await store.findPatient(tx, patientId, options);
  if (row === undefined) throw new AppError('patient.notFound');
  if (row.patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
  return { userId: row.patient.userId };
}

async function existingRecord(
  tx: TenantTransaction,
  patientId: string,
  recordId: string,
  options: { lock?: boolean } = {},
): Promise<records.MedicalRecordRow> {
  const row = await records.findRecord(tx, patientId, recordId, options);
  if (row === undefined) throw new AppError('medicalRecord.notFound');
  return row;
}

/** Spec §3 fields as stored; the examination day from 1900 to the patient's today. */
async function checkedFields(
  tx: TenantTransaction,
  environment: PatientEnvironment,
  patientId: string,
  input: MedicalRecordInput,
) {
  const today = await patientToday(tx, patientId, environment.clock.now());
  if (input.examinationDate < MEDICAL_RECORD_EARLIEST_DATE || input.examinationDate > today)
    throw new AppError('medicalRecord.invalidDate', {
      fieldErrors: [{ field: 'examinationDate', code: 'invalidDate', message: 'medicalRecord.invalidDate' }],
    });
  return {
    title: input.title,
    recordType: input.type,
    examinedOn: input.examinationDate,
    place: orNull(input.place),
    doctorName: orNull(input.doctor),
    note: orNull(input.note),
  };
}

/** GET /account/patients/:id/records: a page of the patient's records, audited as a PHI read. */
export function listMedicalRecords(
  environment: PatientEnvironment,
  patientId: string,
  query: MedicalRecordListQuery,
): Promise<Page<MedicalRecord>> {
  return withCaller(environment.database, environment.auth, (tx) =>
    listIn(tx, environment, patientId, query),
  );
}

async function listIn(
  tx: TenantTransaction,
  environment: PatientEnvironment,
  patientId: string,
  query: MedicalRecordListQuery,
): Promise<Page<MedicalRecord>> {
  const patient = await livePatient(tx, patientId);
  const rows = await records.listRecords(tx, patientId, query);
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action: 'MEDICAL_RECORDS_LISTED',
      patientIds: [patientId],
      subjectUserId: patient.userId,
      targetId: patientId,
      details: { shown: rows.length },
    },
    environment.clock.now(),
  );
  return { items: await withFiles(tx, rows), page: query.page, size: query.size, total: rows[0]?.total ?? 0 };
}

/** GET /account/patients/:id/records/:recordId, audited as a PHI read. */
export function readMedicalRecord(
  environment: PatientEnvironment,
  patientId: string,
  recordId: string,
): Promise<MedicalRecord> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await livePatient(tx, patientId);
    const row = await existingRecord(tx, patientId, recordId);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'MEDICAL_RECORD_VIEWED',
        patientIds: [patientId],
        subjectUserId: patient.userId,
        targetId: patientId,
        details: { recordId },
      },
      environment.clock.now(),
    );
    const [record] = await withFiles(tx, [row]);
    if (record === undefined) throw new AppError('medicalRecord.notFound');
    return record;
  });
}

/** POST /account/patients/:id/records: a record without attachments yet (they are uploaded to it). */
export function createMedicalRecord(
  environment: PatientEnvironment,
  patientId: string,
  input: MedicalRecordInput,
): Promise<MedicalRecord> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const patient = await livePatient(tx, patientId, { lock: true });
    const fields = await checkedFields(tx, environment, patientId, input);
    const now = clock.now();
    const id = uuidv7();
    await records.insertRecord(tx, {
      tenantId: auth.tenantId,
      id,
      patientId,
      ...fields,
      createdBy: auth.userId,
      createdAt: now,
      updatedBy: auth.userId,
      updatedAt: now,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'MEDICAL_RECORD_CREATED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patientId,
      details: { recordId: id, type: fields.recordType },
      at: now,
    });
    return toRecord(await existingRecord(tx, patientId, id), []);
  });
}

/** PUT /account/patients/:id/records/:recordId: every field replaced; the attachments stay. */
export function updateMedicalRecord(
  environment: PatientEnvironment,
  patientId: string,
  recordId: string,
  input: MedicalRecordInput,
): Promise<MedicalRecord> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const patient = await livePatient(tx, patientId);
    const before = await existingRecord(tx, patientId, recordId, { lock: true });
    const fields = await checkedFields(tx, environment, patientId, input);
    const now = clock.now();
    await records.updateRecord(tx, recordId, { ...fields, updatedBy: auth.userId, updatedAt: now });
    const changed = (
      [
        ['title', before.title, fields.title],
        ['type', before.record_type, fields.recordType],
        ['examinationDate', before.examined_on, fields.examinedOn],
        ['place', before.place, fields.place],
        ['doctor', before.doctor_name, fields.doctorName],
        ['note', before.note, fields.note],
      ] as const
    )
      .filter(([, was, is]) => was !== is)
      .map(([field]) => field);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'MEDICAL_RECORD_UPDATED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patientId,
      details: { recordId, changed },
      at: now,
    });
    const [record] = await withFiles(tx, [await existingRecord(tx, patientId, recordId)]);
    if (record === undefined) throw new AppError('medicalRecord.notFound');
    return record;
  });
}

/** DELETE /account/patients/:id/records/:recordId: the rows in the transaction, the bytes after it. */
export async function deleteMedicalRecord(
  environment: PatientFileEnvironment,
  patientId: string,
  recordId: string,
): Promise<void> {
  const { auth, clock } = environment;
  const keys = await withCaller(environment.database, auth, async (tx) => {
    const patient = await livePatient(tx, patientId);
    const row = await existingRecord(tx, patientId, recordId, { lock: true });
    const removed = await records.deleteRecord(tx, recordId);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'MEDICAL_RECORD_DELETED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patientId,
      details: { recordId, title: row.title, files: removed.length },
      at: clock.now(),
    });
    return removed;
  });
  await removeStored(environment, keys, 'could not remove a file of a deleted medical record');
}

async function removeStored(
  environment: PatientFileEnvironment,
  keys: string[],
  message: string,
): Promise<void> {
  for (const key of keys)
    await environment.storage.remove(key).catch((error: unknown) => {
      // The row is gone; an orphaned file costs disk space, not correctness.
      environment.log.warn({ err: error, key }, message);
    });
}

/**
 * POST /account/patients/:id/records/:recordId/files: jpg, png or pdf (by their first bytes), up
 * to 10 MB. The file is stored first, then its row and audit entry in one transaction (which also
 * counts the record's files under its lock); a failed save removes it.
 */
export async function uploadRecordFile(
  environment: PatientFileEnvironment,
  patientId: string,
  recordId: string,
  receive: ReceiveFileUpload,
): Promise<PatientFile> {
  const { auth, clock, storage } = environment;
  await withCaller(environment.database, auth, async (tx) => {
    await livePatient(tx, patientId);
    await existingRecord(tx, patientId, recordId);
    if ((await records.countFiles(tx, recordId)) >= MEDICAL_RECORD_MAX_FILES)
      throw new AppError('medicalRecord.tooManyFiles');
  });
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
      const patient = await livePatient(tx, patientId);
      await existingRecord(tx, patientId, recordId, { lock: true });
      if ((await records.countFiles(tx, recordId)) >= MEDICAL_RECORD_MAX_FILES)
        throw new AppError('medicalRecord.tooManyFiles');
      const now = clock.now();
      const id = uuidv7();
      const name = cleanFileName(fileName);
      await records.insertFile(tx, {
        tenantId: auth.tenantId,
        id,
        patientId,
        recordId,
        name,
        contentType: stored.contentType,
        sizeBytes: stored.size,
        storageKey: stored.key,
        uploadedBy: auth.userId,
        uploadedAt: now,
      });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PATIENT_FILE_UPLOADED',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patientId,
        details: { recordId, fileId: id, name, contentType: stored.contentType, size: stored.size },
        at: now,
      });
      const saved = await records.findFile(tx, recordId, id);
      if (saved === undefined) throw new AppError('patient.fileNotFound');
      return toFile(saved);
    });
  } catch (error) {
    await removeStored(environment, [stored.key], 'could not remove a patient file that was not saved');
    throw error;
  }
}

/** GET /account/patients/:id/records/:recordId/files/:fileId: the bytes, audited (a PHI read). */
export async function openRecordFile(
  environment: PatientFileEnvironment,
  patientId: string,
  recordId: string,
  fileId: string,
): Promise<{ file: PatientFile; opened: OpenedFile }> {
  const { auth, clock } = environment;
  const found = await withCaller(environment.database, auth, async (tx) => {
    const patient = await livePatient(tx, patientId);
    await existingRecord(tx, patientId, recordId);
    const row = await records.findFile(tx, recordId, fileId);
    if (row === undefined) throw new AppError('patient.fileNotFound');
    await recordPatientReads(
      tx,
      auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_FILE_DOWNLOADED',
        patientIds: [patientId],
        subjectUserId: patient.userId,
        targetId: patientId,
        details: { recordId, fileId, name: row.file.name },
      },
      clock.now(),
    );
    return row;
  });
  const opened = await environment.storage.open(found.file.storageKey);
  if (opened === undefined) throw new AppError('patient.fileNotFound');
  return { file: toFile(found), opened };
}

/** DELETE /account/patients/:id/records/:recordId/files/:fileId: the row in the transaction, the bytes after it. */
export async function deleteRecordFile(
  environment: PatientFileEnvironment,
  patientId: string,
  recordId: string,
  fileId: string,
): Promise<void> {
  const { auth, clock } = environment;
  const key = await withCaller(environment.database, auth, async (tx) => {
    const patient = await livePatient(tx, patientId);
    await existingRecord(tx, patientId, recordId, { lock: true });
    const row = await records.findFile(tx, recordId, fileId);
    if (row === undefined) throw new AppError('patient.fileNotFound');
    await records.deleteFile(tx, fileId);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PATIENT_FILE_DELETED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patientId,
      details: { recordId, fileId, name: row.file.name },
      at: clock.now(),
    });
    return row.file.storageKey;
  });
  await removeStored(environment, [key], 'could not remove a deleted patient file');
}

/**
 * GET /health/me/records: the records of the session's profile (its own record or a sub-user's),
 * read only (spec §6: patients do not change their medical profile). A followed patient's records
 * are not shared: the database keeps them from followers, so the page is empty.
 */
export function listMyMedicalRecords(
  environment: PatientEnvironment,
  query: MedicalRecordListQuery,
): Promise<Page<MedicalRecord>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    return listIn(tx, environment, profile.patientId, query);
  });
}

/** GET /health/me/records/:recordId/files/:fileId: an attachment of the profile's record, audited. */
export async function openMyRecordFile(
  environment: PatientFileEnvironment,
  recordId: string,
  fileId: string,
): Promise<{ file: PatientFile; opened: OpenedFile }> {
  const patientId = await withCaller(
    environment.database,
    environment.auth,
    async (tx) => (await requireProfile(tx, environment.auth)).patientId,
  );
  return openRecordFile(environment, patientId, recordId, fileId);
}
