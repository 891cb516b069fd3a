import type { AuthContext } from '../http/access.js';
import type { Database, TenantTransaction } from './database.js';

/**
 * The transaction a request works in for its caller: the tenant they act in, limited to the
 * health centers they may see (their level, narrowed by the level switcher). Every list and
 * lookup made for a caller goes through here, so visibility is the database's job, not each
 * query's.
 */
export function withCaller<T>(database: Database, auth: AuthContext, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  return database.withTenant(auth.tenantId, work, auth.visibility);
}
