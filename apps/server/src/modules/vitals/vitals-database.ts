import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, TenantTransaction } from '../../db/database.js';
import { isoInstant } from '../../lib/iso-instant.js';
import { patientTimeZone } from './fetch-store.js';
import type { ReadingRow } from './ingest-input.js';
import { insertReadings, readingKey, type InsertedReading } from './ingest-store.js';

/**
 * Readings and rollups where they live: in the tenant's transaction itself (SHARED tenants, and
 * DEDICATED tenants whose vitals connection names their primary: nothing changes, no extra round
 * trip), or in a DEDICATED tenant's vitals database. There, a transaction is opened only after the
 * caller's transaction `tx` on the primary (or replica) has found the patient through the caller's
 * visibility, and is limited by row level security to that patient (migration 0060).
 */
interface PatientRef {
  tenantId: string;
  id: string;
}

/**
 * A read of one patient's readings or rollups. On a vitals database the data kinds hidden from the
 * caller (a follower's, read from the primary where the follower grants are) go along, and the
 * vitals database's policies leave them out, as the primary's leave them out for SHARED tenants.
 */
export async function readVitals<T>(
  database: Database,
  tx: TenantTransaction,
  patient: PatientRef,
  work: (vitals: TenantTransaction) => Promise<T>,
): Promise<T> {
  if ((await database.vitalsPlacement(patient.tenantId)) === 'tenant') return work(tx);
  const hidden = await tx.execute<{ kinds: string[] | null }>(
    sql`SELECT array_agg(DISTINCT hidden.kind) AS kinds FROM app_subject_hidden_kinds() hidden WHERE hidden.patient_id = ${patient.id}::uuid`,
  );
  return database.withVitals(patient.tenantId, { patientIds: [patient.id], hiddenKinds: hidden.rows[0]?.kinds ?? [] }, work);
}

/**
 * A write of one patient's readings or rollups (ingest, the rollup rebuild). `tx` holds the patient
 * row's lock; the patient's time zone is read there and goes along (the vitals database knows no
 * accounts), so rollups land in the same local hours as on the primary. `isSeparate` tells the
 * work that its transaction commits on its own, before `tx` does.
 */
export async function writeVitals<T>(
  database: Database,
  tx: TenantTransaction,
  patient: PatientRef,
  work: (vitals: TenantTransaction, isSeparate: boolean) => Promise<T>,
): Promise<T> {
  if ((await database.vitalsPlacement(patient.tenantId)) === 'tenant') return work(tx, false);
  const timeZone = await patientTimeZone(tx, patient.id);
  return database.withVitals(patient.tenantId, { patientIds: [patient.id], timeZone }, (vitals) => work(vitals, true));
}

/**
 * Work of a job on the tenant's whole time series (compaction, retention): in a tenant
 * transaction where the readings are beside the rest, else in a whole-tenant transaction on its
 * vitals database. `within` is the job's transaction on the primary, when it has one: where the
 * readings are beside the rest, the work joins it (one commit, as before).
 */
export async function withTenantVitals<T>(
  database: Database,
  tenantId: string,
  work: (vitals: TenantTransaction) => Promise<T>,
  within?: TenantTransaction,
): Promise<T> {
  if ((await database.vitalsPlacement(tenantId)) === 'vitals') return database.withVitals(tenantId, { patientIds: 'all' }, work);
  return within === undefined ? database.withTenant(tenantId, work) : work(within);
}

/** Removes purged patients' readings and rollups (their rows on the primary go next, in `tx`). */
export async function purgeVitals(database: Database, tx: TenantTransaction, tenantId: string, patientIds: readonly string[]) {
  const purge = (vitals: TenantTransaction) =>
    vitals.execute(sql`SELECT purge_patient_readings(${sql.param(patientIds)}::uuid[]), purge_patient_rollups(${sql.param(patientIds)}::uuid[])`);
  if ((await database.vitalsPlacement(tenantId)) === 'tenant') await purge(tx);
  else await database.withVitals(tenantId, { patientIds }, purge);
}

