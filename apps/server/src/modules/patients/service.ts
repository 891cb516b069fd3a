import {
  canChangePatientStatus,
  isPatientStatus,
  LIMITS,
  type ErrorCode,
  type PatientCreate,
  type PatientDelete,
  type PatientDetail,
  type PatientListQuery,
  type PatientPageResponse,
  type PatientStatusChange,
  type PatientStatusHistoryEntry,
  type PatientUpdate,
} from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { readAsCaller, withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { healthCenters, users, type patients } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { revokeUserSessions } from '../auth/store.js';
import { applyManualStatusChange } from '../vitals/status-engine.js';
import * as store from './store.js';
import { toDetail, toHistoryEntry, toSummary } from './views.js';

export interface PatientEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

/** GET /account/patients' answer (contracts patientPageSchema). */
export type PatientPage = PatientPageResponse;

/** A 4xx naming the field it is about (the console shows it under that field). */
export function fieldError(code: ErrorCode, field: string, zodCode = 'invalid_value'): AppError {
  return new AppError(code, { fieldErrors: [{ field, code: zodCode, message: code }] });
}

const UNIQUE_FIELDS: Record<string, { code: ErrorCode; field: string }> = {
  patients_code_key: { code: 'patient.codeExists', field: 'body.patientCode' },
  patients_phone_key: { code: 'patient.phoneExists', field: 'body.phone' },
  patients_email_key: { code: 'patient.emailExists', field: 'body.email' },
  patients_contract_id_key: { code: 'patient.contractIdExists', field: 'body.contractId' },
};

/**
 * The answer for a database refusal the API explains: a duplicate (unique indexes see the whole
 * tenant, past the caller's centers) or the contract-id trigger.
 */
export function conflictOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if ('code' in current && 'constraint' in current && typeof current.constraint === 'string') {
      const unique = current.code === '23505' ? UNIQUE_FIELDS[current.constraint] : undefined;
      if (unique !== undefined) return fieldError(unique.code, unique.field, 'duplicate');
      if (current.constraint === 'patients_contract_id_locked')
        return fieldError('patient.contractIdLocked', 'body.contractId');
    }
    current = current.cause;
  }
  return undefined;
}

async function rethrowConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

/**
 * Runs `work` on a patient the caller may see (withCaller: their tenant, their centers). Another
 * tenant's or another center's patient is "not found", like an id that does not exist; a deleted
 * account answers patient.accountDeleted unless `allowDeleted`.
 */
async function withPatient<T>(
  environment: PatientEnvironment,
  id: string,
  options: { lock?: boolean; allowDeleted?: boolean },
  work: (tx: TenantTransaction, row: store.PatientWithCenter) => Promise<T>,
): Promise<T> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findPatient(tx, id, { lock: options.lock === true });
    if (row === undefined) throw new AppError('patient.notFound');
    if (row.patient.accountState !== 'ACTIVE' && options.allowDeleted !== true)
      throw new AppError('patient.accountDeleted');
    return work(tx, row);
  });
}

async function readAfterWrite(tx: TenantTransaction, id: string): Promise<PatientDetail> {
  const row = await store.findPatient(tx, id);
  if (row === undefined) throw new AppError('patient.notFound');
  return toDetail(row);
}

/**
 * The health center a new or moved patient belongs to: one the caller sees. A caller who does not
 * see the whole tenant must place the patient in one of their centers (otherwise they could not
 * see the record they just wrote); with a single center, that one is the default.
 */
async function resolveCenter(
  tx: TenantTransaction,
  auth: AuthContext,
  requested: string | null | undefined,
): Promise<string | null> {
  if (requested !== null && requested !== undefined) {
    const found = await tx
      .select({ id: healthCenters.id })
      .from(healthCenters)
      .where(eq(healthCenters.id, requested))
      .limit(1);
    if (found.length === 0) throw fieldError('center.notFound', 'body.healthCenterId');
    return requested;
  }
  if ('all' in auth.visibility) return null;
  const [only, ...others] = 'centerIds' in auth.visibility ? auth.visibility.centerIds : [];
  if (only !== undefined && others.length === 0) return only;
  throw new AppError('common.invalidParameter', {
    fieldErrors: [{ field: 'body.healthCenterId', code: 'required', message: 'validation.required' }],
  });
}

/** Columns of the editable fields (create and update). */
function columnsOf(input: PatientCreate) {
  return {
    firstName: input.firstName,
    middleName: input.middleName,
    lastName: input.lastName,
    birthday: input.birthday,
    gender: input.gender,
    phone: input.phone ?? null,
    email: input.email ?? null,
    heightCm: input.heightCm ?? null,
    weightKg: input.weightKg ?? null,
    bloodType: input.bloodType ?? null,
    addressLine: input.address.line,
    addressWard: input.address.ward,
    addressDistrict: input.address.district,
    addressProvince: input.address.province,
    addressCountry: input.address.country,
    medicalNotes: input.medicalNotes,
    packageCode: input.packageCode ?? null,
    packageExpiresAt: input.packageExpiresAt ?? null,
  } satisfies Partial<typeof patients.$inferInsert>;
}

