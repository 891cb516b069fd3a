import type { FastifyBaseLogger } from 'fastify';
import type { Database, TenantTransaction } from '../../db/database.js';
import { activeTenantIds } from '../staff/store.js';

/**
 * Runs `work` in a transaction of each active tenant in turn and sums what each returns. One
 * tenant's failure is logged (with `failure`) and does not stop the others.
 */
export async function sumOverActiveTenants(
  database: Database,
  work: (tx: TenantTransaction) => Promise<number>,
  failure: string,
  logger?: FastifyBaseLogger,
): Promise<number> {
  let sum = 0;
  for (const tenantId of await activeTenantIds(database.system)) {
    try {
      sum += await database.withTenant(tenantId, work);
    } catch (error) {
      logger?.error({ err: error, tenantId }, failure);
    }
  }
  return sum;
}
