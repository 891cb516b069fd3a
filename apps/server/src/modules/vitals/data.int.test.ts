import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { ensurePartitionsAhead } from './maintenance-job.js';
import {
  answerOf,
  batchOf,
  call,
  logInAs,
  newPatient,
  patientRow,
  postBatch,
  reading,
  vitalsOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date());
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let doctor: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  // These patients have no account: their days are the tenant's, here UTC (local days: local-days.int.test.ts).
  await asOwner(testDb.ownerUrl, `INSERT INTO tenant_settings (tenant_id, key, value) VALUES ($1, 'TIME_ZONE', 'UTC')`, [org.tenant.id]);
  doctor = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface Series {
  data: {
    resolution: string;
    points: { at: string; value: number; min: number; max: number; count: number; late?: boolean | null }[];
  };
}
const seriesUrl = (patientId: string, query: Record<string, string>) =>
  `/health/patients/${patientId}/data?${new URLSearchParams(query).toString()}`;

describe('GET /health/patients/:patientId/data', () => {
  it('returns raw readings for a day, hourly rollups for a week, daily rollups for a month and a year', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const dayStart = new Date(
      Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate()) - 2 * DAY,
    );
    // Two days, three readings an hour from 10:00 to 11:59 UTC.
    const readings = [];
    for (const day of [0, 1]) {
      for (const minute of [0, 20, 40, 60, 80, 100])
        readings.push(
          reading(
            'HEART_RATE',
            60 + minute / 10 + day,
            new Date(dayStart.getTime() + day * DAY + 10 * HOUR + minute * MINUTE),
          ),
        );
    }
    expect(answerOf(await postBatch(app, doctor, batchOf(patient.id, readings))).accepted).toBe(12);

    const day = await call(
      app,
      doctor,
      'GET',
      seriesUrl(patient.id, {
        measure: 'HEART_RATE',
        view: 'day',
        from: dayStart.toISOString(),
        to: new Date(dayStart.getTime() + DAY).toISOString(),
      }),
    );
    expect(day.statusCode, day.body).toBe(200);
    expect(day.json<Series>().data.resolution).toBe('raw');
    expect(day.json<Series>().data.points.map((point) => point.value)).toEqual([60, 62, 64, 66, 68, 70]);
    // Measured two days before they arrived: later than the 2-hour horizon, flagged late.
    expect(day.json<Series>().data.points.map((point) => point.late)).toEqual([true, true, true, true, true, true]);

    const from = new Date(dayStart.getTime() - 3 * DAY).toISOString();
    const week = await call(
      app,
      doctor,
      'GET',
      seriesUrl(patient.id, {
        measure: 'HEART_RATE',
        view: 'week',
        from,
        to: new Date(dayStart.getTime() + 4 * DAY).toISOString(),
      }),
    );
    expect(week.json<Series>().data.points).toEqual([
      {
        at: new Date(dayStart.getTime() + 10 * HOUR).toISOString(),
        value: 62,
        min: 60,
        max: 64,
        count: 3,
        source: null,
        late: null,
      },
      {
        at: new Date(dayStart.getTime() + 11 * HOUR).toISOString(),
        value: 68,
        min: 66,
        max: 70,
        count: 3,
        source: null,
        late: null,
      },
      {
        at: new Date(dayStart.getTime() + DAY + 10 * HOUR).toISOString(),
        value: 63,
        min: 61,
        max: 65,
        count: 3,
        source: null,
        late: null,
      },
      {
        at: new Date(dayStart.getTime() + DAY + 11 * HOUR).toISOString(),
        value: 69,
        min: 67,
        max: 71,
        count: 3,
        source: null,
        late: null,
      },
    ]);
    for (const view of ['month', 'year']) {
      const response = await call(
        app,
        doctor,
        'GET',
        seriesUrl(patient.id, { measure: 'HEART_RATE', view, from, to: clock.now().toISOString() }),
      );
      expect(response.json<Series>().data.points).toEqual([
        { at: dayStart.toISOString(), value: 65, min: 60, max: 70, count: 6, source: null, late: null },
        {
          at: new Date(dayStart.getTime() + DAY).toISOString(),
          value: 66,
          min: 61,
          max: 71,
          count: 6,
          source: null,
          late: null,
        },
      ]);
    }
    const audit = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'HEALTH_DATA_VIEWED' AND target_id = $1`,
      [patient.id],
    );
    expect(audit[0]?.n).toBe(4);
  });

  it.each([
    ['from after to', 'week', DAY, 2 * DAY],
    ['from equal to', 'week', DAY, DAY],
    ['a day view over two days', 'day', 3 * DAY, 0],
    ['a week view over eight days', 'week', 9 * DAY, 0],
    ['a month view over 32 days', 'month', 33 * DAY, 0],
    ['a year view over a year', 'year', 368 * DAY, 0],
    ['a range in the future', 'day', -HOUR, -2 * HOUR],
  ])('answers health.invalidDateRange for %s', async (_name, view, fromAgo, toAgo) => {
    const now = clock.now().getTime();
    const response = await call(
      app,
      doctor,
      'GET',
      seriesUrl(org.patientA.id, {
        measure: 'SPO2',
        view,
        from: new Date(now - fromAgo).toISOString(),
        to: new Date(now - toAgo).toISOString(),
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('health.invalidDateRange');
  });

  it('is not found for another center’s or another tenant’s patient', async () => {
    const query = {
      measure: 'SPO2',
      view: 'day',
      from: new Date(clock.now().getTime() - HOUR).toISOString(),
      to: clock.now().toISOString(),
    };
    const doctorB = await logInAs(app, org.tenant.code, org.doctorB);
    expect(
      (await call(app, doctorB, 'GET', seriesUrl(org.patientA.id, query))).json<{ code: string }>().code,
    ).toBe('patient.notFound');
    const other = await createTenant(testDb.database);
    const admin = await logInAs(
      app,
      other.code,
      await createTenantUser(testDb.database, other.id, { role: 'ADMIN' }),
    );
    const response = await call(app, admin, 'GET', seriesUrl(org.patientA.id, query));
    expect(response.statusCode).toBe(404);
  });
});

const thresholdsUrl = (patientId: string) => `/health/patients/${patientId}/thresholds`;
interface ThresholdsBody {
  data: {
    thresholds: Record<string, Record<string, { lower: number | null; upper: number | null }>>;
    custom: string[];
  };
}

describe('thresholds', () => {
  it('a doctor raises the SpO2 at-risk bound; the next reading below it raises the status; reset returns to defaults; both audited', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const current = (await call(app, doctor, 'GET', thresholdsUrl(patient.id))).json<ThresholdsBody>().data;
    expect(current.custom).toEqual([]);
    const wanted = structuredClone(current.thresholds);
    const spo2 = wanted.SPO2;
    if (spo2?.AT_RISK === undefined) throw new Error('no SpO2 thresholds');
    spo2.AT_RISK.lower = 96;
    const updated = await call(app, doctor, 'PUT', thresholdsUrl(patient.id), { thresholds: wanted });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<ThresholdsBody>().data.custom).toEqual(['SPO2.AT_RISK']);
    const [row] = await asOwner<{ lower_bound: number; updated_by: string }>(
      testDb.ownerUrl,
      'SELECT lower_bound, updated_by FROM patient_thresholds WHERE patient_id = $1',
      [patient.id],
    );
    expect(row).toEqual({ lower_bound: 96, updated_by: org.doctorA.id });

    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [reading('SPO2', 95, new Date(clock.now().getTime() - MINUTE))]),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');

    const reset = await call(app, doctor, 'DELETE', thresholdsUrl(patient.id));
    expect(reset.json<ThresholdsBody>().data).toMatchObject({
      custom: [],
      thresholds: { SPO2: { AT_RISK: { lower: 94 } } },
    });
    const audit = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE target_id = $1 AND action IN ('THRESHOLDS_UPDATED', 'THRESHOLDS_RESET') ORDER BY occurred_at`,
      [patient.id],
    );
    expect(audit.map((entry) => entry.action)).toEqual(['THRESHOLDS_UPDATED', 'THRESHOLDS_RESET']);
  });

  it('refuses bands that do not nest with health.invalidThresholds and field paths, storing nothing', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const { thresholds } = (await call(app, doctor, 'GET', thresholdsUrl(patient.id))).json<ThresholdsBody>()
      .data;
    const wanted = structuredClone(thresholds);
    if (wanted.SPO2?.SOS === undefined) throw new Error('no SpO2 thresholds');
    wanted.SPO2.SOS.lower = 95;
    const response = await call(app, doctor, 'PUT', thresholdsUrl(patient.id), { thresholds: wanted });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string; fieldErrors: { field: string }[] }>()).toMatchObject({
      code: 'health.invalidThresholds',
      fieldErrors: [{ field: 'body.thresholds.SPO2.SOS.lower' }],
    });
    const rows = await asOwner(testDb.ownerUrl, 'SELECT 1 FROM patient_thresholds WHERE patient_id = $1', [
      patient.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('tenant defaults: set by a tenant admin, applied under patients, refused for a center-level doctor', async () => {
    const admin = await logInAs(app, org.tenant.code, org.admin);
    const { thresholds } = (
      await call(app, admin, 'GET', '/health/thresholds/defaults')
    ).json<ThresholdsBody>().data;
    const wanted = structuredClone(thresholds);
    if (wanted.TEMPERATURE?.AT_RISK === undefined) throw new Error('no temperature thresholds');
    wanted.TEMPERATURE.AT_RISK.upper = 37.2;
    const doctorAttempt = await call(app, doctor, 'PUT', '/health/thresholds/defaults', {
      thresholds: wanted,
    });
    expect(doctorAttempt.statusCode).toBe(403);
    const response = await call(app, admin, 'PUT', '/health/thresholds/defaults', { thresholds: wanted });
    expect(response.json<ThresholdsBody>().data.custom).toEqual(['TEMPERATURE.AT_RISK']);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const effective = (await call(app, doctor, 'GET', thresholdsUrl(patient.id))).json<ThresholdsBody>().data;
    expect(effective).toMatchObject({
      custom: [],
      thresholds: { TEMPERATURE: { AT_RISK: { upper: 37.2 } } },
    });
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [reading('TEMPERATURE', 37.3, new Date(clock.now().getTime() - MINUTE))]),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');
    const reset = await call(app, admin, 'DELETE', '/health/thresholds/defaults');
    expect(reset.json<ThresholdsBody>().data.custom).toEqual([]);
  });

  it('an operator (no health.threshold) cannot change a patient’s thresholds', async () => {
    const operator = await logInAs(app, org.tenant.code, org.operatorA);
    const response = await call(app, operator, 'DELETE', thresholdsUrl(org.patientA.id));
    expect(response.statusCode).toBe(403);
  });
});

