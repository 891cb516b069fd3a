import type { ErrorCode } from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditContext } from '../audit/store.js';
import { loadAlertPatient, type AlertPatient } from './patient-context.js';

/** What the alerting services work with for one request. */
export interface AlertEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
  /** Starts delivery of the messages a committed change queued. */
  kick: () => void;
  /** Keys the hashes of one-time codes (a follower invitation's code). */
  secretsKey: Buffer;
}

/** A 4xx naming the field it is about (the console shows it under that field). */
export function fieldError(code: ErrorCode, field: string, zodCode = 'invalid_value'): AppError {
  return new AppError(code, { fieldErrors: [{ field, code: zodCode, message: code }] });
}

/**
 * Runs `work` for the caller (their tenant, their centers) and kicks message delivery once the
 * transaction has committed.
 */
export async function asCaller<T>(
  environment: AlertEnvironment,
  work: (tx: TenantTransaction) => Promise<T>,
): Promise<T> {
  const result = await withCaller(environment.database, environment.auth, work);
  environment.kick();
  return result;
}

/** A patient the caller sees (another tenant's or center's answers patient.notFound). */
export async function requirePatient(
  tx: TenantTransaction,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<AlertPatient> {
  const patient = await loadAlertPatient(tx, patientId, options);
  if (patient === undefined) throw new AppError('patient.notFound');
  if (!patient.isActive) throw new AppError('patient.accountDeleted');
  return patient;
}
