import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import {
  answerOf,
  batchOf,
  call,
  logInAs,
  newPatient,
  postBatch,
  reading,
  vitalsOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-11-20T08:00:00Z'));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let patient: string;
let doctor: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  patient = await logInAs(app, org.tenant.code, org.patientUser);
  doctor = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const dataOf = (response: LightMyRequestResponse): unknown => response.json<{ data: unknown }>().data;
const codeOf = (response: LightMyRequestResponse) => response.json<{ code: string }>().code;
const readsOf = (what: string) =>
  asOwner<{ n: number }>(
    testDb.ownerUrl,
    `SELECT count(*)::int AS n FROM audit_log WHERE action = 'HEALTH_DATA_VIEWED' AND details->>'what' = $1 AND details->'patientIds' ? $2`,
    [what, org.patientA.id],
  ).then((rows) => rows[0]?.n ?? 0);

describe('GET /health/me/*', () => {
  it('the dashboard gives each latest value its level against the patient’s own thresholds', async () => {
    const at = new Date(clock.now().getTime() - 10 * MINUTE);
    const batch = batchOf(undefined, [
      reading('HEART_RATE', 72, at),
      reading('SPO2', 85, at),
      reading('STEPS', 3000, at),
    ]);
    expect(answerOf(await postBatch(app, patient, batch)).accepted).toBe(3);

    const response = await call(app, patient, 'GET', '/health/me/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    const dashboard = dataOf(response) as {
      status: string;
      readings: { measure: string; value: number; level: string | null }[];
    };
    const levels = Object.fromEntries(dashboard.readings.map((item) => [item.measure, item.level]));
    expect(levels).toMatchObject({ HEART_RATE: 'NORMAL', STEPS: null });
    expect(levels.SPO2).not.toBe('NORMAL');
    expect(dashboard.status).not.toBe('NORMAL');
    expect(await readsOf('latest')).toBeGreaterThanOrEqual(1);
  });

  it('staff have no record of their own: 404 health.noPatientProfile on every self route', async () => {
    for (const url of [
      '/health/me/dashboard',
      '/health/me/sleep',
      '/health/me/data?measure=HEART_RATE&view=week&date=2026-11-18',
    ]) {
      const response = await call(app, doctor, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(codeOf(response)).toBe('health.noPatientProfile');
    }
  });

  it('reports a week from hourly rollups and a month from daily ones, for the local period holding the date', async () => {
    // Noon UTC is the same calendar day in every zone within 12 hours of UTC.
    const monday = Date.parse('2026-11-16T12:00:00Z');
    const readings = [0, 1, 2].flatMap((day) =>
      [0, 10, 20].map((minute, index) =>
        reading('HEART_RATE', 60 + day * 10 + index, new Date(monday + day * DAY + minute * MINUTE)),
      ),
    );
    expect(answerOf(await postBatch(app, patient, batchOf(undefined, readings))).accepted).toBe(9);

    const week = await call(
      app,
      patient,
      'GET',
      '/health/me/data?measure=HEART_RATE&view=week&date=2026-11-18',
    );
    expect(week.statusCode, week.body).toBe(200);
    const weekly = dataOf(week) as {
      resolution: string;
      points: { value: number; min: number; max: number; count: number }[];
    };
    expect(weekly.resolution).toBe('hour');
    expect(weekly.points.map((point) => [point.min, point.max, point.count])).toEqual([
      [60, 62, 3],
      [70, 72, 3],
      [80, 82, 3],
      // The dashboard test's reading of the 20th, in the same week.
      [72, 72, 1],
    ]);

    const month = await call(
      app,
      patient,
      'GET',
      '/health/me/data?measure=HEART_RATE&view=month&date=2026-11-02',
    );
    const monthly = dataOf(month) as { resolution: string; points: { min: number; max: number }[] };
    expect(monthly.resolution).toBe('day');
    // The three days above plus the dashboard test's reading of the 20th.
    expect(monthly.points.map((point) => point.min)).toEqual([60, 70, 80, 72]);

    const future = await call(
      app,
      patient,
      'GET',
      '/health/me/data?measure=HEART_RATE&view=week&date=2027-01-04',
    );
    expect(future.statusCode).toBe(400);
    expect(codeOf(future)).toBe('health.invalidDateRange');
    expect(await readsOf('data:HEART_RATE:week')).toBe(1);
  });

  it('lists the patient’s nights, opens one and screens it for OSAHS from the night’s SpO2', async () => {
    const start = clock.now().getTime() - 9 * HOUR;
    const iso = (minutes: number) => new Date(start + minutes * MINUTE).toISOString();
    const sleep = {
      startAt: iso(0),
      endAt: iso(150),
      totalMinutes: 120,
      deepMinutes: 40,
      lightMinutes: 60,
      remMinutes: 20,
      wakeCount: 1,
      stages: [
        { stage: 'AWAKE', from: iso(0), to: iso(20) },
        { stage: 'LIGHT', from: iso(20), to: iso(80) },
        { stage: 'AWAKE', from: iso(80), to: iso(90) },
        { stage: 'DEEP', from: iso(90), to: iso(150) },
      ],
    };
    // One reading a minute from 99 %, every sixth one 95 %: 25 dips in the window, 4 more outside it.
    const spo2 = Array.from({ length: 180 }, (_, minute) =>
      reading('SPO2', minute % 6 === 3 ? 95 : 99, new Date(start + minute * MINUTE)),
    );
    const stored = answerOf(await postBatch(app, patient, batchOf(undefined, spo2, { sleep: [sleep] })));
    expect(stored.accepted).toBe(181);

    const list = await call(app, patient, 'GET', '/health/me/sleep?page=0&size=10');
    expect(list.statusCode, list.body).toBe(200);
    const [night] = (dataOf(list) as { items: { id: string; totalMinutes: number }[] }).items;
    expect(night?.totalMinutes).toBe(120);
    const id = night?.id ?? '';

    const detail = await call(app, patient, 'GET', `/health/me/sleep/${id}`);
    expect((dataOf(detail) as { stages: unknown[] }).stages).toHaveLength(4);

    const osahs = await call(app, patient, 'GET', `/health/me/sleep/${id}/osahs`);
    expect(osahs.statusCode, osahs.body).toBe(200);
    expect(dataOf(osahs)).toMatchObject({
      sleepId: id,
      samples: 150,
      dips: 25,
      odi: 12.5,
      severity: 'MILD',
      lowestSpo2: 95,
      sleepHours: 2,
    });
    expect(await readsOf(`osahs:${id}`)).toBe(1);

    // Another patient's night is not found, for its owner's own routes only.
    const other = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    await newPatient(testDb, org.tenant.id, org.centerA.id, { userId: other.id });
    const otherToken = await logInAs(app, org.tenant.code, other);
    for (const url of [`/health/me/sleep/${id}`, `/health/me/sleep/${id}/osahs`]) {
      const response = await call(app, otherToken, 'GET', url);
      expect(response.statusCode, url).toBe(404);
      expect(codeOf(response)).toBe('health.recordNotFound');
    }
    expect((dataOf(await call(app, otherToken, 'GET', '/health/me/sleep')) as { total: number }).total).toBe(
      0,
    );
  });
});
