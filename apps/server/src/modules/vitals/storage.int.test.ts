import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURE_CODES } from '@rpm/contracts';
import { createTestApp } from '../../../test/app.js';
import { createTestDatabase, ownerPool, type OwnerPool, type TestDatabase } from '../../../test/database.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { compactPatientReadings, runStoragePass, utcMidnightBefore } from './storage-job.js';
import { answerOf, batchOf, call, logInAs, newPatient, postBatch, reading, setTenantSettings, vitalsOrganisation } from './test-support.js';

let testDb: TestDatabase;
let owner: OwnerPool;
let app: FastifyInstance;
// The database's own now() decides which days ingest checks against blocks: the clock is real time.
const clock = new ManualClock(new Date());
const log = pino({ level: 'silent' });
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let doctor: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  owner = ownerPool(testDb.ownerUrl);
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  doctor = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await owner.close();
  await testDb.drop();
});

/** Every column of a patient's readings, in both forms, as exact text (instants in microseconds, values shortest-exact). */
async function everything(patientId: string) {
  return owner.query<Record<string, string | boolean | null>>(
    `SELECT measure, (extract(epoch FROM measured_at) * 1000000)::bigint::text AS at_us, value::text AS value, source,
            device_id::text AS device_id, batch_id::text AS batch_id,
            (extract(epoch FROM received_at) * 1000000)::bigint::text AS received_us, late
       FROM all_readings WHERE patient_id = $1 ORDER BY measure, measured_at, source`,
    [patientId],
  );
}

const rawCount = async (patientId: string) =>
  Number((await owner.query<{ count: string }>('SELECT count(*) FROM readings WHERE patient_id = $1', [patientId]))[0]?.count);
const blockRows = (patientId: string) =>
  owner.query<{ measure: string; count: number }>('SELECT measure, count FROM reading_blocks WHERE patient_id = $1 ORDER BY measure, day_start', [patientId]);

