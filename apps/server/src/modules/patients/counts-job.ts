import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { sumOverActiveTenants } from '../jobs/tenant-pass.js';

/**
 * Folds patient_counts (migration 0062) in every active tenant: the rows the triggers on patients
 * appended since the last fold become one row per center and status. The counts are exact without
 * it; it keeps the rows a count reads few. One tenant's failure does not stop the others. Returns
 * how many rows were folded away.
 */
export async function foldPatientCounts(database: Database, logger?: FastifyBaseLogger): Promise<number> {
  return sumOverActiveTenants(
    database,
    async (tx) => {
      const result = await tx.execute<{ removed: number }>(sql`SELECT fold_patient_counts() AS removed`);
      return result.rows[0]?.removed ?? 0;
    },
    'patients: folding the patient counts failed for a tenant',
    logger,
  );
}

/** Every minute, once for the whole process group (the job queue's crontab). */
export const FOLD_PATIENT_COUNTS_TASK = definePeriodicTask({
  name: 'patients.foldCounts',
  schedule: '* * * * *',
  handler: async ({ database, log }) => {
    await foldPatientCounts(database, log);
  },
});
