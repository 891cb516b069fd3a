import type { CollectorResult } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import {
  devices,
  ecgRecords,
  healthEvents,
  ingestBatches,
  patients,
  sleepRecords,
  sportRecords,
} from '../../db/schema.js';
import type { CheckedBatch, ReadingRow } from './ingest-input.js';

/** A PostgreSQL array literal of simple tokens (measures, sources, ISO instants, numbers): one bind parameter. */
const arrayLiteral = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

export interface InsertedReading {
  measure: string;
  atMs: number;
  value: number;
  source: string;
  late: boolean;
}

/**
 * Stores readings with one statement: a multi-row INSERT from unnest'ed arrays that skips rows
 * already stored (readings_key), and the hourly and daily rollups upserted from the rows the insert
 * really added (its RETURNING), so a retried batch counts nothing twice. Buckets are the patient's
 * local clock hours and calendar days (patient_time_zone, migration 0027). The readings are first
 * summed per UTC quarter hour, and only those sums are placed in local hours and days: every zone's
 * offset and DST change is a whole number of quarter hours, so a quarter hour never straddles a
 * local hour, and the zone arithmetic (a few microseconds a call) runs a few times per batch, not
 * per reading. Late readings are stored and rolled up like the others, with their `late` flag.
 */
export async function insertReadings(
  tx: TenantTransaction,
  target: {
    tenantId: string;
    patientId: string;
    deviceId: string | null;
    batchId: string | null;
    receivedAt: Date;
  },
  rows: readonly ReadingRow[],
): Promise<InsertedReading[]> {
  if (rows.length === 0) return [];
  const measures = arrayLiteral(rows.map((row) => row.measure));
  const times = arrayLiteral(rows.map((row) => row.measuredAt.toISOString()));
  const values = arrayLiteral(rows.map((row) => row.value));
  const sources = arrayLiteral(rows.map((row) => row.source));
  const late = arrayLiteral(rows.map((row) => (row.late ? 't' : 'f')));
  const rollup = (table: string, unit: 'hour' | 'day') =>
    sql.raw(`INSERT INTO ${table} AS r (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
      SELECT tenant_id, patient_id, measure, rollup_${unit}_start(slot, zone.name), sum(count), sum(sum), min(min), max(max),
             (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
        FROM slots CROSS JOIN zone GROUP BY tenant_id, patient_id, measure, rollup_${unit}_start(slot, zone.name)
      ON CONFLICT (tenant_id, patient_id, measure, bucket_start) DO UPDATE SET
        count = r.count + excluded.count, sum = r.sum + excluded.sum,
        min = least(r.min, excluded.min), max = greatest(r.max, excluded.max),
        last_value = CASE WHEN excluded.last_at >= r.last_at THEN excluded.last_value ELSE r.last_value END,
        last_at = greatest(r.last_at, excluded.last_at)`);
  const result = await tx.execute<{ measure: string; at_ms: number; value: number; source: string; late: boolean }>(sql`
    WITH inserted AS (
      INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at, late)
      SELECT ${target.tenantId}::uuid, ${target.patientId}::uuid, input.measure, input.measured_at, input.value, input.source,
             ${target.deviceId}::uuid, ${target.batchId}::uuid, ${target.receivedAt.toISOString()}::timestamptz, input.late
        FROM unnest(${measures}::text[], ${times}::timestamptz[], ${values}::float8[], ${sources}::text[], ${late}::boolean[])
             AS input (measure, measured_at, value, source, late)
      ON CONFLICT DO NOTHING
      RETURNING tenant_id, patient_id, measure, measured_at, value, source, late
    ), zone AS MATERIALIZED (SELECT patient_time_zone(${target.patientId}::uuid) AS name),
    slots AS MATERIALIZED (
      SELECT tenant_id, patient_id, measure, date_bin('15 minutes', measured_at, TIMESTAMPTZ '2000-01-01Z') AS slot,
             count(*) AS count, sum(value) AS sum, min(value) AS min, max(value) AS max,
             (array_agg(value ORDER BY measured_at DESC))[1] AS last_value, max(measured_at) AS last_at
        FROM inserted GROUP BY tenant_id, patient_id, measure, slot
    ), hourly AS (${rollup('readings_hourly', 'hour')}), daily AS (${rollup('readings_daily', 'day')})
    SELECT measure, extract(epoch FROM measured_at)::float8 * 1000 AS at_ms, value, source, late FROM inserted`);
  return result.rows.map((row) => ({
    measure: row.measure,
    atMs: Math.round(row.at_ms),
    value: row.value,
    source: row.source,
    late: row.late,
  }));
}