describe('readings partitions', () => {
  it('exist three months ahead, and a stray reading moves from the default partition into its month when created', async () => {
    const names = (
      await asOwner<{ name: string }>(
        testDb.ownerUrl,
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'readings'::regclass`,
      )
    ).map((row) => row.name);
    const now = clock.now();
    for (let ahead = 0; ahead <= 3; ahead += 1) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
      expect(names).toContain(
        `readings_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
      );
    }
    expect(names).toContain('readings_default');

    // Ten months back: older than the partitions made at migration, younger than a year (health.tooOld).
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 10, 1));
    const old = new Date(month.getTime() + 14 * DAY + 8 * HOUR);
    const answer = answerOf(await postBatch(app, doctor, batchOf(patient.id, [reading('STEPS', 500, old)])));
    expect(answer).toMatchObject({ accepted: 1, late: 1 });
    const inDefault = await asOwner(testDb.ownerUrl, 'SELECT 1 FROM readings_default WHERE patient_id = $1', [
      patient.id,
    ]);
    expect(inDefault).toHaveLength(1);
    const day = month.toISOString().slice(0, 10);
    await testDb.database.system.execute(sql`SELECT ensure_readings_partitions(${day}::date, 1)`);
    expect(
      await asOwner(testDb.ownerUrl, 'SELECT 1 FROM readings_default WHERE patient_id = $1', [patient.id]),
    ).toEqual([]);
    const partition = `readings_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(
      await asOwner(testDb.ownerUrl, `SELECT 1 FROM ${partition} WHERE patient_id = $1`, [patient.id]),
    ).toHaveLength(1);

    // The maintenance job, a year on, creates what is missing and nothing twice.
    const later = new ManualClock(new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), 1)));
    expect(await ensurePartitionsAhead(testDb.database, later)).toBeGreaterThan(0);
    expect(await ensurePartitionsAhead(testDb.database, later)).toBe(0);
  });
});
