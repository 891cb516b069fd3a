import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { defineTask } from '../jobs/registry.js';
import { writeVitals } from './vitals-database.js';

/**
 * Rebuilds a patient's hourly and daily rollups in their current time zone (the account's, else
 * the tenant's, else UTC). Scheduled by the database in the transaction that changes the zone:
 * triggers users_time_zone_changed and patients_account_changed (migration 0027) for an account,
 * tenant_time_zone_changed (migration 0030) for each patient of a tenant without an account zone;
 * one waiting job per patient.
 */
export const REBUILD_LOCAL_ROLLUPS_TASK = 'vitals.rebuildLocalRollups';

/**
 * Takes the patient row's lock first: ingest holds the same lock while it stores a batch, so a
 * batch rolled up in the former zone has committed before the rebuild reads the readings, and the
 * next one sees the new zone. Idempotent (a rerun rebuilds the same rows). Returns the zone used,
 * or null when the patient no longer exists.
 */
export async function rebuildLocalRollups(
  database: Database,
  tenantId: string,
  patientId: string,
): Promise<string | null> {
  return database.withTenant(tenantId, async (tx) => {
    const locked = await tx.execute(
      sql`SELECT 1 FROM patients WHERE tenant_id = ${tenantId} AND id = ${patientId} FOR UPDATE`,
    );
    if (locked.rows.length === 0) return null;
    // On a DEDICATED tenant's vitals database, with the zone read here under the lock.
    const result = await writeVitals(database, tx, { tenantId, id: patientId }, (vitals) =>
      vitals.execute<{ zone: string }>(sql`SELECT rebuild_patient_rollups(${patientId}::uuid) AS zone`),
    );
    return result.rows[0]?.zone ?? null;
  });
}

defineTask<{ patientId: string }>(REBUILD_LOCAL_ROLLUPS_TASK, async (context) => {
  const zone = await rebuildLocalRollups(context.database, context.tenantId, context.payload.patientId);
  context.log.info({ patientId: context.payload.patientId, timeZone: zone }, 'vitals: local rollups rebuilt');
});