/**
 * Claims a batch id with the hash of its content; an existing claim is returned as is (its
 * patient, stored answer and content hash — null for batches stored before hashes were kept).
 */
export async function claimBatch(
  tx: TenantTransaction,
  tenantId: string,
  batchId: string,
  patientId: string,
  contentHash: string,
): Promise<
  | { isNew: true }
  | { isNew: false; patientId: string; response: CollectorResult | null; contentHash: string | null }
> {
  const claimed = await tx
    .insert(ingestBatches)
    .values({ tenantId, batchId, patientId, contentHash })
    .onConflictDoNothing()
    .returning({ batchId: ingestBatches.batchId });
  if (claimed.length > 0) return { isNew: true };
  const [existing] = await tx
    .select({
      patientId: ingestBatches.patientId,
      response: ingestBatches.response,
      contentHash: ingestBatches.contentHash,
    })
    .from(ingestBatches)
    .where(and(eq(ingestBatches.tenantId, tenantId), eq(ingestBatches.batchId, batchId)));
  // Invisible to this caller (another center's patient): answered like another patient's batch.
  if (existing === undefined) return { isNew: false, patientId: '', response: null, contentHash: null };
  return {
    isNew: false,
    patientId: existing.patientId,
    response: existing.response as CollectorResult | null,
    contentHash: existing.contentHash,
  };
}

/** When the patient's account was created (nothing may be dated before it). */
export async function patientCreatedAt(tx: TenantTransaction, tenantId: string, patientId: string) {
  const [row] = await tx
    .select({ createdAt: patients.createdAt })
    .from(patients)
    .where(and(eq(patients.tenantId, tenantId), eq(patients.id, patientId)));
  return row?.createdAt ?? null;
}

export async function recordBatchAnswer(
  tx: TenantTransaction,
  tenantId: string,
  batchId: string,
  response: CollectorResult,
) {
  await tx
    .update(ingestBatches)
    .set({ response })
    .where(and(eq(ingestBatches.tenantId, tenantId), eq(ingestBatches.batchId, batchId)));
}

/**
 * Device sync bookkeeping: when the device is the patient's, its latest sync and app status move.
 * Null when it is not the patient's device; otherwise when it was bound to them (null: unknown).
 */
export async function markDeviceSynced(
  tx: TenantTransaction,
  tenantId: string,
  deviceId: string,
  patientId: string,
  now: Date,
): Promise<{ boundAt: Date | null } | null> {
  const [updated] = await tx
    .update(devices)
    .set({ lastSyncedAt: now, appStatus: 'ONLINE', updatedAt: now })
    .where(and(eq(devices.tenantId, tenantId), eq(devices.id, deviceId), eq(devices.patientId, patientId)))
    .returning({ boundAt: devices.boundAt });
  return updated === undefined ? null : { boundAt: updated.boundAt };
}

/** Float32 little-endian: 4 bytes a sample, the precision of the watch's ADC. */
export function packSamples(samples: readonly number[]): Buffer {
  const buffer = Buffer.alloc(samples.length * 4);
  samples.forEach((sample, index) => buffer.writeFloatLE(sample, index * 4));
  return buffer;
}

