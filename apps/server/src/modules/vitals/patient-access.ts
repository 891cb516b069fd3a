import type { Permission, ProfileKind, VitalStatus } from '@rpm/contracts';
import { and, eq } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import { readAsCaller, withCaller } from '../../db/caller.js';
import { patients } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditContext } from '../audit/store.js';
import { assertProfileWritable, resolveProfile } from '../followers/profile.js';

export interface VitalsEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

export interface VitalsPatient {
  tenantId: string;
  id: string;
  userId: string | null;
  healthCenterId: string | null;
  birthday: string | null;
  status: VitalStatus;
  accountKind: string;
  alertsSuppressedUntilNormal: boolean;
  lastReadingAt: Date | null;
  /** When the record was opened: nothing may be dated before it (health.beforeMonitoring). */
  createdAt: Date;
  /** A patient session's relation to this record (the profile header); null for staff. */
  profile: ProfileKind | null;
}

const columns = {
  tenantId: patients.tenantId,
  id: patients.id,
  userId: patients.userId,
  healthCenterId: patients.healthCenterId,
  birthday: patients.birthday,
  status: patients.status,
  accountKind: patients.accountKind,
  alertsSuppressedUntilNormal: patients.alertsSuppressedUntilNormal,
  lastReadingAt: patients.lastReadingAt,
  createdAt: patients.createdAt,
  accountState: patients.accountState,
};

/**
 * Runs `work` for the patient a call is about, in one transaction:
 * - a PATIENT session works on the profile it chose (followers/profile.ts: its own record without
 *   the profile header, else a sub-user it holds or a patient it follows, read only: a write is
 *   profile.readOnly); another `patientId` is not found;
 * - staff work on a patient their level sees (withCaller), holding `permission` (404 otherwise,
 *   so other centers' and tenants' patients are indistinguishable from missing ones).
 * With `lock`, the patient row is locked until the end (one batch at a time per patient, so the
 * status engine never decides from a stale status). Deleted accounts take no new data.
 */
export async function withVitalsPatient<T>(
  environment: VitalsEnvironment,
  request: PatientRequest,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
): Promise<T> {
  const find = patientFinder(environment, request);
  // The database applies the patient access rule too: a patient session sees only its own record,
  // its sub-users' and those it follows (minus hidden data kinds).
  return withCaller(environment.database, environment.auth, async (tx) => work(tx, await find(tx)));
}

/**
 * A read of a patient's data that a DEDICATED tenant's replica may serve (staff charts): the
 * patient is found and `work` runs as in withVitalsPatient, in a READ ONLY transaction on the
 * replica when it is fresh enough (readAsCaller); `record` (the audit row) runs on the primary.
 */
export async function readVitalsPatient<T>(
  environment: VitalsEnvironment,
  request: Omit<PatientRequest, 'lock' | 'write'>,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
  record: (tx: TenantTransaction, patient: VitalsPatient) => Promise<void>,
): Promise<T> {
  const find = patientFinder(environment, { ...request, lock: false, write: false });
  const { result } = await readAsCaller(
    environment.database,
    environment.auth,
    async (tx) => {
      const patient = await find(tx);
      return { patient, result: await work(tx, patient) };
    },
    (tx, read) => record(tx, read.patient),
  );
  return result;
}

interface PatientRequest {
  patientId: string | undefined;
  permission: Permission;
  lock: boolean;
  write: boolean;
}

/** Checks the caller's permission and returns how to find the patient in a transaction of theirs. */
function patientFinder(environment: VitalsEnvironment, request: PatientRequest): (tx: TenantTransaction) => Promise<VitalsPatient> {
  const { auth } = environment;
  const isPatientSession = auth.role === 'PATIENT';
  // A patient reads and sends their own data; thresholds and other patients are for staff.
  const isAllowed = isPatientSession
    ? request.permission !== 'health.threshold'
    : auth.permissions.has(request.permission);
  if (!isAllowed) throw new AppError('auth.permissionDenied');
  if (!isPatientSession && request.patientId === undefined) {
    throw new AppError('common.invalidParameter', {
      fieldErrors: [{ field: 'body.patientId', code: 'required', message: 'patientId is required' }],
    });
  }
  return async (tx: TenantTransaction) => {
    const profile = isPatientSession ? await resolveProfile(tx, auth) : undefined;
    if (isPatientSession && profile === undefined)
      throw new AppError(request.patientId === undefined ? 'health.noPatientProfile' : 'patient.notFound');
    if (profile !== undefined && request.write) assertProfileWritable(profile);
    const condition = and(eq(patients.tenantId, auth.tenantId), eq(patients.id, profile?.patientId ?? request.patientId ?? ''));
    const query = tx.select(columns).from(patients).where(condition).limit(1);
    const [row] = request.lock ? await query.for('update') : await query;
    if (row === undefined)
      throw new AppError(
        isPatientSession && request.patientId === undefined ? 'health.noPatientProfile' : 'patient.notFound',
      );
    if (request.patientId !== undefined && row.id !== request.patientId)
      throw new AppError('patient.notFound');
    if (request.write && row.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
    const { accountState: _accountState, ...patient } = row;
    return { ...patient, status: patient.status as VitalStatus, profile: profile?.kind ?? null };
  };
}
