import { VITALS_STORAGE } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { tenants, tenantSettings } from '../../db/schema.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { JOB_AUDIT_CONTEXT, recordAudit } from '../audit/store.js';
import { definePeriodicTask } from '../jobs/registry.js';
import { activeTenantIds } from '../staff/store.js';
import { withTenantVitals } from './vitals-database.js';

/** One tenant's storage settings (VITALS_COMPACT_AFTER_DAYS, VITALS_RETENTION_DAYS; 0: kept for ever). */
export interface StorageSettings {
  compactAfterDays: number;
  retentionDays: number;
}

/** Patients whose readings one pass compacts per tenant; the rest wait for the next pass. */
export const COMPACT_PATIENTS_PER_PASS = 2_000;
/** A patient's backlog is moved a month at a time, each slice in its own transaction. */
const SLICE_DAYS = 31;

const wholeNumber = (stored: string | undefined) => (stored !== undefined && /^\d+$/.test(stored) ? Number(stored) : undefined);

/** A stored setting outside its bounds (an older release, a hand edit) counts as the default. */
export function storageSettingsOf(stored: ReadonlyMap<string, string>): StorageSettings {
  const compact = wholeNumber(stored.get('VITALS_COMPACT_AFTER_DAYS'));
  const retention = wholeNumber(stored.get('VITALS_RETENTION_DAYS'));
  return {
    compactAfterDays:
      compact !== undefined && compact >= VITALS_STORAGE.minCompactAfterDays && compact <= VITALS_STORAGE.maxCompactAfterDays
        ? compact
        : VITALS_STORAGE.defaultCompactAfterDays,
    retentionDays:
      retention !== undefined && retention >= VITALS_STORAGE.minRetentionDays && retention <= VITALS_STORAGE.maxRetentionDays
        ? retention
        : 0,
  };
}

async function storageSettings(database: Database, tenantIds: readonly string[]): Promise<Map<string, StorageSettings>> {
  const rows =
    tenantIds.length === 0
      ? []
      : await database.system
          .select({ tenantId: tenantSettings.tenantId, key: tenantSettings.key, value: tenantSettings.value })
          .from(tenantSettings)
          .where(and(inArray(tenantSettings.key, ['VITALS_COMPACT_AFTER_DAYS', 'VITALS_RETENTION_DAYS']), inArray(tenantSettings.tenantId, [...tenantIds])));
  const stored = new Map<string, Map<string, string>>();
  for (const row of rows) stored.set(row.tenantId, (stored.get(row.tenantId) ?? new Map<string, string>()).set(row.key, row.value));
  return new Map(tenantIds.map((tenantId) => [tenantId, storageSettingsOf(stored.get(tenantId) ?? new Map<string, string>())]));
}

/** The UTC midnight `days` whole days before the day of `now`. */
export function utcMidnightBefore(now: Date, days: number): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - days * DAY);
}

/**
 * Moves one patient's readings measured before `cutoff` (a UTC midnight) into day blocks, oldest
 * month first, each month in its own transaction. Answers how many raw rows were moved.
 */
export async function compactPatientReadings(database: Database, tenantId: string, patientId: string, cutoff: Date): Promise<number> {
  const oldest = await withTenantVitals(database, tenantId, async (tx) => {
    const result = await tx.execute<{ oldest: string | null }>(sql`
      SELECT min(measured_at)::text AS oldest FROM readings
       WHERE tenant_id = ${tenantId} AND patient_id = ${patientId} AND measured_at < ${cutoff.toISOString()}::timestamptz`);
    return result.rows[0]?.oldest ?? null;
  });
  if (oldest === null) return 0;
  let moved = 0;
  let before = utcMidnightBefore(new Date(oldest), -SLICE_DAYS);
  for (;;) {
    const sliceEnd = before < cutoff ? before : cutoff;
    moved += await withTenantVitals(database, tenantId, async (tx) => {
      const result = await tx.execute<{ moved: string }>(
        sql`SELECT compact_patient_readings(${patientId}::uuid, ${sliceEnd.toISOString()}::timestamptz) AS moved`,
      );
      return Number(result.rows[0]?.moved ?? 0);
    });
    if (sliceEnd.getTime() === cutoff.getTime()) return moved;
    before = new Date(before.getTime() + SLICE_DAYS * DAY);
  }
}

/**
 * Compacts a tenant's readings older than its VITALS_COMPACT_AFTER_DAYS (whole UTC days), at most
 * COMPACT_PATIENTS_PER_PASS patients a pass. Answers the patients visited and the rows moved.
 */
export async function compactTenantReadings(
  database: Database,
  now: Date,
  tenantId: string,
  settings: StorageSettings,
  patientsPerPass = COMPACT_PATIENTS_PER_PASS,
): Promise<{ patients: number; readings: number }> {
  const cutoff = utcMidnightBefore(now, settings.compactAfterDays);
  const waiting = await withTenantVitals(database, tenantId, (tx) =>
    tx.execute<{ patient_id: string }>(sql`
      SELECT DISTINCT patient_id FROM readings
       WHERE tenant_id = ${tenantId} AND measured_at < ${cutoff.toISOString()}::timestamptz
       LIMIT ${patientsPerPass}`),
  );
  let readings = 0;
  for (const { patient_id: patientId } of waiting.rows) readings += await compactPatientReadings(database, tenantId, patientId, cutoff);
  return { patients: waiting.rows.length, readings };
}