// Reads ---------------------------------------------------------------------------------------

/** GET /account/patients: a page of live patients the caller sees. A PHI read: audited. */
export function listPatients(environment: PatientEnvironment, query: PatientListQuery): Promise<PatientPage> {
  const { page, size, ...filter } = query;
  // A list may be a few seconds old: the tenant's replica may serve it; the audit row is written
  // on the primary.
  return readAsCaller(
    environment.database,
    environment.auth,
    async (tx) => {
      const { items, total, isTotalExact } = await store.listPatients(
        tx,
        { ...filter, callerId: environment.auth.userId, visibility: environment.auth.visibility },
        { page, size },
        environment.clock.now(),
      );
      const now = environment.clock.now();
      return { items: items.map((row) => toSummary(row, now)), page, size, total, isTotalExact };
    },
    (tx, listed) =>
      recordPatientReads(
        tx,
        environment.auth.tenantId,
        environment.audit,
        {
          action: 'PATIENT_LISTED',
          patientIds: listed.items.map((item) => item.id),
          details: { ...filter, page, size, shown: listed.items.length, total: listed.total, isTotalExact: listed.isTotalExact },
        },
        environment.clock.now(),
      ),
  );
}

/** GET /account/patients/:id, with a PATIENT_VIEWED audit row (PHI reads are audited). */
export function readPatient(environment: PatientEnvironment, id: string): Promise<PatientDetail> {
  return withPatient(environment, id, {}, async (tx, row) => {
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_VIEWED',
        patientIds: [row.patient.id],
        subjectUserId: row.patient.userId,
        targetId: row.patient.id,
        details: { patientCode: row.patient.patientCode },
      },
      environment.clock.now(),
    );
    return toDetail(row);
  });
}

export function readStatusHistory(
  environment: PatientEnvironment,
  id: string,
): Promise<PatientStatusHistoryEntry[]> {
  return withPatient(environment, id, {}, async (tx, row) => {
    const history = (await store.statusHistory(tx, row.patient.id)).map(toHistoryEntry);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_STATUS_HISTORY_VIEWED',
        patientIds: [row.patient.id],
        subjectUserId: row.patient.userId,
        targetId: row.patient.id,
        details: { shown: history.length },
      },
      environment.clock.now(),
    );
    return history;
  });
}

// Writes --------------------------------------------------------------------------------------

/**
 * POST /account/patients. The patient id comes from the tenant's sequence unless given (a given
 * one must be unique, and moves the sequence past it when it looks like one of its own).
 */
export async function createPatient(
  environment: PatientEnvironment,
  input: PatientCreate,
): Promise<PatientDetail> {
  const { auth, clock } = environment;
  return rethrowConflict(
    withCaller(environment.database, auth, async (tx) => {
      const healthCenterId = await resolveCenter(tx, auth, input.healthCenterId);
      const given = input.patientCode ?? null;
      const patientCode = given ?? (await store.allocatePatientCodes(tx, auth.tenantId, 1))[0];
      if (patientCode === undefined) throw new Error('no patient code allocated');
      if (given !== null) await store.advancePatientCodesPast(tx, auth.tenantId, [given]);
      const id = uuidv7();
      const now = clock.now();
      await store.insertPatients(tx, [
        {
          tenantId: auth.tenantId,
          id,
          patientCode,
          healthCenterId,
          contractId: input.contractId ?? null,
          ...columnsOf(input),
          createdAt: now,
          updatedAt: now,
        },
      ]);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PATIENT_CREATED',
        targetType: 'patient',
        targetId: id,
        details: { patientCode, healthCenterId, generatedCode: given === null },
        at: now,
      });
      return readAfterWrite(tx, id);
    }),
  );
}

/**
 * PUT /account/patients/:id: the whole record. The contract id cannot change once set
 * (patient.contractIdLocked; the database's trigger holds the same rule for every writer).
 */
