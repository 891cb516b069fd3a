import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { sumOverActiveTenants } from '../jobs/tenant-pass.js';

/**
 * Writes the search terms of the transaction tenant's patients inserted with deferred terms (an
 * import's, migration 0065) in one sorted pass. Returns how many patients it took.
 */
export async function flushSearchTerms(tx: TenantTransaction): Promise<number> {
  const result = await tx.execute<{ taken: string | number }>(sql`SELECT patient_search_flush() AS taken`);
  return Number(result.rows[0]?.taken ?? 0);
}

/**
 * Flushes every active tenant's backlog: what an import did not flush itself (its process stopped
 * first) or what arrived while it ran. One tenant's failure does not stop the others.
 */
export async function flushSearchBacklogs(database: Database, logger?: FastifyBaseLogger): Promise<number> {
  return sumOverActiveTenants(database, flushSearchTerms, 'patients: writing the deferred search terms failed for a tenant', logger);
}

/** Every minute, once for the whole process group (the job queue's crontab). */
export const FLUSH_SEARCH_TERMS_TASK = definePeriodicTask({
  name: 'patients.flushSearchTerms',
  schedule: '* * * * *',
  handler: async ({ database, log }) => {
    await flushSearchBacklogs(database, log);
  },
});
