import type { CollectorResult } from '@rpm/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { boolArray, float8Array, int4Array, textArray, timestamptzArray } from '../../db/binary-array.js';
import {
  devices,
  ecgRecords,
  healthEvents,
  ingestBatches,
  sleepRecords,
  sportRecords,
} from '../../db/schema.js';
import type { CheckedBatch, ReadingRow } from './ingest-input.js';

/** A reading's identity in a batch: measure, instant (ms) and source. */
export const readingKey = (measure: string, atMs: number, source: string) => `${measure}|${String(atMs)}|${source}`;

export interface InsertedReading {
  measure: string;
  atMs: number;
  value: number;
  source: string;
  late: boolean;
}

/** Fifteen minutes: every zone's offset and DST change is a whole number of them. */
const QUARTER_HOUR_MS = 15 * 60_000;

interface QuarterHour {
  measure: string;
  startMs: number;
  count: number;
  sum: number;
  min: number;
  max: number;
  lastValue: number;
  lastAtMs: number;
}

/**
 * The readings summed per measure and UTC quarter hour (aligned as date_bin('15 minutes', …,
 * '2000-01-01Z') aligns them). The latest reading of a quarter hour gives its last value; of two at
 * the same instant (two sources), the first given.
 */
export function quarterHoursOf(rows: readonly ReadingRow[]): QuarterHour[] {
  // Per measure, then per quarter hour's start: no key text to build for each of a thousand rows.
  const byMeasure = new Map<string, Map<number, QuarterHour>>();
  const found: QuarterHour[] = [];
  for (const row of rows) {
    const atMs = row.measuredAt.getTime();
    const startMs = Math.floor(atMs / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
    let slots = byMeasure.get(row.measure);
    if (slots === undefined) {
      slots = new Map();
      byMeasure.set(row.measure, slots);
    }
    const slot = slots.get(startMs);
    if (slot === undefined) {
      const created = { measure: row.measure, startMs, count: 1, sum: row.value, min: row.value, max: row.value, lastValue: row.value, lastAtMs: atMs };
      slots.set(startMs, created);
      found.push(created);
      continue;
    }
    slot.count += 1;
    slot.sum += row.value;
    if (row.value < slot.min) slot.min = row.value;
    if (row.value > slot.max) slot.max = row.value;
    if (atMs > slot.lastAtMs) {
      slot.lastAtMs = atMs;
      slot.lastValue = row.value;
    }
  }
  return found;
}

/** The rows without a reading given twice (same measure, instant and source): the first of each. */
function distinctRows(given: readonly ReadingRow[]): readonly ReadingRow[] {
  // Instants per measure and source, as numbers: no key text for each row.
  const seen = new Map<string, Map<string, Set<number>>>();
  let rows: ReadingRow[] | null = null;
  for (const [index, row] of given.entries()) {
    let bySource = seen.get(row.measure);
    if (bySource === undefined) {
      bySource = new Map();
      seen.set(row.measure, bySource);
    }
    let instants = bySource.get(row.source);
    if (instants === undefined) {
      instants = new Set();
      bySource.set(row.source, instants);
    }
    const atMs = row.measuredAt.getTime();
    if (instants.has(atMs)) {
      // The first repeat: the rows before it were all distinct.
      rows ??= given.slice(0, index);
      continue;
    }
    instants.add(atMs);
    rows?.push(row);
  }
  return rows ?? given;
}

/**
 * Stores readings and their hourly and daily rollups with one call of ingest_readings (migration
 * 0064): a multi-row insert that skips rows already stored (readings_key, and the day blocks of
 * compacted days), and the rollups upserted from the quarter-hour sums computed here, or, when some
 * readings were stored already, from the rows the insert really added — so a retried batch counts
 * nothing twice. The function checks the write policies once for the batch's one patient instead
 * of row by row. Buckets are the patient's local clock hours and calendar days
 * (patient_time_zone, migration 0027). Late readings are stored and rolled up like the others,
 * with their `late` flag.
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
  given: readonly ReadingRow[],
): Promise<InsertedReading[]> {
  // A reading twice in one batch is one reading (the insert would skip the second anyway).
  const rows = distinctRows(given);
  if (rows.length === 0) return [];
  const slots = quarterHoursOf(rows);
  // The arrays go in PostgreSQL's binary format: no instant or number is formatted here and parsed there.
  const result = await tx.execute<{ added: number; added_keys: string[] }>(sql`
    SELECT added, added_keys FROM ingest_readings(
      ${target.tenantId}::uuid, ${target.patientId}::uuid, ${target.deviceId}::uuid, ${target.batchId}::uuid,
      ${target.receivedAt.toISOString()}::timestamptz,
      ${textArray(rows.map((row) => row.measure))}::text[], ${timestamptzArray(rows.map((row) => row.measuredAt.getTime()))}::timestamptz[],
      ${float8Array(rows.map((row) => row.value))}::float8[], ${textArray(rows.map((row) => row.source))}::text[],
      ${boolArray(rows.map((row) => row.late))}::boolean[],
      ${textArray(slots.map((slot) => slot.measure))}::text[], ${timestamptzArray(slots.map((slot) => slot.startMs))}::timestamptz[],
      ${int4Array(slots.map((slot) => slot.count))}::integer[], ${float8Array(slots.map((slot) => slot.sum))}::float8[],
      ${float8Array(slots.map((slot) => slot.min))}::float8[], ${float8Array(slots.map((slot) => slot.max))}::float8[],
      ${float8Array(slots.map((slot) => slot.lastValue))}::float8[], ${timestamptzArray(slots.map((slot) => slot.lastAtMs))}::timestamptz[])`);
  const answer = result.rows[0];
  const added = answer?.added ?? 0;
  // Usually every reading is new and the answer is one number; otherwise it names the new ones.
  const isNew =
    added === rows.length ? () => true : ((keys) => (row: ReadingRow) => keys.has(readingKey(row.measure, row.measuredAt.getTime(), row.source)))(new Set(answer?.added_keys ?? []));
  return rows.filter(isNew).map((row) => ({
    measure: row.measure,
    atMs: row.measuredAt.getTime(),
    value: row.value,
    source: row.source,
    late: row.late,
  }));
}

/**
 * Claims a batch id with the hash of its content, and in the same statement reads `also` (a select
 * list over the claiming patient `p`: what the batch's evaluation starts from). An existing claim
 * is returned as is (its patient, stored answer and content hash — null for batches stored before
 * hashes were kept), without `also`.
 */
export async function claimBatch(
  tx: TenantTransaction,
  claim: { tenantId: string; batchId: string; patientId: string; contentHash: string },
  also: SQL,
): Promise<
  | { isNew: true; also: Record<string, unknown> }
  | { isNew: false; patientId: string; response: CollectorResult | null; contentHash: string | null }
> {
  const { tenantId, batchId, patientId, contentHash } = claim;
  const insert = tx.insert(ingestBatches).values({ tenantId, batchId, patientId, contentHash }).onConflictDoNothing().returning({ batchId: ingestBatches.batchId });
  const claimed = await tx.execute<{ claimed: boolean }>(sql`
    WITH claim AS (${insert.getSQL()})
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, ${also}
      FROM patients p WHERE p.tenant_id = ${tenantId}::uuid AND p.id = ${patientId}::uuid`);
  const row = claimed.rows[0];
  if (row?.claimed === true) {
    const { claimed: _claimed, ...read } = row;
    return { isNew: true, also: read };
  }
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

/**
 * Keeps a batch's answer for its retries and writes its audit row, in one statement, with `also`
 * (another write of the batch's, e.g. its patient's latest reading time; null: none).
 */
export async function recordBatchAnswer(
  tx: TenantTransaction,
  tenantId: string,
  batchId: string,
  response: CollectorResult,
  auditInsert: SQL,
  also: SQL | null,
) {
  const answer = tx
    .update(ingestBatches)
    .set({ response })
    .where(and(eq(ingestBatches.tenantId, tenantId), eq(ingestBatches.batchId, batchId)));
  const other = also === null ? sql`` : sql`, also AS (${also})`;
  await tx.execute(sql`WITH audit AS (${auditInsert})${other} ${answer.getSQL()}`);
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
