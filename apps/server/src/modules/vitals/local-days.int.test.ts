import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { users } from '../../db/schema.js';
import { ManualClock } from '../../lib/clock.js';
import { runDueJobs } from '../jobs/runner.js';
import { staffSession } from '../tenants/test-support.js';
import { REBUILD_LOCAL_ROLLUPS_TASK } from './local-rollups-job.js';
import { answerOf, batchOf, call, logInAs, newPatient, postBatch, reading, vitalsOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-12-20T12:00:00Z'));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let doctor: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  doctor = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface Point {
  at: string;
  value: number;
  count: number;
}
interface Series {
  resolution: string;
  timeZone: string;
  from: string;
  to: string;
  points: Point[];
}

/** A patient of center A whose account is in `timeZone`. */
async function patientIn(timeZone: string) {
  const account = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    timeZone,
  });
  const patient = await newPatient(testDb, org.tenant.id, org.centerA.id, { userId: account.id });
  return { patient, account };
}

/** Heart rates at the given instants, sent by the doctor in one batch. */
async function send(patientId: string, values: [string, number][]) {
  const items = values.map(([at, value]) => reading('HEART_RATE', value, new Date(at)));
  const answer = answerOf(await postBatch(app, doctor, batchOf(patientId, items)));
  expect(answer.accepted).toBe(values.length);
}

/**
 * A patient of center A with heart rates at the given instants: with an account in `timeZone`, or
 * with no account (null: the tenant's zone applies).
 */
type Seeded = Awaited<ReturnType<typeof patientIn>>;
async function seededPatient(timeZone: string, values: [string, number][]): Promise<Seeded>;
async function seededPatient(timeZone: null, values: [string, number][]): Promise<Pick<Seeded, 'patient'> & { account: null }>;
async function seededPatient(timeZone: string | null, values: [string, number][]) {
  const seeded =
    timeZone === null
      ? { patient: await newPatient(testDb, org.tenant.id, org.centerA.id), account: null }
      : await patientIn(timeZone);
  await send(seeded.patient.id, values);
  return seeded;
}

/** Replaces the patient's daily rollups with UTC days, as they were stored before local days. */
async function storeUtcDays(patientId: string) {
  await asOwner(testDb.ownerUrl, 'DELETE FROM readings_daily WHERE patient_id = $1', [patientId]);
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
     SELECT tenant_id, patient_id, measure, date_trunc('day', measured_at, 'UTC'), count(*), sum(value), min(value), max(value),
            (array_agg(value ORDER BY measured_at DESC))[1], max(measured_at)
       FROM readings WHERE patient_id = $1 GROUP BY tenant_id, patient_id, measure, date_trunc('day', measured_at, 'UTC')`,
    [patientId],
  );
}

/** Runs a migration file from `marker` on, as the database owner (its data step, run again). */
async function runMigrationFrom(file: string, marker: string, expected: string) {
  const migration = await readFile(new URL(`../../../migrations/${file}`, import.meta.url), 'utf8');
  const rebuild = migration.slice(migration.indexOf(marker));
  expect(rebuild).toContain(expected);
  const owner = new pg.Client({ connectionString: testDb.ownerUrl });
  await owner.connect();
  try {
    await owner.query(rebuild);
  } finally {
    await owner.end();
  }
}

/** Runs the background jobs that are due (the rollup rebuilds). */
const runJobs = () =>
  runDueJobs(
    { database: testDb.database, clock, log: pino({ level: 'silent' }), ownerUrl: testDb.ownerUrl },
    { now: new Date(Date.now() + 60_000) },
  );

/** How many rollup rebuilds wait for the patient. */
const scheduledFor = async (patientId: string) =>
  (
    await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs jobs
         JOIN graphile_worker._private_tasks tasks ON tasks.id = jobs.task_id
        WHERE tasks.identifier = $1 AND jobs.payload -> 'payload' ->> 'patientId' = $2`,
      [REBUILD_LOCAL_ROLLUPS_TASK, patientId],
    )
  )[0]?.n;

