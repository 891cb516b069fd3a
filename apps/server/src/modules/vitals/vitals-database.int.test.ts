/**
 * A DEDICATED tenant's readings and rollups live in its vitals database: stored there by ingest,
 * read from there by charts, while thresholds, status, alerts and batch records stay on the
 * primary, which commits last (see vitals-database.ts storeReadings).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { TenantDetail } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, urlOfDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createTenant, createTenantUser } from '../../../test/factories.js';
import { TEST_SECRETS_KEY_HEX } from '../../../test/test-config.js';
import { connectDatabase, type Database } from '../../db/database.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { dedicatedSetOn, tenantServers, type TenantServer } from '../tenants/dedicated-support.js';
import { dataOf, errorOf, staffSession } from '../tenants/test-support.js';
import { rebuildLocalRollups } from './local-rollups-job.js';
import { ensurePartitionsAhead } from './maintenance-job.js';
import { compactTenantReadings, purgeExpiredReadings } from './storage-job.js';
import { answerOf, batchOf, call, logInAs, newPatient, postBatch, reading } from './test-support.js';
import { purgeVitals } from './vitals-database.js';

let testDb: TestDatabase;
let database: Database;
let app: FastifyInstance;
const clock = new ManualClock(new Date());
const servers = tenantServers();
let server: TenantServer;
let tenant: TenantDetail;
let centerId: string;
let doctorToken: string;
let superAdmin: string;
/** The tenant's two databases as the superuser sees them. */
let primaryUrl: string;
let vitalsUrl: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = connectDatabase(testDb.appUrl, { maxConnections: 5, secretsKey: Buffer.from(TEST_SECRETS_KEY_HEX, 'hex') });
  app = await createTestApp(database, {}, clock);
  server = await servers.create();
  primaryUrl = server.primaryOwnerUrl;
  vitalsUrl = urlOfDatabase(inject('adminUrl'), server.vitals);
  const acting = await createTenant(database);
  superAdmin = (await staffSession(app, { ...testDb, database }, 'SUPER_ADMIN', acting.code)).token;
  const code = `v-${randomBytes(4).toString('hex')}`;
  tenant = dataOf<TenantDetail>(await app.inject({ method: 'POST', url: '/manage/sadmin/tenant', payload: { name: `Vitals ${code}`, code }, ...withSession(superAdmin) }));
  const saved = await app.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${tenant.id}/connections`, payload: dedicatedSetOn(server), ...withSession(superAdmin) });
  expect(saved.statusCode, saved.body).toBe(200);
  centerId = (await createHealthCenter(database, tenant.id)).id;
  const doctor = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerId });
  doctorToken = await logInAs(app, tenant.code, doctor);
});
afterAll(async () => {
  await app.close();
  await database.close();
  await testDb.drop();
  await servers.dropAll();
});

const minutesAgo = (minutes: number) => new Date(clock.now().getTime() - minutes * MINUTE);
const countIn = async (url: string, table: string, patientId: string) =>
  Number((await asOwner<{ count: string }>(url, `SELECT count(*) AS count FROM ${table} WHERE patient_id = $1`, [patientId]))[0]?.count);
const heartRateRollup = async (patientId: string) =>
  asOwner<{ count: number; minute: number }>(
    vitalsUrl,
    `SELECT count, extract(minute FROM bucket_start)::int AS minute FROM readings_hourly WHERE patient_id = $1 AND measure = 'HEART_RATE'`,
    [patientId],
  );
/** A patient of the dedicated tenant (through the router: its primary), with an account in `timeZone`. */
const dedicatedPatient = async (timeZone = 'Asia/Ho_Chi_Minh') => {
  const account = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerId, timeZone });
  // newPatient takes a TestDatabase; the router is what matters, so hand it the app's database.
  return newPatient({ ...testDb, database }, tenant.id, centerId, { userId: account.id });
};

describe('a DEDICATED tenant’s vitals database', () => {
  it('holds the readings and rollups (in the patient’s local hours), not the primary; charts and latest values read them there', async () => {
    const patient = await dedicatedPatient('Asia/Kolkata');
    // 40 minutes into the last whole UTC hour: one local hour in India (from :30) and in UTC alike.
    const at = new Date(Math.floor(clock.now().getTime() / (60 * MINUTE)) * 60 * MINUTE - 20 * MINUTE);
    const batch = batchOf(patient.id, [
      reading('HEART_RATE', 70, at),
      reading('HEART_RATE', 80, new Date(at.getTime() + MINUTE)),
      { measure: 'BLOOD_PRESSURE', systolic: 118, diastolic: 76, measuredAt: at.toISOString(), source: 'WIRELESS_DEVICE' },
    ]);
    expect(answerOf(await postBatch(app, doctorToken, batch))).toMatchObject({ accepted: 3, duplicates: 0, status: 'NORMAL', replayed: false });
    const manual = await call(app, doctorToken, 'POST', '/health/manual', { patientId: patient.id, measure: 'WEIGHT', value: 61.5, measuredAt: minutesAgo(5).toISOString() });
    expect(manual.statusCode, manual.body).toBe(200);

    expect(await countIn(vitalsUrl, 'readings', patient.id)).toBe(5);
    // The patient's account is in India (+05:30): its local hours start at :30, as on the primary.
    expect(await heartRateRollup(patient.id)).toEqual([{ count: 2, minute: 30 }]);
    for (const table of ['readings', 'readings_hourly', 'readings_daily']) expect(await countIn(primaryUrl, table, patient.id), table).toBe(0);
    // The batch's record, the audit rows and the patient's last reading are on the primary.
    expect(await countIn(primaryUrl, 'ingest_batches', patient.id)).toBe(1);
    expect((await asOwner<{ at: Date | null }>(primaryUrl, 'SELECT last_reading_at AS at FROM patients WHERE id = $1', [patient.id]))[0]?.at).not.toBeNull();

    const range = `from=${encodeURIComponent(minutesAgo(120).toISOString())}&to=${encodeURIComponent(clock.now().toISOString())}`;
    const day = dataOf<{ points: { value: number }[] }>(await call(app, doctorToken, 'GET', `/health/patients/${patient.id}/data?measure=HEART_RATE&view=day&${range}`));
    expect(day.points.map((point) => point.value)).toEqual([70, 80]);
    const week = dataOf<{ points: { count: number }[] }>(await call(app, doctorToken, 'GET', `/health/patients/${patient.id}/data?measure=HEART_RATE&view=week&${range}`));
    expect(week.points.map((point) => point.count)).toEqual([2]);
    const latest = dataOf<{ readings: { measure: string; value: number }[] }>(await call(app, doctorToken, 'GET', `/health/patients/${patient.id}/latest`));
    expect(latest.readings).toEqual(expect.arrayContaining([expect.objectContaining({ measure: 'HEART_RATE', value: 80 }), expect.objectContaining({ measure: 'WEIGHT', value: 61.5 })]));

    // The account moves to UTC: the rebuild job (run here directly) rebuckets there, in whole hours.
    await asOwner(primaryUrl, `UPDATE users SET time_zone = 'UTC' WHERE id = (SELECT user_id FROM patients WHERE id = $1)`, [patient.id]);
    expect(await rebuildLocalRollups(database, tenant.id, patient.id)).toBe('UTC');
    expect(await heartRateRollup(patient.id)).toEqual([{ count: 2, minute: 0 }]);
  });

  it('still judges every batch on the primary: an abnormal reading raises the status and an alert there', async () => {
    const patient = await dedicatedPatient();
    const answer = answerOf(await postBatch(app, doctorToken, batchOf(patient.id, [reading('HEART_RATE', 205, minutesAgo(2))])));
    expect(answer.status).not.toBe('NORMAL');
    const alerts = await asOwner<{ type: string; level: string }>(primaryUrl, 'SELECT type, level FROM alerts WHERE patient_id = $1', [patient.id]);
    expect(alerts).toEqual([expect.objectContaining({ type: 'HEART_RATE' })]);
    expect((await asOwner<{ status: string }>(primaryUrl, 'SELECT status FROM patients WHERE id = $1', [patient.id]))[0]?.status).toBe(answer.status);
  });

  it('judges on retry a batch whose readings committed before its primary transaction failed, and counts them once in the rollups', async () => {
    const patient = await dedicatedPatient();
    const batch = batchOf(patient.id, [reading('HEART_RATE', 70, minutesAgo(4)), reading('HEART_RATE', 210, minutesAgo(3))]);
    // The primary transaction fails at its last step (the batch's answer): after the readings committed.
    await asOwner(primaryUrl, `CREATE FUNCTION fail_batch_answer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
    await asOwner(primaryUrl, 'CREATE TRIGGER fail_batch_answer BEFORE UPDATE ON ingest_batches FOR EACH ROW EXECUTE FUNCTION fail_batch_answer()');
    try {
      expect((await postBatch(app, doctorToken, batch)).statusCode).toBe(500);
    } finally {
      await asOwner(primaryUrl, 'DROP TRIGGER fail_batch_answer ON ingest_batches');
      await asOwner(primaryUrl, 'DROP FUNCTION fail_batch_answer()');
    }
    expect(await countIn(vitalsUrl, 'readings', patient.id)).toBe(2);
    expect(await heartRateRollup(patient.id)).toEqual([expect.objectContaining({ count: 2 })]);
    expect(await countIn(primaryUrl, 'ingest_batches', patient.id)).toBe(0);
    expect(await countIn(primaryUrl, 'alerts', patient.id)).toBe(0);

    // The device sends the batch again: its readings count as this batch's, are judged now, and
    // the rollups do not count them twice.
    const retried = answerOf(await postBatch(app, doctorToken, batch));
    expect(retried).toMatchObject({ accepted: 2, duplicates: 0, replayed: false });
    expect(retried.status).not.toBe('NORMAL');
    expect(await countIn(primaryUrl, 'alerts', patient.id)).toBe(1);
    expect(await countIn(vitalsUrl, 'readings', patient.id)).toBe(2);
    expect(await heartRateRollup(patient.id)).toEqual([expect.objectContaining({ count: 2 })]);
    // Once answered, the batch is a replay: nothing more is stored or judged.
    expect(answerOf(await postBatch(app, doctorToken, batch))).toMatchObject({ accepted: 2, replayed: true });
    expect(await heartRateRollup(patient.id)).toEqual([expect.objectContaining({ count: 2 })]);
    expect(await countIn(primaryUrl, 'alerts', patient.id)).toBe(1);
    // Another batch repeating those readings is a duplicate, judged by nobody again.
    expect(answerOf(await postBatch(app, doctorToken, { ...batch, batchId: batchOf(undefined, []).batchId }))).toMatchObject({ accepted: 0, duplicates: 2 });
  });

  it('keeps its readings partitions ahead, and refuses another vitals database once the tenant has readings', async () => {
    const months = (url: string) => asOwner<{ name: string }>(url, `SELECT relname AS name FROM pg_class WHERE relname LIKE 'readings_p%' AND relkind = 'r'`);
    const ahead = new Date(clock.now().getTime() + 200 * 24 * 60 * MINUTE);
    const partition = `readings_p${ahead.getUTCFullYear()}_${String(ahead.getUTCMonth() + 1).padStart(2, '0')}`;
    expect((await months(vitalsUrl)).map((row) => row.name)).not.toContain(partition);
    await ensurePartitionsAhead(database, new ManualClock(ahead));
    for (const url of [vitalsUrl, primaryUrl]) expect((await months(url)).map((row) => row.name), url).toContain(partition);

    // Readings exist (earlier tests): they would be left behind in the old vitals database.
    const moved = await app.inject({
      method: 'PUT',
      url: `/manage/sadmin/tenant/${tenant.id}/connections`,
      payload: dedicatedSetOn(server, { vitals: { database: server.primary } }),
      ...withSession(superAdmin),
    });
    expect(errorOf(moved)).toMatchObject({ status: 409, code: 'tenant.dataPlaneInUse' });
    // The same set again (new credentials, same places) is fine.
    expect((await app.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${tenant.id}/connections`, payload: dedicatedSetOn(server), ...withSession(superAdmin) })).statusCode).toBe(200);
  });

  it('compacts old readings into day blocks there, still read by charts, and deletes them past the retention with an audit row on the primary', async () => {
    const patient = await dedicatedPatient();
    const at = minutesAgo(10);
    await postBatch(app, doctorToken, batchOf(patient.id, [reading('HEART_RATE', 71, at), reading('HEART_RATE', 73, new Date(at.getTime() + MINUTE))]));
    const later = new Date(clock.now().getTime() + 3 * 24 * 60 * MINUTE);
    expect(await compactTenantReadings(database, later, tenant.id, { compactAfterDays: 1, retentionDays: 0 })).toMatchObject({ readings: expect.any(Number) as number });
    expect(await countIn(vitalsUrl, 'readings', patient.id)).toBe(0);
    expect(await countIn(vitalsUrl, 'reading_blocks', patient.id)).toBe(1);
    const range = `from=${encodeURIComponent(minutesAgo(60).toISOString())}&to=${encodeURIComponent(clock.now().toISOString())}`;
    const day = dataOf<{ points: { value: number }[] }>(await call(app, doctorToken, 'GET', `/health/patients/${patient.id}/data?measure=HEART_RATE&view=day&${range}`));
    expect(day.points.map((point) => point.value)).toEqual([71, 73]);

    const muchLater = new Date(clock.now().getTime() + 400 * 24 * 60 * MINUTE);
    expect(await purgeExpiredReadings(database, muchLater, tenant.id, { compactAfterDays: 1, retentionDays: 30 })).toBeGreaterThanOrEqual(2);
    expect(await countIn(vitalsUrl, 'reading_blocks', patient.id)).toBe(0);
    expect(await asOwner(primaryUrl, `SELECT 1 FROM audit_log WHERE action = 'VITALS_PURGED'`)).toHaveLength(1);
  });

  it('removes a purged patient’s readings and rollups there', async () => {
    const patient = await dedicatedPatient();
    await postBatch(app, doctorToken, batchOf(patient.id, [reading('HEART_RATE', 72, minutesAgo(8))]));
    expect(await countIn(vitalsUrl, 'readings_daily', patient.id)).toBe(1);
    await database.withTenant(tenant.id, (tx) => purgeVitals(database, tx, tenant.id, [patient.id]));
    for (const table of ['readings', 'readings_hourly', 'readings_daily']) expect(await countIn(vitalsUrl, table, patient.id), table).toBe(0);
  });

  it('lets a transaction there see and write only the patients it was opened for, without the kinds hidden from its caller', async () => {
    const patient = await dedicatedPatient();
    await postBatch(app, doctorToken, batchOf(patient.id, [reading('HEART_RATE', 72, minutesAgo(6)), reading('SPO2', 97, minutesAgo(6))]));
    // As the tenant's own login role, which owns the tables there (FORCE row level security).
    const client = new pg.Client({ connectionString: `postgres://${server.role}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${server.vitals}` });
    await client.connect();
    const measuresSeen = async (patients: string, hidden = '') => {
      await client.query('BEGIN');
      try {
        await client.query(`SELECT set_config('app.tenant_id', $1, true), set_config('app.vitals_patients', $2, true), set_config('app.vitals_hidden_kinds', $3, true)`, [tenant.id, patients, hidden]);
        const rows = (await client.query<{ measure: string }>('SELECT DISTINCT measure FROM readings WHERE patient_id = $1 ORDER BY measure', [patient.id])).rows;
        return rows.map((row) => row.measure);
      } finally {
        await client.query('ROLLBACK');
      }
    };
    try {
      expect(await measuresSeen(`{${patient.id}}`)).toEqual(['HEART_RATE', 'SPO2']);
      expect(await measuresSeen(`{${patient.id}}`, '{HEART_RATE}')).toEqual(['SPO2']);
      expect(await measuresSeen(`{${randomUUID()}}`)).toEqual([]);
      expect(await measuresSeen('')).toEqual([]);
      await client.query('BEGIN');
      await client.query(`SELECT set_config('app.tenant_id', $1, true), set_config('app.vitals_patients', $2, true)`, [tenant.id, `{${patient.id}}`]);
      await expect(
        client.query(`INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source) VALUES ($1, $2, 'HEART_RATE', now(), 70, 'MANUAL')`, [tenant.id, randomUUID()]),
      ).rejects.toThrow(/row-level security/);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });
});
