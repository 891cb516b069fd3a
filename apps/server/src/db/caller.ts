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

/** The caller as a subject of the patient access rule (contracts patient-access.ts). */
export function patientAccessSubjectOf(visibility: CenterVisibility): PatientAccessSubject {
  if ('ownRecordsOf' in visibility) return { kind: 'patient', userId: visibility.ownRecordsOf };
  return { kind: 'staff', centers: 'all' in visibility ? 'all' : visibility.centerIds };
}
