import fc from 'fast-check';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Measure } from '@rpm/contracts';
import { createTestDatabase, ownerPool, type OwnerPool, type TestDatabase } from '../../../test/database.js';
import type { ReadingRow } from './ingest-input.js';
import { insertReadings, quarterHoursOf } from './ingest-store.js';
import { newPatient, vitalsOrganisation } from './test-support.js';

let testDb: TestDatabase;
let owner: OwnerPool;
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  owner = ownerPool(testDb.ownerUrl);
  org = await vitalsOrganisation(testDb);
});
afterAll(async () => {
  await owner.close();
  await testDb.drop();
});

const MINUTE_MS = 60_000;
const row = (measure: Measure, atMs: number, value: number, source: ReadingRow['source'] = 'WIRELESS_DEVICE'): ReadingRow => ({
  measure,
  measuredAt: new Date(atMs),
  value,
  source,
  item: 0,
  late: false,
});

const store = (patientId: string, rows: readonly ReadingRow[]) =>
  testDb.database.withTenant(org.tenant.id, (tx) =>
    insertReadings(tx, { tenantId: org.tenant.id, patientId, deviceId: null, batchId: uuidv7(), receivedAt: new Date() }, rows),
  );

/** Both rollup tables of a patient, sums to nine decimals (summed in another order, doubles may differ in the last bit). */
async function rollups(patientId: string) {
  const read = (table: string) =>
    owner.query<Record<string, string | number>>(
      `SELECT measure, bucket_start::text AS bucket, count::int AS count, sum, min, max, last_value,
              last_at::text AS last_at
         FROM ${table} WHERE patient_id = $1 ORDER BY measure, bucket_start`,
      [patientId],
    );
  return { hourly: await read('readings_hourly'), daily: await read('readings_daily') };
}

/**
 * Two reads of the rollups are the same: every member equal, and each sum equal but for the last
 * bits of a double. Sums of the same values added in another order (quarter hours summed by the
 * server, then by the hour; a rebuild adds the readings one by one) may differ there, and rounding
 * both to a fixed number of decimals still splits a pair lying across a rounding boundary.
 */
function expectSameRollups(kept: Awaited<ReturnType<typeof rollups>>, rebuilt: Awaited<ReturnType<typeof rollups>>) {
  const withoutSums = (read: typeof kept) => ({
    hourly: read.hourly.map(({ sum: _sum, ...rest }) => rest),
    daily: read.daily.map(({ sum: _sum, ...rest }) => rest),
  });
  expect(withoutSums(kept)).toEqual(withoutSums(rebuilt));
  const sums = (read: typeof kept) => [...read.hourly, ...read.daily].map((bucket) => Number(bucket.sum));
  const rebuiltSums = sums(rebuilt);
  for (const [index, sum] of sums(kept).entries()) {
    const other = rebuiltSums[index] ?? Number.NaN;
    expect(Math.abs(sum - other)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(other)));
  }
}