type ReadingTarget = Parameters<typeof insertReadings>[1];

/**
 * The id a manual entry's readings carry in a vitals database: the same entry sent again gets the
 * same id, so an attempt whose primary transaction failed after its readings committed is
 * recognised (see storeReadings).
 */
function manualEntryId(target: ReadingTarget, rows: readonly ReadingRow[]): string {
  const text = [target.tenantId, target.patientId, ...rows.map((row) => `${row.measure}|${isoInstant(row.measuredAt.getTime())}|${row.source}|${row.value}`)].join('\n');
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Rows of `rows` that are stored already, by an earlier attempt of this same batch (`batchId`) and
 * not by this one. Such an attempt's vitals transaction committed but its primary transaction did
 * not (else the batch would have been answered as a replay), so nothing judged those readings yet.
 */
async function readingsOfEarlierAttempt(
  vitals: TenantTransaction,
  target: ReadingTarget & { batchId: string },
  rows: readonly ReadingRow[],
  inserted: readonly InsertedReading[],
): Promise<InsertedReading[]> {
  const added = new Set(inserted.map((row) => readingKey(row.measure, row.atMs, row.source)));
  const missing = rows.filter((row) => !added.has(readingKey(row.measure, row.measuredAt.getTime(), row.source)));
  if (missing.length === 0) return [];
  const list = (values: readonly string[]) => `{${values.join(',')}}`;
  const result = await vitals.execute<{ measure: string; at_ms: number; value: number; source: string; late: boolean }>(sql`
    SELECT r.measure, extract(epoch FROM r.measured_at)::float8 * 1000 AS at_ms, r.value, r.source, r.late
      FROM readings r
      JOIN unnest(${list(missing.map((row) => row.measure))}::text[], ${list(missing.map((row) => isoInstant(row.measuredAt.getTime())))}::timestamptz[],
                  ${list(missing.map((row) => row.source))}::text[]) AS key (measure, measured_at, source)
        ON r.measure = key.measure AND r.measured_at = key.measured_at AND r.source = key.source
     WHERE r.tenant_id = ${target.tenantId}::uuid AND r.patient_id = ${target.patientId}::uuid AND r.batch_id = ${target.batchId}::uuid`);
  const seen = new Set<string>();
  return result.rows.flatMap((row) => {
    const atMs = Math.round(row.at_ms);
    const key = readingKey(row.measure, atMs, row.source);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ measure: row.measure, atMs, value: row.value, source: row.source, late: row.late }];
  });
}

/**
 * Stores a batch's (or a manual entry's) readings and rollups and says which readings this batch
 * added, for the status engine to judge. In the tenant's own transaction that is insertReadings.
 * In a vitals database the write commits first, on its own, and the primary transaction (batch
 * record, thresholds, status, alerts, SOS) commits last; if that one fails, the device sends the
 * batch again and:
 * - the readings are not stored twice (readings_key, ON CONFLICT DO NOTHING) and the rollups,
 *   kept only from the rows an insert really added, count nothing twice;
 * - the readings the failed attempt stored carry its batch id, so they count as added by this
 *   attempt and are judged now: no threshold crossing is lost between the two commits.
 * A manual entry has no batch id of its own; it gets one derived from its content.
 */
export function storeReadings(
  database: Database,
  tx: TenantTransaction,
  target: ReadingTarget,
  rows: readonly ReadingRow[],
): Promise<InsertedReading[]> {
  return writeVitals(database, tx, { tenantId: target.tenantId, id: target.patientId }, async (vitals, isSeparate) => {
    if (!isSeparate || rows.length === 0) return insertReadings(vitals, target, rows);
    const attempt = { ...target, batchId: target.batchId ?? manualEntryId(target, rows) };
    const inserted = await insertReadings(vitals, attempt, rows);
    if (inserted.length === rows.length) return inserted;
    return [...inserted, ...(await readingsOfEarlierAttempt(vitals, attempt, rows, inserted))];
  });
}