/**
 * Retention: with VITALS_RETENTION_DAYS set, the tenant's readings measured before that many days
 * (whole UTC days), raw and compacted, are deleted with an audit entry saying how many and up to
 * when: in one transaction on the platform database; on a DEDICATED tenant's vitals database the
 * deletion commits first and the audit entry follows on the primary. Rollups are kept. Answers the
 * readings deleted.
 */
export async function purgeExpiredReadings(database: Database, now: Date, tenantId: string, settings: StorageSettings): Promise<number> {
  if (settings.retentionDays === 0) return 0;
  const before = utcMidnightBefore(now, settings.retentionDays);
  return database.withTenant(tenantId, async (tx) => {
    // On a DEDICATED tenant's vitals database the deletion commits there first; its audit row here.
    const result = await withTenantVitals(
      database,
      tenantId,
      (vitals) =>
        vitals.execute<{ readings: string; blocks: string; block_readings: string }>(
          sql`SELECT readings, blocks, block_readings FROM purge_readings_before(${before.toISOString()}::timestamptz)`,
        ),
      tx,
    );
    const row = result.rows[0];
    const raw = Number(row?.readings ?? 0);
    const compacted = Number(row?.block_readings ?? 0);
    if (raw + compacted > 0) {
      await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
        action: 'VITALS_PURGED',
        details: {
          before: before.toISOString(),
          retentionDays: settings.retentionDays,
          rawReadings: raw,
          compactedReadings: compacted,
          blocks: Number(row?.blocks ?? 0),
        },
      });
    }
    return raw + compacted;
  });
}

/** Empty month partitions before `before` give their space back, in the platform database and each DEDICATED one. */
async function truncateEmptiedPartitions(database: Database, before: Date, log: FastifyBaseLogger): Promise<number> {
  const call = sql`SELECT truncate_emptied_reading_partitions(${before.toISOString()}::timestamptz) AS truncated`;
  let truncated = (await database.system.execute<{ truncated: number }>(call)).rows[0]?.truncated ?? 0;
  const dedicated = await database.system.select({ id: tenants.id }).from(tenants).where(eq(tenants.connectionType, 'DEDICATED'));
  for (const tenant of dedicated) {
    try {
      truncated += (await database.withTenant(tenant.id, (tx) => tx.execute<{ truncated: number }>(call))).rows[0]?.truncated ?? 0;
      // And in its vitals database, where its readings are when it has one of its own.
      if ((await database.vitalsPlacement(tenant.id)) === 'vitals')
        truncated += (await withTenantVitals(database, tenant.id, (tx) => tx.execute<{ truncated: number }>(call))).rows[0]?.truncated ?? 0;
    } catch (error) {
      log.error({ err: error, tenantId: tenant.id }, 'vitals: giving back emptied partitions failed for a tenant');
    }
  }
  return truncated;
}

/**
 * One storage pass over every active tenant: retention first (nothing is compacted only to be
 * deleted), then compaction, then emptied partitions. A failing tenant is logged and skipped.
 */
export async function runStoragePass(database: Database, clock: Clock, log: FastifyBaseLogger) {
  const now = clock.now();
  const tenantIds = await activeTenantIds(database.system);
  const settings = await storageSettings(database, tenantIds);
  const totals = { purged: 0, compacted: 0, patients: 0, partitions: 0 };
  for (const tenantId of tenantIds) {
    const tenantSettingsNow = settings.get(tenantId) ?? storageSettingsOf(new Map());
    try {
      totals.purged += await purgeExpiredReadings(database, now, tenantId, tenantSettingsNow);
      const compacted = await compactTenantReadings(database, now, tenantId, tenantSettingsNow);
      totals.compacted += compacted.readings;
      totals.patients += compacted.patients;
    } catch (error) {
      log.error({ err: error, tenantId }, 'vitals: the storage pass failed for a tenant');
    }
  }
  // A month partition is truncated only when no tenant has a row left in it (checked under lock).
  totals.partitions = await truncateEmptiedPartitions(database, utcMidnightBefore(now, VITALS_STORAGE.minCompactAfterDays), log);
  if (totals.purged + totals.compacted + totals.partitions > 0) log.info(totals, 'vitals: readings compacted and purged');
  return totals;
}

/** Hourly, at 23 minutes past (UTC): retention, compaction and partition space. */
export const READINGS_STORAGE_TASK = definePeriodicTask({
  name: 'vitals.readingsStorage',
  schedule: '23 * * * *',
  handler: async ({ database, clock, log }) => {
    await runStoragePass(database, clock, log);
  },
});