describe('ingest_readings', () => {
  it('sums quarter hours as date_bin does: aligned to 00, 15, 30 and 45 minutes UTC, the latest reading giving the last value', () => {
    const start = Date.UTC(2026, 10, 20, 9, 15);
    const slots = quarterHoursOf([
      row('HEART_RATE', start + 14 * MINUTE_MS, 80),
      row('HEART_RATE', start, 60),
      row('HEART_RATE', start + 15 * MINUTE_MS, 70),
      row('SPO2', start + MINUTE_MS, 97),
    ]);
    expect(slots).toEqual([
      { measure: 'HEART_RATE', startMs: start, count: 2, sum: 140, min: 60, max: 80, lastValue: 80, lastAtMs: start + 14 * MINUTE_MS },
      { measure: 'HEART_RATE', startMs: start + 15 * MINUTE_MS, count: 1, sum: 70, min: 70, max: 70, lastValue: 70, lastAtMs: start + 15 * MINUTE_MS },
      { measure: 'SPO2', startMs: start, count: 1, sum: 97, min: 97, max: 97, lastValue: 97, lastAtMs: start + MINUTE_MS },
    ]);
  });

  it('keeps the rollups equal to a rebuild from the stored readings, whether a batch is all new or partly resent (property)', async () => {
    const now = Date.now();
    const reading = fc.record({
      measure: fc.constantFrom<Measure>('HEART_RATE', 'SPO2', 'TEMPERATURE', 'GLUCOSE'),
      // Whole minutes over the last hour and a half: quarter hours hold several readings, batches meet in them.
      minutesAgo: fc.integer({ min: 1, max: 90 }),
      value: fc.double({ min: 1, max: 500, noNaN: true }),
      source: fc.constantFrom<ReadingRow['source']>('WIRELESS_DEVICE', 'MANUAL'),
    });
    // Each batch: new readings, and a share of the readings already sent (a device resending).
    // Half the batches resend nothing: their rollups come from the sums made in the server.
    const resends = fc.oneof(fc.constant<number[]>([]), fc.array(fc.nat(), { maxLength: 10 }));
    const batches = fc.array(fc.record({ fresh: fc.array(reading, { maxLength: 60 }), resent: resends }), {
      minLength: 1,
      maxLength: 5,
    });
    await fc.assert(
      fc.asyncProperty(batches, async (plan) => {
        const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
        const sent: ReadingRow[] = [];
        const stored = new Set<string>();
        // Of two readings of a measure at one instant from two sources, which is the quarter hour's last
        // is not defined (nor was it): one source per measure and instant here.
        const sourceAt = new Map<string, string>();
        const oneSourceAnInstant = (item: { measure: string; minutesAgo: number; source: string }) => {
          const key = `${item.measure}|${String(item.minutesAgo)}`;
          if (!sourceAt.has(key)) sourceAt.set(key, item.source);
          return sourceAt.get(key) === item.source;
        };
        for (const batch of plan) {
          const fresh = batch.fresh
            .filter(oneSourceAnInstant)
            .map((item) => row(item.measure, now - item.minutesAgo * MINUTE_MS, item.value, item.source));
          const resent = sent.length === 0 ? [] : batch.resent.flatMap((index) => sent.slice(index % sent.length, (index % sent.length) + 1));
          const rows = [...resent, ...fresh];
          const added = await store(patient.id, rows);
          // The answer names exactly the readings not stored before (the first of a key within a batch).
          const expected = new Map<string, ReadingRow>();
          for (const candidate of rows) {
            const key = `${candidate.measure}|${String(candidate.measuredAt.getTime())}|${candidate.source}`;
            if (!stored.has(key) && !expected.has(key)) expected.set(key, candidate);
          }
          expect(added.map((item) => `${item.measure}|${String(item.atMs)}|${item.source}`).sort()).toEqual([...expected.keys()].sort());
          for (const key of expected.keys()) stored.add(key);
          sent.push(...fresh);
        }
        const kept = await rollups(patient.id);
        expect(kept.hourly.reduce((total, bucket) => total + Number(bucket.count), 0)).toBe(stored.size);
        await testDb.database.withTenant(org.tenant.id, (tx) => tx.execute(sql`SELECT rebuild_patient_rollups(${patient.id}::uuid)`));
        expectSameRollups(kept, await rollups(patient.id));
      }),
      { numRuns: 20 },
    );
  }, 120_000);

  it('takes the latest reading of a quarter hour as its last value, in whatever order the batch gives them', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const hour = Math.floor(Date.now() / (60 * MINUTE_MS)) * 60 * MINUTE_MS - 2 * 60 * MINUTE_MS;
    // Every minute of an hour, newest first, then the same for SpO2 oldest first.
    const newestFirst = Array.from({ length: 60 }, (_, minute) => row('HEART_RATE', hour + (59 - minute) * MINUTE_MS, 60 + minute));
    const oldestFirst = Array.from({ length: 60 }, (_, minute) => row('SPO2', hour + minute * MINUTE_MS, 90 + (minute % 10)));
    expect(await store(patient.id, [...newestFirst, ...oldestFirst])).toHaveLength(120);
    const kept = await rollups(patient.id);
    expect(kept.hourly.map((bucket) => [bucket.measure, bucket.count, bucket.last_value])).toEqual([
      ['HEART_RATE', 60, 60],
      ['SPO2', 60, 99],
    ]);
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.execute(sql`SELECT rebuild_patient_rollups(${patient.id}::uuid)`));
    expectSameRollups(kept, await rollups(patient.id));
  });

  it('stores a batch once when another writer stores one of its readings at the same moment', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const at = Date.now() - 10 * MINUTE_MS;
    // Another writer (not holding the patient's lock) has inserted one of the batch's readings and not committed yet.
    const other = new pg.Client({ connectionString: testDb.ownerUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES ($1, $2, 'HEART_RATE', $3, 70, 'WIRELESS_DEVICE')`,
        [org.tenant.id, patient.id, new Date(at)],
      );
      const pending = store(patient.id, [row('HEART_RATE', at, 70), row('HEART_RATE', at + MINUTE_MS, 71)]);
      // The batch's insert waits on the other's uncommitted key, then meets it.
      await expect.poll(async () => (await owner.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).length).toBe(1);
      await other.query('COMMIT');
      expect((await pending).map((item) => item.atMs)).toEqual([at + MINUTE_MS]);
    } finally {
      await other.end();
    }
    expect((await rollups(patient.id)).hourly.reduce((total, bucket) => total + Number(bucket.count), 0)).toBe(1);
  });

  it('refuses a call for another tenant, a patient the tenant does not have, or a patient the vitals transaction was not opened for', async () => {
    const call = (tenantId: string, patientId: string, vitalsPatients = '') =>
      testDb.database.withTenant(org.tenant.id, async (tx) => {
        if (vitalsPatients !== '') await tx.execute(sql`SELECT set_config('app.vitals_patients', ${vitalsPatients}, true)`);
        return tx.execute(sql`SELECT added FROM ingest_readings(${tenantId}::uuid, ${patientId}::uuid, NULL, NULL, now(),
          '{HEART_RATE}', ARRAY[now()], '{70}', '{MANUAL}', '{f}', '{HEART_RATE}', ARRAY[date_bin('15 minutes', now(), TIMESTAMPTZ '2000-01-01Z')],
          '{1}', '{70}', '{70}', '{70}', '{70}', ARRAY[now()])`);
      });
    // The database's own message (the query error wraps it).
    const refusal = (attempt: Promise<unknown>) =>
      attempt.then(
        () => 'stored',
        (error: unknown) => (error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)),
      );
    const patient = org.patientA.id;
    expect(await refusal(call(uuidv7(), patient))).toMatch(/tenant's transaction only/);
    expect(await refusal(call(org.tenant.id, uuidv7()))).toMatch(/no such patient/);
    expect(await refusal(call(org.tenant.id, patient, `{${uuidv7()}}`))).toMatch(/not opened for that patient/);
    expect(Number((await owner.query<{ count: string }>('SELECT count(*) FROM readings WHERE patient_id = $1', [patient]))[0]?.count)).toBe(0);
    // And it is the application's to call only through its role: not anyone's.
    const granted = await owner.query<{ name: string }>(
      `SELECT grantee AS name FROM information_schema.routine_privileges WHERE routine_name = 'ingest_readings' ORDER BY grantee`,
    );
    expect(granted.map((grant) => grant.name)).not.toContain('PUBLIC');
  });
});
