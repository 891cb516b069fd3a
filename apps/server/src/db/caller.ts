import type { PatientAccessSubject } from '@rpm/contracts';
import type { AuthContext } from '../http/access.js';
import type { CenterVisibility, Database, TenantTransaction } from './database.js';

/**
 * The transaction a request works in for its caller: the tenant they act in, limited to the
 * health centers they may see (their level, narrowed by the level switcher), or for a patient
 * account to its own records. Every list and lookup made for a caller goes through here, so
 * visibility is the database's job, not each query's.
 */
export function withCaller<T>(database: Database, auth: AuthContext, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  return database.withTenant(auth.tenantId, work, auth.visibility);
}

/**
 * A read for the caller that a DEDICATED tenant's replica may serve (Database.readTenant): for
 * lists, dashboards, statistics, charts and exports only, whose answers may be a few seconds old,
 * never for a read that decides a write. `record` (the audit row of a PHI read) runs on the
 * primary after the read. A caller who just wrote reads on the primary (read-your-writes).
 */
export function readAsCaller<T>(
  database: Database,
  auth: AuthContext,
  read: (tx: TenantTransaction) => Promise<T>,
  record?: (tx: TenantTransaction, result: T) => Promise<void>,
): Promise<T> {
  return database.readTenant(auth.tenantId, read, { visibility: auth.visibility, record, isFreshRequired: auth.isFreshReadRequired });
}

/** The caller as a subject of the patient access rule (contracts patient-access.ts). */
export function patientAccessSubjectOf(visibility: CenterVisibility): PatientAccessSubject {
  if ('ownRecordsOf' in visibility) return { kind: 'patient', userId: visibility.ownRecordsOf };
  return { kind: 'staff', centers: 'all' in visibility ? 'all' : visibility.centerIds };
}