export async function updatePatient(
  environment: PatientEnvironment,
  id: string,
  input: PatientUpdate,
): Promise<PatientDetail> {
  const { auth, clock } = environment;
  return rethrowConflict(
    withPatient(environment, id, { lock: true }, async (tx, { patient }) => {
      const contractId = input.contractId ?? null;
      if (patient.contractId !== null && contractId !== patient.contractId)
        throw fieldError('patient.contractIdLocked', 'body.contractId');
      const healthCenterId =
        input.healthCenterId === undefined || input.healthCenterId === patient.healthCenterId
          ? patient.healthCenterId
          : await resolveCenter(tx, auth, input.healthCenterId);
      const patientCode = input.patientCode ?? patient.patientCode;
      if (patientCode !== patient.patientCode)
        await store.advancePatientCodesPast(tx, auth.tenantId, [patientCode]);
      const now = clock.now();
      const changes = { ...columnsOf(input), patientCode, healthCenterId, contractId };
      const changed = Object.entries(changes)
        .filter(([key, value]) => patient[key as keyof typeof patient] !== value)
        .map(([key]) => key);
      await store.updatePatient(tx, patient.id, changes, now);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PATIENT_UPDATED',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { changed },
        at: now,
      });
      return readAfterWrite(tx, patient.id);
    }),
  );
}

/**
 * PUT /account/patients/:id/status (spec §4): a manual change PATIENT_STATUS_TRANSITIONS allows,
 * with a reason; through the status lifecycle (docs/status-lifecycle.md), with an audit row, in
 * the same transaction.
 */
export function changeStatus(
  environment: PatientEnvironment,
  id: string,
  input: PatientStatusChange,
): Promise<PatientDetail> {
  const { auth, clock } = environment;
  return withPatient(environment, id, { lock: true, allowDeleted: true }, async (tx, { patient }) => {
    const target = input.status.toUpperCase();
    if (!isPatientStatus(target)) throw fieldError('patient.invalidStatus', 'body.status');
    const reason = input.reason?.trim() ?? '';
    if (reason === '') throw fieldError('patient.reasonRequired', 'body.reason', 'required');
    const from = patient.status;
    if (
      patient.accountState !== 'ACTIVE' ||
      !isPatientStatus(from) ||
      !canChangePatientStatus(from, target)
    ) {
      throw new AppError('patient.cannotChangeStatus');
    }
    const now = clock.now();
    // The status lifecycle's plan for a manual change (reason MANUAL with the note), applied by the
    // status engine's executor: status, episode, evidence, come-down job, history row, live event.
    const changeId = await applyManualStatusChange(tx, clock, auth.tenantId, patient.id, {
      to: target,
      note: reason,
      changedBy: auth.userId,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PATIENT_STATUS_CHANGED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patient.id,
      details: { from, to: target, reason, changeId },
      at: now,
    });
    return readAfterWrite(tx, patient.id);
  });
}

/**
 * DELETE /account/patients/:id (spec §4): the account is disabled at once and its data removed by
 * the purge job LIMITS.accountDeletionDays later; irreversible. The patient id is typed again to
 * confirm. The patient's own login (if any) stops working now; the sub-users that login holds are
 * deleted with it (same purge time).
 */
export async function deletePatient(environment: PatientEnvironment, id: string, input: PatientDelete) {
  const { auth, clock, database } = environment;
  const outcome = await withPatient(environment, id, { lock: true }, async (tx, { patient }) => {
    if (input.confirmPatientCode.toUpperCase() !== patient.patientCode.toUpperCase()) {
      throw new AppError('common.invalidParameter', {
        fieldErrors: [
          { field: 'body.confirmPatientCode', code: 'invalid_value', message: 'validation.invalidValue' },
        ],
      });
    }
    const now = clock.now();
    const purgeAfter = new Date(now.getTime() + LIMITS.accountDeletionDays * DAY);
    await store.updatePatient(
      tx,
      patient.id,
      { accountState: 'DISABLED', deletionRequestedAt: now, purgeAfter },
      now,
    );
    if (patient.userId !== null)
      await tx.update(users).set({ status: 'DISABLED', updatedAt: now }).where(eq(users.id, patient.userId));
    // The account's sub-users go with it: nobody could sign in to manage them any more.
    const subUserIds =
      patient.userId === null
        ? []
        : await store.disableSubUsersOf(tx, patient.userId, { deletionRequestedAt: now, purgeAfter });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PATIENT_DELETION_REQUESTED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patient.id,
      details: {
        patientCode: patient.patientCode,
        purgeAfter: purgeAfter.toISOString(),
        reason: input.reason ?? null,
        ...(subUserIds.length > 0 ? { subUserIds } : {}),
      },
      at: now,
    });
    return {
      id: patient.id,
      userId: patient.userId,
      deletionRequestedAt: now.toISOString(),
      purgeAfter: purgeAfter.toISOString(),
    };
  });
  if (outcome.userId !== null)
    await revokeUserSessions(database.system, [outcome.userId], 'disabled', clock.now());
  return {
    id: outcome.id,
    accountState: 'DISABLED' as const,
    deletionRequestedAt: outcome.deletionRequestedAt,
    purgeAfter: outcome.purgeAfter,
  };
}