export function unpackSamples(buffer: Buffer): number[] {
  const samples: number[] = [];
  for (let offset = 0; offset + 4 <= buffer.length; offset += 4)
    samples.push(Math.round(buffer.readFloatLE(offset) * 10_000) / 10_000);
  return samples;
}

interface Target {
  tenantId: string;
  patientId: string;
  deviceId: string | null;
  batchId: string | null;
  receivedAt: Date;
}

/** ECG, sleep and sport records and device events; each skips what is already stored. Returns how many were new. */
export async function insertRecords(tx: TenantTransaction, target: Target, checked: CheckedBatch) {
  const common = {
    tenantId: target.tenantId,
    patientId: target.patientId,
    deviceId: target.deviceId,
    batchId: target.batchId,
    receivedAt: target.receivedAt,
  };
  const ecg =
    checked.ecg.length === 0
      ? []
      : await tx
          .insert(ecgRecords)
          .values(
            checked.ecg.map(({ input }) => ({
              ...common,
              id: uuidv7(),
              measuredAt: new Date(input.measuredAt),
              durationSeconds: input.durationSeconds,
              sampleRate: input.sampleRate,
              samples: packSamples(input.samples),
              averageHeartRate: input.averageHeartRate ?? null,
              hrv: input.hrv ?? null,
              qt: input.qt ?? null,
              respirationRate: input.respirationRate ?? null,
              source: input.source,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: ecgRecords.id });
  const sleep =
    checked.sleep.length === 0
      ? []
      : await tx
          .insert(sleepRecords)
          .values(
            checked.sleep.map(({ input }) => ({
              ...common,
              id: uuidv7(),
              startAt: new Date(input.startAt),
              endAt: new Date(input.endAt),
              totalMinutes: input.totalMinutes,
              deepMinutes: input.deepMinutes,
              lightMinutes: input.lightMinutes,
              remMinutes: input.remMinutes,
              wakeCount: input.wakeCount,
              fallingAsleepMinutes: input.fallingAsleepMinutes ?? null,
              reSleepMinutes: input.reSleepMinutes ?? null,
              stages: input.stages,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: sleepRecords.id });
  const sport =
    checked.sport.length === 0
      ? []
      : await tx
          .insert(sportRecords)
          .values(
            checked.sport.map(({ input }) => ({
              ...common,
              id: uuidv7(),
              sport: input.sport,
              startAt: new Date(input.startAt),
              practiceSeconds: input.practiceSeconds,
              steps: input.steps ?? null,
              strideCm: input.strideCm ?? null,
              tempo: input.tempo ?? null,
              speedKmh: input.speedKmh ?? null,
              heightM: input.heightM ?? null,
              calories: input.calories ?? null,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: sportRecords.id });
  const events =
    checked.events.length === 0
      ? []
      : await tx
          .insert(healthEvents)
          .values(
            checked.events.map(({ input }) => ({
              ...common,
              id: uuidv7(),
              type: input.type,
              occurredAt: new Date(input.at),
              lat: input.location?.lat ?? null,
              lng: input.location?.lng ?? null,
            })),
          )
          .onConflictDoNothing()
          .returning({
            type: healthEvents.type,
            occurredAt: healthEvents.occurredAt,
            lat: healthEvents.lat,
            lng: healthEvents.lng,
          });
  return { ecg: ecg.length, sleep: sleep.length, sport: sport.length, events };
}

/** One event raised by staff (a hotline call). Null when the same call was already recorded. */
export async function insertHotlineCall(
  tx: TenantTransaction,
  values: {
    tenantId: string;
    patientId: string;
    at: Date;
    note: string;
    lat: number | null;
    lng: number | null;
    createdBy: string;
  },
) {
  const [row] = await tx
    .insert(healthEvents)
    .values({ ...values, id: uuidv7(), type: 'HOTLINE_CALL', occurredAt: values.at, receivedAt: values.at })
    .onConflictDoNothing()
    .returning({ id: healthEvents.id });
  return row ?? null;
}