async function series(patientId: string, query: Record<string, string>): Promise<Series> {
  const response = await call(
    app,
    doctor,
    'GET',
    `/health/patients/${patientId}/data?${new URLSearchParams({ measure: 'HEART_RATE', ...query }).toString()}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: Series }>().data;
}

const buckets = (result: Series) => result.points.map((point) => [point.at, point.value, point.count]);
const instants = (result: Series) => result.points.map((point) => point.at);

describe('local days in Asia/Ho_Chi_Minh (UTC+7)', () => {
  it('puts readings at 23:30 and 00:30 local into two local days, and a day view runs from local midnight to midnight', async () => {
    const { patient } = await seededPatient('Asia/Ho_Chi_Minh', [
      ['2026-11-10T16:30:00Z', 60], // 23:30 on 10 November, local
      ['2026-11-10T17:00:00Z', 70], // local midnight: the first instant of 11 November
      ['2026-11-10T17:30:00Z', 80], // 00:30 on 11 November, local (still 10 November in UTC)
    ]);
    const month = await series(patient.id, {
      view: 'month',
      from: '2026-11-01T00:00:00Z',
      to: '2026-12-01T00:00:00Z',
    });
    expect(month.timeZone).toBe('Asia/Ho_Chi_Minh');
    expect(month.resolution).toBe('day');
    expect(buckets(month)).toEqual([
      ['2026-11-09T17:00:00.000Z', 60, 1],
      ['2026-11-10T17:00:00.000Z', 75, 2],
    ]);

    const tenth = await series(patient.id, { view: 'day', date: '2026-11-10' });
    expect([tenth.from, tenth.to]).toEqual(['2026-11-09T17:00:00.000Z', '2026-11-10T17:00:00.000Z']);
    expect(tenth.points.map((point) => point.value)).toEqual([60]);
    const eleventh = await series(patient.id, { view: 'day', date: '2026-11-11' });
    expect([eleventh.from, eleventh.to]).toEqual(['2026-11-10T17:00:00.000Z', '2026-11-11T17:00:00.000Z']);
    expect(eleventh.points.map((point) => point.value)).toEqual([70, 80]);
    expect(eleventh.timeZone).toBe('Asia/Ho_Chi_Minh');
  });

  it('weeks start on local Monday, months and years at their first local midnight', async () => {
    const { patient } = await seededPatient('Asia/Ho_Chi_Minh', [
      ['2025-12-31T16:30:00Z', 50], // 23:30 on 31 December 2025, local
      ['2025-12-31T17:30:00Z', 52], // 00:30 on 1 January 2026, local
      ['2026-10-31T16:30:00Z', 54], // 23:30 on 31 October, local
      ['2026-10-31T17:30:00Z', 56], // 00:30 on 1 November, local
      ['2026-11-15T16:30:00Z', 58], // 23:30 on Sunday 15 November, local
      ['2026-11-15T17:30:00Z', 62], // 00:30 on Monday 16 November, local
    ]);

    const week = await series(patient.id, { view: 'week', date: '2026-11-18' });
    expect([week.from, week.to]).toEqual(['2026-11-15T17:00:00.000Z', '2026-11-22T17:00:00.000Z']);
    expect(week.resolution).toBe('hour');
    expect(buckets(week)).toEqual([['2026-11-15T17:00:00.000Z', 62, 1]]);
    const weekBefore = await series(patient.id, { view: 'week', date: '2026-11-15' });
    expect([weekBefore.from, weekBefore.to]).toEqual(['2026-11-08T17:00:00.000Z', '2026-11-15T17:00:00.000Z']);
    expect(buckets(weekBefore)).toEqual([['2026-11-15T16:00:00.000Z', 58, 1]]);

    const month = await series(patient.id, { view: 'month', date: '2026-11-05' });
    expect([month.from, month.to]).toEqual(['2026-10-31T17:00:00.000Z', '2026-11-30T17:00:00.000Z']);
    expect(buckets(month)).toEqual([
      ['2026-10-31T17:00:00.000Z', 56, 1],
      ['2026-11-14T17:00:00.000Z', 58, 1],
      ['2026-11-15T17:00:00.000Z', 62, 1],
    ]);

    const year = await series(patient.id, { view: 'year', date: '2026-06-01' });
    expect([year.from, year.to]).toEqual(['2025-12-31T17:00:00.000Z', '2026-12-31T17:00:00.000Z']);
    expect(year.resolution).toBe('day');
    expect(buckets(year)).toEqual([
      ['2025-12-31T17:00:00.000Z', 52, 1],
      ['2026-10-30T17:00:00.000Z', 54, 1],
      ['2026-10-31T17:00:00.000Z', 56, 1],
      ['2026-11-14T17:00:00.000Z', 58, 1],
      ['2026-11-15T17:00:00.000Z', 62, 1],
    ]);
  });

  it('answers health.invalidDateRange for a period in the future or no range, common.invalidParameter for a date that is not one', async () => {
    const { patient } = await patientIn('Asia/Ho_Chi_Minh');
    for (const [query, code] of [
      [{ view: 'month', date: '2027-01-15' }, 'health.invalidDateRange'],
      [{ view: 'day' }, 'health.invalidDateRange'],
      [{ view: 'day', from: '2026-11-01T00:00:00Z' }, 'health.invalidDateRange'],
      [{ view: 'day', date: '2026-02-30' }, 'common.invalidParameter'],
      [{ view: 'day', date: '11/10/2026' }, 'common.invalidParameter'],
    ] as const) {
      const response = await call(
        app,
        doctor,
        'GET',
        `/health/patients/${patient.id}/data?${new URLSearchParams({ measure: 'HEART_RATE', ...query }).toString()}`,
      );
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json<{ code: string }>().code, JSON.stringify(query)).toBe(code);
    }
  });
});

describe('zones whose offset is not a whole hour', () => {
  it('a zone name the database does not know counts as UTC instead of refusing batches', async () => {
    const { patient } = await seededPatient('Mars/Olympus_Mons', [['2026-11-10T16:30:00Z', 60]]);
    const month = await series(patient.id, { view: 'month', date: '2026-11-10' });
    expect(month.timeZone).toBe('UTC');
    expect(buckets(month)).toEqual([['2026-11-10T00:00:00.000Z', 60, 1]]);
  });


  it('Asia/Kolkata (+05:30): days start at 18:30 UTC, hours at :30', async () => {
    const { patient } = await seededPatient('Asia/Kolkata', [
      ['2026-11-10T18:15:00Z', 60], // 23:45 on 10 November, local
      ['2026-11-10T18:45:00Z', 80], // 00:15 on 11 November, local
    ]);
    const month = await series(patient.id, { view: 'month', date: '2026-11-11' });
    expect(month.timeZone).toBe('Asia/Kolkata');
    expect([month.from, month.to]).toEqual(['2026-10-31T18:30:00.000Z', '2026-11-30T18:30:00.000Z']);
    expect(buckets(month)).toEqual([
      ['2026-11-09T18:30:00.000Z', 60, 1],
      ['2026-11-10T18:30:00.000Z', 80, 1],
    ]);
    const week = await series(patient.id, { view: 'week', date: '2026-11-11' });
    expect(buckets(week)).toEqual([
      ['2026-11-10T17:30:00.000Z', 60, 1],
      ['2026-11-10T18:30:00.000Z', 80, 1],
    ]);
    const day = await series(patient.id, { view: 'day', date: '2026-11-11' });
    expect(day.points.map((point) => point.value)).toEqual([80]);
  });

  it('Asia/Kathmandu (+05:45): days start at 18:15 UTC, hours at :15', async () => {
    const { patient } = await seededPatient('Asia/Kathmandu', [
      ['2026-11-10T18:05:00Z', 60], // 23:50 on 10 November, local
      ['2026-11-10T18:25:00Z', 80], // 00:10 on 11 November, local
    ]);
    const month = await series(patient.id, { view: 'month', date: '2026-11-11' });
    expect(buckets(month)).toEqual([
      ['2026-11-09T18:15:00.000Z', 60, 1],
      ['2026-11-10T18:15:00.000Z', 80, 1],
    ]);
    const week = await series(patient.id, { view: 'week', date: '2026-11-11' });
    expect(buckets(week)).toEqual([
      ['2026-11-10T17:15:00.000Z', 60, 1],
      ['2026-11-10T18:15:00.000Z', 80, 1],
    ]);
  });
});

describe('America/Toronto across DST changes', () => {
  it('the 25-hour day of 1 November 2026 is one bucket, its repeated hour two', async () => {
    const { patient } = await seededPatient('America/Toronto', [
      ['2026-11-01T03:30:00Z', 50], // 23:30 EDT on 31 October
      ['2026-11-01T04:30:00Z', 60], // 00:30 EDT on 1 November
      ['2026-11-01T05:30:00Z', 62], // 01:30 EDT
      ['2026-11-01T06:30:00Z', 64], // 01:30 EST, the same clock time an hour later
      ['2026-11-02T04:30:00Z', 66], // 23:30 EST on 1 November
      ['2026-11-02T05:30:00Z', 70], // 00:30 EST on 2 November
    ]);
    const day = await series(patient.id, { view: 'day', date: '2026-11-01' });
    expect([day.from, day.to]).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
    expect(day.points.map((point) => point.value)).toEqual([60, 62, 64, 66]);

    const month = await series(patient.id, { view: 'month', date: '2026-11-20' });
    expect([month.from, month.to]).toEqual(['2026-11-01T04:00:00.000Z', '2026-12-01T05:00:00.000Z']);
    expect(buckets(month)).toEqual([
      ['2026-11-01T04:00:00.000Z', 63, 4],
      ['2026-11-02T05:00:00.000Z', 70, 1],
    ]);
    const week = await series(patient.id, {
      view: 'week',
      from: '2026-11-01T04:00:00Z',
      to: '2026-11-02T05:00:00Z',
    });
    expect(instants(week)).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2026-11-02T04:00:00.000Z',
    ]);
  });

  it('the 23-hour day of 8 March 2026 is one bucket', async () => {
    const { patient } = await seededPatient('America/Toronto', [
      ['2026-03-08T05:30:00Z', 60], // 00:30 EST on 8 March
      ['2026-03-08T07:30:00Z', 62], // 03:30 EDT (02:00 EST jumped to 03:00 EDT)
      ['2026-03-09T03:30:00Z', 64], // 23:30 EDT on 8 March
      ['2026-03-09T04:30:00Z', 70], // 00:30 EDT on 9 March
    ]);
    const day = await series(patient.id, { view: 'day', date: '2026-03-08' });
    expect([day.from, day.to]).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(day.points.map((point) => point.value)).toEqual([60, 62, 64]);
    const month = await series(patient.id, { view: 'month', date: '2026-03-01' });
    expect(buckets(month)).toEqual([
      ['2026-03-08T05:00:00.000Z', 62, 3],
      ['2026-03-09T04:00:00.000Z', 70, 1],
    ]);
  });
});

describe('a change of the patient’s time zone', () => {
  it('schedules a rebuild that re-buckets the rollups into the new zone', async () => {
    const { patient, account } = await seededPatient('UTC', [
      ['2026-11-10T20:00:00Z', 60], // 10 November in UTC; 03:00 on 11 November in Ho Chi Minh City
      ['2026-11-11T02:00:00Z', 80], // 11 November in UTC; 09:00 on 11 November in Ho Chi Minh City
    ]);
    const range = { view: 'month', from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
    const before = await series(patient.id, range);
    expect(before.timeZone).toBe('UTC');
    expect(buckets(before)).toEqual([
      ['2026-11-10T00:00:00.000Z', 60, 1],
      ['2026-11-11T00:00:00.000Z', 80, 1],
    ]);

    // The account's zone changes (as the account settings do, under the app role).
    await testDb.database.withTenant(org.tenant.id, (tx) =>
      tx
        .update(users)
        .set({ timeZone: 'Asia/Ho_Chi_Minh' })
        .where(and(eq(users.tenantId, org.tenant.id), eq(users.id, account.id))),
    );
    expect(await scheduledFor(patient.id)).toBe(1);
    const ran = await runJobs();
    expect(ran.failed).toBe(0);
    expect(ran.ran).toBeGreaterThanOrEqual(1);

    const after = await series(patient.id, range);
    expect(after.timeZone).toBe('Asia/Ho_Chi_Minh');
    expect(buckets(after)).toEqual([['2026-11-10T17:00:00.000Z', 70, 2]]);
    const week = await series(patient.id, { view: 'week', date: '2026-11-11' });
    expect(instants(week)).toEqual(['2026-11-10T20:00:00.000Z', '2026-11-11T02:00:00.000Z']);

    // Later readings roll up in the new zone too.
    await send(patient.id, [['2026-11-11T16:59:00Z', 100]]); // 23:59 on 11 November, local
    const later = await series(patient.id, range);
    expect(buckets(later)).toEqual([['2026-11-10T17:00:00.000Z', 80, 3]]);
  });

  it('migration 0027 rebuilt rollups stored in UTC buckets into local ones', async () => {
    const { patient } = await seededPatient('Asia/Ho_Chi_Minh', [
      ['2026-11-10T16:30:00Z', 60], // 23:30 on 10 November, local
      ['2026-11-10T17:30:00Z', 80], // 00:30 on 11 November, local
    ]);
    // The rollups as they were before: UTC hours and days.
    await storeUtcDays(patient.id);
    const range = { view: 'month', from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
    expect(buckets(await series(patient.id, range))).toEqual([['2026-11-10T00:00:00.000Z', 70, 2]]);

    await runMigrationFrom('0027_local_day_rollups.sql', '-- Every existing rollup', 'INSERT INTO readings_daily');
    expect(buckets(await series(patient.id, range))).toEqual([
      ['2026-11-09T17:00:00.000Z', 60, 1],
      ['2026-11-10T17:00:00.000Z', 80, 1],
    ]);
  });

  it('a patient given an account re-buckets into the account’s zone', async () => {
    const { patient } = await seededPatient(null, [
      ['2026-11-10T20:00:00Z', 60],
      ['2026-11-11T02:00:00Z', 80],
    ]);
    const range = { view: 'month', from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
    const before = await series(patient.id, range);
    expect(before.timeZone).toBe('Asia/Ho_Chi_Minh'); // the tenant's zone (its default)
    expect(instants(before)).toEqual(['2026-11-10T17:00:00.000Z']);
    const account = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
      timeZone: 'Asia/Kolkata',
    });
    await asOwner(testDb.ownerUrl, 'UPDATE patients SET user_id = $1 WHERE id = $2', [account.id, patient.id]);
    const ran = await runJobs();
    expect(ran).toMatchObject({ failed: 0 });
    const after = await series(patient.id, range);
    expect(after.timeZone).toBe('Asia/Kolkata');
    expect(buckets(after)).toEqual([['2026-11-10T18:30:00.000Z', 70, 2]]);
  });
});

describe('the tenant’s time zone for patients without one of their own', () => {
  /** PUT /manage/sadmin/tenant/{id}/settings by a super admin (a fresh session each time). */
  async function setTenantZone(zone: string | null, language = 'en') {
    const { token } = await staffSession(app, testDb, 'SUPER_ADMIN', org.tenant.code);
    return app.inject({
      method: 'PUT',
      url: `/manage/sadmin/tenant/${org.tenant.id}/settings`,
      payload: { TIME_ZONE: zone },
      headers: { 'accept-language': language },
      ...withSession(token),
    });
  }
  const range = { view: 'month', from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z' };
  const lateAndEarly: [string, number][] = [
    ['2026-11-10T16:30:00Z', 60], // 23:30 on 10 November in Ho Chi Minh City; 11:30 in Toronto
    ['2026-11-10T17:30:00Z', 80], // 00:30 on 11 November in Ho Chi Minh City; 12:30 in Toronto
  ];

  it('a patient without an account in a tenant set to Asia/Ho_Chi_Minh gets local days', async () => {
    const saved = await setTenantZone('Asia/Ho_Chi_Minh');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: { settings: { key: string; value: string }[] } }>().data.settings).toContainEqual(
      expect.objectContaining({ key: 'TIME_ZONE', value: 'Asia/Ho_Chi_Minh' }),
    );
    const { patient } = await seededPatient(null, lateAndEarly);
    const month = await series(patient.id, range);
    expect(month.timeZone).toBe('Asia/Ho_Chi_Minh');
    expect(buckets(month)).toEqual([
      ['2026-11-09T17:00:00.000Z', 60, 1],
      ['2026-11-10T17:00:00.000Z', 80, 1],
    ]);
    const eleventh = await series(patient.id, { view: 'day', date: '2026-11-11' });
    expect([eleventh.from, eleventh.to]).toEqual(['2026-11-10T17:00:00.000Z', '2026-11-11T17:00:00.000Z']);
    expect(eleventh.points.map((point) => point.value)).toEqual([80]);
  });

  it('a change of the tenant’s zone re-buckets its patients without a zone; a patient with an account zone keeps it', async () => {
    const { patient: follower } = await seededPatient(null, lateAndEarly);
    const { patient: own } = await seededPatient('Asia/Kolkata', lateAndEarly);
    const kolkataDays = [['2026-11-09T18:30:00.000Z', 70, 2]]; // 22:00 and 23:00 on 10 November in Kolkata
    expect(buckets(await series(own.id, range))).toEqual(kolkataDays);
    await runJobs(); // nothing waiting from earlier changes

    const saved = await setTenantZone('America/Toronto');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await scheduledFor(follower.id)).toBe(1);
    expect(await scheduledFor(own.id)).toBe(0);
    const ran = await runJobs();
    expect(ran.failed).toBe(0);

    const toronto = await series(follower.id, range);
    expect(toronto.timeZone).toBe('America/Toronto');
    expect(buckets(toronto)).toEqual([['2026-11-10T05:00:00.000Z', 70, 2]]);
    const kept = await series(own.id, range);
    expect(kept.timeZone).toBe('Asia/Kolkata');
    expect(buckets(kept)).toEqual(kolkataDays);

    // Back to the default: Ho Chi Minh City again.
    expect((await setTenantZone(null)).statusCode).toBe(200);
    expect(await scheduledFor(follower.id)).toBe(1);
    expect((await runJobs()).failed).toBe(0);
    const back = await series(follower.id, range);
    expect(back.timeZone).toBe('Asia/Ho_Chi_Minh');
    expect(buckets(back)).toEqual([
      ['2026-11-09T17:00:00.000Z', 60, 1],
      ['2026-11-10T17:00:00.000Z', 80, 1],
    ]);
  });

  it('migration 0030 rebuilt the UTC days of patients without an account zone in their tenant’s zone', async () => {
    const { patient } = await seededPatient(null, lateAndEarly);
    // The rollups as they were before: UTC days.
    await storeUtcDays(patient.id);
    expect(buckets(await series(patient.id, range))).toEqual([['2026-11-10T00:00:00.000Z', 70, 2]]);

    await runMigrationFrom('0030_tenant_time_zone.sql', '-- Patients without an account zone had UTC days', 'rebuild_patient_rollups');
    expect(buckets(await series(patient.id, range))).toEqual([
      ['2026-11-09T17:00:00.000Z', 60, 1],
      ['2026-11-10T17:00:00.000Z', 80, 1],
    ]);
  });

  it('refuses a zone the runtime or the database does not know with the spec’s message, in both languages', async () => {
    const english = await setTenantZone('Mars/Olympus_Mons');
    expect(english.statusCode).toBe(400);
    expect(english.json()).toMatchObject({ code: 'tenant.timeZoneUnsupported', message: 'This time zone is not supported !' });
    const vietnamese = await setTenantZone('GMT+25', 'vi');
    expect(vietnamese.statusCode).toBe(400);
    expect(vietnamese.json()).toMatchObject({ code: 'tenant.timeZoneUnsupported', message: 'Múi giờ này không được hỗ trợ !' });
    expect((await setTenantZone('')).statusCode).toBe(400);
    // Nor is a new tenant created with one.
    const { token } = await staffSession(app, testDb, 'SUPER_ADMIN', org.tenant.code);
    const created = await app.inject({
      method: 'POST',
      url: '/manage/sadmin/tenant',
      payload: { name: 'Olympus Clinic', code: 'olympus-zone', settings: { TIME_ZONE: 'Mars/Olympus_Mons' } },
      ...withSession(token),
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'tenant.timeZoneUnsupported', message: 'This time zone is not supported !' });
    expect(await asOwner(testDb.ownerUrl, `SELECT 1 FROM tenants WHERE code = 'olympus-zone'`)).toEqual([]);
    const stored = await asOwner<{ value: string }>(
      testDb.ownerUrl,
      `SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'TIME_ZONE'`,
      [org.tenant.id],
    );
    expect(stored).toEqual([]);
  });
});