describe('compact day blocks', () => {
  it('give back every column of every reading exactly, for any measures, instants, values and sources (property)', async () => {
    const cutoff = utcMidnightBefore(clock.now(), 7);
    const span = 20 * DAY;
    const devices = [uuidv7(), uuidv7()];
    const item = fc.record({
      measure: fc.constantFrom(...MEASURE_CODES),
      // Microsecond instants over the 20 days before the cutoff, with many on the same day.
      offsetUs: fc.integer({ min: 0, max: span * 1000 - 1 }),
      value: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
      source: fc.constantFrom('WIRELESS_DEVICE', 'MANUAL', 'PHOTO_OCR'),
      device: fc.constantFrom(null, ...devices),
      batch: fc.constantFrom(null, uuidv7()),
      late: fc.boolean(),
      receivedUs: fc.integer({ min: 0, max: 1e9 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 60 }), fc.boolean(), async (items, twoPasses) => {
        const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
        const start = cutoff.getTime() - span;
        await owner.query(
          `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at, late)
           SELECT $1, $2, item.measure, to_timestamp($3::float8 / 1000) + item.offset_us * interval '1 microsecond', item.value,
                  item.source, item.device_id, item.batch_id, to_timestamp($3::float8 / 1000) + item.received_us * interval '1 microsecond', item.late
             FROM unnest($4::text[], $5::bigint[], $6::float8[], $7::text[], $8::uuid[], $9::uuid[], $10::bigint[], $11::boolean[])
                  AS item (measure, offset_us, value, source, device_id, batch_id, received_us, late)
           ON CONFLICT DO NOTHING`,
          [
            org.tenant.id,
            patient.id,
            start,
            items.map((one) => one.measure),
            items.map((one) => one.offsetUs),
            items.map((one) => one.value),
            items.map((one) => one.source),
            items.map((one) => one.device),
            items.map((one) => one.batch),
            items.map((one) => one.receivedUs),
            items.map((one) => one.late),
          ],
        );
        const before = await everything(patient.id);
        // Two passes: the first moves an earlier part, the second merges the rest into its days' blocks.
        if (twoPasses) await compactPatientReadings(testDb.database, org.tenant.id, patient.id, utcMidnightBefore(new Date(start), -10));
        const moved = await compactPatientReadings(testDb.database, org.tenant.id, patient.id, cutoff);
        expect(await rawCount(patient.id)).toBe(0);
        expect(await everything(patient.id)).toEqual(before);
        if (!twoPasses) expect(moved).toBe(before.length);
        // patient_readings over a random window agrees with the originals in it.
        const from = new Date(start + (items[0]?.offsetUs ?? 0) / 1000);
        const to = new Date(from.getTime() + 3 * DAY);
        const windowed = await testDb.database.withTenant(org.tenant.id, (tx) =>
          tx.execute<{ at_us: string; value: string }>(sql`
            SELECT (extract(epoch FROM measured_at) * 1000000)::bigint::text AS at_us, value::text AS value
              FROM patient_readings(${org.tenant.id}::uuid, ${patient.id}::uuid, ${items[0]?.measure ?? 'HEART_RATE'},
                                    ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)
             ORDER BY measured_at, source`),
        );
        const fromUs = BigInt(from.getTime()) * 1000n;
        const toUs = BigInt(to.getTime()) * 1000n;
        const expected = before
          .filter((row) => row.measure === items[0]?.measure && BigInt(String(row.at_us)) >= fromUs && BigInt(String(row.at_us)) < toUs)
          .map((row) => ({ at_us: row.at_us, value: row.value }));
        expect(windowed.rows).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('show the same day views after compaction, in the tenant’s units, for every measure', async () => {
    await setTenantSettings(testDb, org.tenant.id, { THERMAL_UNIT: 'F', BLOOD_GLUCOSE_UNIT: 'mmol/L', UNIT_SYSTEM: 'imperial' });
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const day = utcMidnightBefore(clock.now(), 10);
    const sample: Record<string, number> = {
      HEART_RATE: 72, SPO2: 97, HRV: 45.5, TEMPERATURE: 98.42, GLUCOSE: 5.6, CHOLESTEROL: 190, URIC_ACID: 350, WEIGHT: 154.3,
      HEIGHT: 68.5, BMI: 24.1, BODY_FAT_RATE: 21.5, BODY_WATER_RATE: 55.2, BODY_MUSCLE_RATE: 40.1, BODY_MUSCLE_MASS: 60.2,
      BONE_MASS: 6.1, BONE_RATE: 4.2, STEPS: 1234, CALORIES: 88.5, RESPIRATION: 16,
    };
    const items = [0, 3, 7, 11, 19, 23].flatMap((hour) => [
      ...Object.entries(sample).map(([measure, value]) => reading(measure, value + hour / 10, new Date(day.getTime() + hour * HOUR + 1234))),
      { measure: 'BLOOD_PRESSURE', systolic: 120 + hour, diastolic: 80 - hour, measuredAt: new Date(day.getTime() + hour * HOUR + 17 * MINUTE).toISOString(), source: 'WIRELESS_DEVICE' },
    ]);
    const answer = answerOf(await postBatch(app, doctor, batchOf(patient.id, items)));
    expect(answer.problems).toEqual([]);
    const measures = [...Object.keys(sample), 'SYSTOLIC', 'DIASTOLIC'];
    const views = async () => {
      const all: Record<string, unknown> = {};
      for (const measure of measures) {
        const response = await call(app, doctor, 'GET', `/health/patients/${patient.id}/data?measure=${measure}&view=day&from=${day.toISOString()}&to=${new Date(day.getTime() + DAY).toISOString()}`);
        expect(response.statusCode, response.body).toBe(200);
        all[measure] = response.json<{ data: unknown }>().data;
      }
      return all;
    };
    const shown = await views();
    expect((shown.TEMPERATURE as { unit: string; points: unknown[] }).points).toHaveLength(6);
    await runStoragePass(testDb.database, clock, log);
    expect(await rawCount(patient.id)).toBe(0);
    expect((await blockRows(patient.id)).length).toBe(measures.length);
    expect(await views()).toEqual(shown);
    await owner.query(`DELETE FROM tenant_settings WHERE tenant_id = $1 AND key IN ('THERMAL_UNIT', 'BLOOD_GLUCOSE_UNIT', 'UNIT_SYSTEM')`, [org.tenant.id]);
  });

  it('take a late reading into the compacted day’s block, and a resent one is not counted twice', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const day = utcMidnightBefore(clock.now(), 9);
    const at = (minutes: number) => new Date(day.getTime() + 8 * HOUR + minutes * MINUTE);
    expect(answerOf(await postBatch(app, doctor, batchOf(patient.id, [0, 1, 2].map((minute) => reading('HEART_RATE', 70 + minute, at(minute))))))).toMatchObject({ accepted: 3 });
    await runStoragePass(testDb.database, clock, log);
    expect(await blockRows(patient.id)).toEqual([{ measure: 'HEART_RATE', count: 3 }]);

    // The late one is stored raw and shown with the block's readings at once.
    expect(answerOf(await postBatch(app, doctor, batchOf(patient.id, [reading('HEART_RATE', 99, at(1.5))])))).toMatchObject({ accepted: 1 });
    const dayView = async () =>
      (
        await call(app, doctor, 'GET', `/health/patients/${patient.id}/data?measure=HEART_RATE&view=day&from=${day.toISOString()}&to=${new Date(day.getTime() + DAY).toISOString()}`)
      ).json<{ data: { points: { value: number }[] } }>().data.points.map((point) => point.value);
    expect(await dayView()).toEqual([70, 71, 99, 72]);
    // A reading resent after its day was compacted is a duplicate, not a second reading.
    const resent = answerOf(await postBatch(app, doctor, batchOf(patient.id, [reading('HEART_RATE', 70, at(0))])));
    expect(resent).toMatchObject({ accepted: 0, duplicates: 1 });

    await runStoragePass(testDb.database, clock, log);
    expect(await rawCount(patient.id)).toBe(0);
    expect(await blockRows(patient.id)).toEqual([{ measure: 'HEART_RATE', count: 4 }]);
    expect(await dayView()).toEqual([70, 71, 99, 72]);
    const [rollup] = await owner.query<{ count: number }>('SELECT sum(count)::int AS count FROM readings_daily WHERE patient_id = $1', [patient.id]);
    expect(rollup?.count).toBe(4);
    // The rollup rebuild (a zone change) reads the blocks: the same four readings.
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.execute(sql`SELECT rebuild_patient_rollups(${patient.id}::uuid)`));
    const [rebuilt] = await owner.query<{ count: number }>('SELECT sum(count)::int AS count FROM readings_daily WHERE patient_id = $1', [patient.id]);
    expect(rebuilt?.count).toBe(4);
  });

  it('take turns when two passes compact one patient at once, so neither drops the other’s readings', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const day = utcMidnightBefore(clock.now(), 11);
    const cutoff = utcMidnightBefore(clock.now(), 7).toISOString();
    const insert = (minute: number) =>
      owner.query(
        `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES ($1, $2, 'HEART_RATE', $3, $4, 'MANUAL')`,
        [org.tenant.id, patient.id, new Date(day.getTime() + minute * MINUTE).toISOString(), 60 + minute],
      );
    await insert(1);
    const first = new pg.Client({ connectionString: testDb.ownerUrl });
    const second = new pg.Client({ connectionString: testDb.ownerUrl });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const compactIn = async (client: pg.Client) => {
        await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [org.tenant.id]);
        await client.query('SELECT compact_patient_readings($1, $2)', [patient.id, cutoff]);
      };
      await first.query('BEGIN');
      await compactIn(first); // the first pass has written the day's block, not committed yet
      await insert(2); // a late reading of the same day arrives
      await second.query('BEGIN');
      const secondPass = compactIn(second).then(() => second.query('COMMIT'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query('COMMIT');
      await secondPass;
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    expect((await everything(patient.id)).map((row) => row.value)).toEqual(['61', '62']);
    expect(await blockRows(patient.id)).toEqual([{ measure: 'HEART_RATE', count: 2 }]);
  });

  it('store a day of minute readings in under 24 bytes each', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const day = utcMidnightBefore(clock.now(), 12);
    await owner.query(
      `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source, device_id, batch_id, received_at)
       SELECT $1, $2, 'HEART_RATE', at, round(70 + 10 * sin(extract(epoch FROM at) / 3000)), 'WIRELESS_DEVICE', $4, $5, date_trunc('hour', at) + interval '61 minutes'
         FROM generate_series($3::timestamptz, $3::timestamptz + interval '2 days' - interval '1 minute', interval '1 minute') AS at`,
      [org.tenant.id, patient.id, day.toISOString(), uuidv7(), uuidv7()],
    );
    await compactPatientReadings(testDb.database, org.tenant.id, patient.id, utcMidnightBefore(clock.now(), 7));
    const [size] = await owner.query<{ bytes: number; readings: number }>(
      `SELECT sum(pg_column_size(block.*))::int AS bytes, sum(count)::int AS readings FROM reading_blocks block WHERE patient_id = $1`,
      [patient.id],
    );
    expect(size?.readings).toBe(2880);
    expect((size?.bytes ?? Infinity) / 2880).toBeLessThan(24);
  });
});

describe('retention', () => {
  it('deletes readings, raw and compacted, older than the tenant’s days, keeps the rollups, and audits it', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const old = new Date(utcMidnightBefore(clock.now(), 120).getTime() + 10 * HOUR);
    const oldRaw = new Date(utcMidnightBefore(clock.now(), 100).getTime() + 10 * HOUR);
    const kept = new Date(utcMidnightBefore(clock.now(), 60).getTime() + 10 * HOUR);
    expect(answerOf(await postBatch(app, doctor, batchOf(patient.id, [reading('SPO2', 96, old), reading('SPO2', 97, kept)])))).toMatchObject({ accepted: 2 });
    await runStoragePass(testDb.database, clock, log);
    expect(answerOf(await postBatch(app, doctor, batchOf(patient.id, [reading('SPO2', 95, oldRaw)])))).toMatchObject({ accepted: 1 });
    const rollupsBefore = await owner.query<{ count: number }>('SELECT sum(count)::int AS count FROM readings_daily WHERE patient_id = $1', [patient.id]);

    await setTenantSettings(testDb, org.tenant.id, { VITALS_RETENTION_DAYS: '90' });
    try {
      await runStoragePass(testDb.database, clock, log);
    } finally {
      await owner.query(`DELETE FROM tenant_settings WHERE tenant_id = $1 AND key = 'VITALS_RETENTION_DAYS'`, [org.tenant.id]);
    }
    const left = await everything(patient.id);
    expect(left.map((row) => row.value)).toEqual(['97']);
    expect(await owner.query('SELECT sum(count)::int AS count FROM readings_daily WHERE patient_id = $1', [patient.id])).toEqual(rollupsBefore);
    const [audit] = await owner.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'VITALS_PURGED' ORDER BY occurred_at DESC LIMIT 1`,
      [org.tenant.id],
    );
    expect(audit?.details).toMatchObject({ retentionDays: 90, rawReadings: 1, before: utcMidnightBefore(clock.now(), 90).toISOString() });
    expect(Number(audit?.details.compactedReadings)).toBeGreaterThanOrEqual(1);
  });

  it('the patient purge removes the blocks too', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await postBatch(app, doctor, batchOf(patient.id, [reading('HEART_RATE', 80, new Date(utcMidnightBefore(clock.now(), 30).getTime() + HOUR))]));
    await runStoragePass(testDb.database, clock, log);
    expect(await blockRows(patient.id)).toHaveLength(1);
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.execute(sql`SELECT purge_patient_readings(ARRAY[${patient.id}]::uuid[])`));
    expect(await blockRows(patient.id)).toEqual([]);
  });
});
