import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { ManualClock, MINUTE, HOUR } from '../../lib/clock.js';
import {
  answerOf,
  batchOf,
  call,
  logInAs,
  newPatient,
  patientRow,
  postBatch,
  reading,
  setTenantSettings,
  storedReadings,
  vitalsOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const minutesAgo = (minutes: number) => new Date(clock.now().getTime() - minutes * MINUTE);

describe('POST /collector/readings', () => {
  it('stores a batch sent three times once, rollups counted once, and answers retries with the first answer', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const at = minutesAgo(30);
    const batch = batchOf(patient.id, [
      reading('HEART_RATE', 70, at),
      reading('HEART_RATE', 80, new Date(at.getTime() + MINUTE)),
      reading('STEPS', 1200, at),
      {
        measure: 'BLOOD_PRESSURE',
        systolic: 118,
        diastolic: 76,
        measuredAt: at.toISOString(),
        source: 'WIRELESS_DEVICE',
      },
    ]);
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await postBatch(app, token, batch);
      expect(response.statusCode, response.body).toBe(200);
      answers.push(answerOf(response));
    }
    expect(answers[0]).toMatchObject({
      accepted: 4,
      duplicates: 0,
      rejected: 0,
      status: 'NORMAL',
      replayed: false,
    });
    expect(answers[1]).toMatchObject({ accepted: 4, replayed: true });
    expect(answers[2]).toMatchObject({ accepted: 4, replayed: true });
    expect(await storedReadings(testDb.ownerUrl, patient.id)).toHaveLength(5);
    const hourly = await asOwner<{
      measure: string;
      count: number;
      sum: number;
      min: number;
      max: number;
      last_value: number;
    }>(
      testDb.ownerUrl,
      `SELECT measure, count, sum, min, max, last_value FROM readings_hourly WHERE patient_id = $1 AND measure = 'HEART_RATE'`,
      [patient.id],
    );
    const heartRateRows = hourly.reduce((total, row) => total + row.count, 0);
    expect(heartRateRows).toBe(2);
    const daily = await asOwner<{ count: number; sum: number }>(
      testDb.ownerUrl,
      `SELECT sum(count)::int AS count, sum(sum) AS sum FROM readings_daily WHERE patient_id = $1 AND measure = 'HEART_RATE'`,
      [patient.id],
    );
    expect(daily[0]).toEqual({ count: 2, sum: 150 });

    // The same readings in a new batch: stored nothing more, reported as duplicates.
    const again = answerOf(await postBatch(app, token, { ...batch, batchId: crypto.randomUUID() }));
    expect(again).toMatchObject({ accepted: 0, duplicates: 4, replayed: false });
    expect(await storedReadings(testDb.ownerUrl, patient.id)).toHaveLength(5);
    const [dailyAfter] = await asOwner<{ count: number }>(
      testDb.ownerUrl,
      `SELECT sum(count)::int AS count FROM readings_daily WHERE patient_id = $1`,
      [patient.id],
    );
    expect(dailyAfter?.count).toBe(5);

    // One audit row a delivery that did work (none for the replays), with the stored answer's figures.
    const audits = await asOwner<{ details: Record<string, unknown>; actor_user_id: string; subject_user_id: string }>(
      testDb.ownerUrl,
      `SELECT details, actor_user_id, subject_user_id FROM audit_log WHERE target_id = $1 AND action = 'HEALTH_DATA_RECEIVED' ORDER BY id`,
      [patient.id],
    );
    expect(audits.map((row) => row.details)).toEqual([
      { batchId: batch.batchId, accepted: 4, duplicates: 0, rejected: 0 },
      { batchId: audits[1]?.details.batchId, accepted: 0, duplicates: 4, rejected: 0 },
    ]);
    expect(audits[1]?.details.batchId).not.toBe(batch.batchId);
    expect(audits[0]).toMatchObject({ actor_user_id: org.doctorA.id, subject_user_id: patient.userId });
    const [kept] = await asOwner<{ response: { accepted: number; replayed: boolean } }>(
      testDb.ownerUrl,
      'SELECT response FROM ingest_batches WHERE batch_id = $1',
      [batch.batchId],
    );
    expect(kept?.response).toMatchObject({ accepted: 4, duplicates: 0, replayed: false });
  });

  it('reports every invalid item with its index and code and stores the valid ones (spec §5 for manual entries)', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const at = minutesAgo(10);
    const items = [
      reading('SPO2', 87, at, 'MANUAL'), // 0: below 88
      reading('SPO2', 88, at, 'MANUAL'), // 1: not above 88 (spec §5 "above 88 and below 100")
      reading('GLUCOSE', 300, at, 'MANUAL'), // 2: not below 300
      reading('HEART_RATE', 30, at, 'MANUAL'), // 3: not above 30
      reading('WEIGHT', 700, at, 'MANUAL'), // 4: not below 700
      reading('TEMPERATURE', 45, at, 'MANUAL'), // 5: not below 45
      {
        measure: 'BLOOD_PRESSURE',
        systolic: 130,
        diastolic: 115,
        measuredAt: at.toISOString(),
        source: 'MANUAL',
      }, // 6: pulse pressure
      reading('HEART_RATE', 72, new Date(clock.now().getTime() + 6 * MINUTE)), // 7: future
      { measure: 'HEART_RATE', measuredAt: at.toISOString(), source: 'WIRELESS_DEVICE' }, // 8: no value
      reading('HEART_RATE', 299, new Date(at.getTime() + 1000), 'MANUAL'), // 9: accepted
      {
        measure: 'BLOOD_PRESSURE',
        systolic: 120,
        diastolic: 100,
        measuredAt: at.toISOString(),
        source: 'MANUAL',
      }, // 10: accepted (exactly 20)
      reading('HEART_RATE', 72, new Date(clock.now().getTime() + 4 * MINUTE)), // 11: within the 5-minute skew
      reading('SPO2', 100, new Date(at.getTime() + 2000), 'MANUAL'), // 12: not below 100
      reading('SPO2', 88.1, new Date(at.getTime() + 3000), 'MANUAL'), // 13: accepted
      reading('SPO2', 99.9, new Date(at.getTime() + 4000), 'MANUAL'), // 14: accepted
    ];
    const response = await postBatch(app, token, batchOf(patient.id, items));
    expect(response.statusCode, response.body).toBe(200);
    const answer = answerOf(response);
    expect(answer.problems).toEqual([
      { kind: 'readings', index: 0, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 1, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 2, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 3, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 4, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 5, code: 'health.valueOutOfRange', field: 'value' },
      { kind: 'readings', index: 6, code: 'health.pulsePressure', field: 'systolic' },
      { kind: 'readings', index: 7, code: 'health.futureDate', field: 'measuredAt' },
      { kind: 'readings', index: 8, code: 'health.valueRequired', field: 'value' },
      { kind: 'readings', index: 12, code: 'health.valueOutOfRange', field: 'value' },
    ]);
    expect(answer).toMatchObject({ accepted: 5, rejected: 10 });
    const stored = await storedReadings(testDb.ownerUrl, patient.id);
    expect(stored.map((row) => `${row.measure}=${row.value}`).sort()).toEqual([
      'DIASTOLIC=100',
      'HEART_RATE=299',
      'HEART_RATE=72',
      'SPO2=88.1',
      'SPO2=99.9',
      'SYSTOLIC=120',
    ]);
  });

  it('converts values from the tenant units on the way in and back on the way out', async () => {
    const org = await vitalsOrganisation(testDb);
    await setTenantSettings(testDb, org.tenant.id, {
      THERMAL_UNIT: 'F',
      BLOOD_GLUCOSE_UNIT: 'mmol/L',
      UNIT_SYSTEM: 'imperial',
    });
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const at = minutesAgo(5);
    const response = await postBatch(
      app,
      token,
      batchOf(patient.id, [
        reading('TEMPERATURE', 98.6, at),
        reading('GLUCOSE', 5.5, at),
        reading('WEIGHT', 154.32, at, 'MANUAL'),
      ]),
    );
    expect(answerOf(response)).toMatchObject({ accepted: 3, rejected: 0 });
    const stored = new Map(
      (await storedReadings(testDb.ownerUrl, patient.id)).map((row) => [row.measure, row.value]),
    );
    expect(stored.get('TEMPERATURE')).toBeCloseTo(37, 6);
    expect(stored.get('GLUCOSE')).toBeCloseTo(5.5 * 18.016, 6);
    expect(stored.get('WEIGHT')).toBeCloseTo(70, 2);

    const from = new Date(at.getTime() - HOUR).toISOString();
    const to = new Date(at.getTime() + HOUR).toISOString();
    const series = await call(
      app,
      token,
      'GET',
      `/health/patients/${patient.id}/data?measure=TEMPERATURE&view=day&from=${from}&to=${to}`,
    );
    expect(series.statusCode, series.body).toBe(200);
    expect(series.json<{ data: { unit: string; points: { value: number }[] } }>().data).toMatchObject({
      unit: 'F',
      points: [{ value: 98.6 }],
    });
    const latest = await call(app, token, 'GET', `/health/patients/${patient.id}/latest`);
    const values = new Map(
      latest
        .json<{ data: { readings: { measure: string; value: number; unit: string }[] } }>()
        .data.readings.map((row) => [row.measure, row]),
    );
    expect(values.get('GLUCOSE')).toMatchObject({ value: 5.5, unit: 'mmol/L' });
    expect(values.get('WEIGHT')).toMatchObject({ value: 154.32, unit: 'lbs' });
  });

  it('takes a patient’s own batch without patientId, stores records and events, and keeps device sync state', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.patientUser);
    const [device] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, gen_random_uuid(), 'V19', 'S-1', 'AA:BB:CC:DD:EE:01', $2) RETURNING id`,
      [org.tenant.id, org.patientA.id],
    );
    const at = minutesAgo(60);
    const body = batchOf(undefined, [reading('SPO2', 97, at)], {
      deviceId: device?.id,
      ecg: [
        {
          measuredAt: at.toISOString(),
          durationSeconds: 1,
          sampleRate: 100,
          samples: Array.from({ length: 100 }, (_, index) => Math.sin(index / 10)),
          averageHeartRate: 72,
          hrv: 40,
          qt: 400,
          respirationRate: 14,
        },
      ],
      sleep: [
        {
          startAt: minutesAgo(600).toISOString(),
          endAt: minutesAgo(120).toISOString(),
          totalMinutes: 420,
          deepMinutes: 80,
          lightMinutes: 240,
          remMinutes: 100,
          wakeCount: 1,
          stages: [
            { stage: 'LIGHT', from: minutesAgo(600).toISOString(), to: minutesAgo(500).toISOString() },
          ],
        },
      ],
      sport: [
        {
          sport: 'RUN',
          startAt: minutesAgo(200).toISOString(),
          practiceSeconds: 1800,
          steps: 4000,
          calories: 300,
        },
      ],
    });
    const response = await postBatch(app, token, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(answerOf(response)).toMatchObject({ accepted: 4, rejected: 0, status: 'NORMAL' });
    const [stored] = await asOwner<{ app_status: string; last_synced_at: Date | null }>(
      testDb.ownerUrl,
      'SELECT app_status, last_synced_at FROM devices WHERE id = $1',
      [device?.id],
    );
    expect(stored?.app_status).toBe('ONLINE');
    expect(stored?.last_synced_at?.getTime()).toBe(clock.now().getTime());
    expect((await patientRow(testDb.ownerUrl, org.patientA.id)).last_reading_at?.getTime()).toBe(
      at.getTime(),
    );

    const ecgList = await call(app, token, 'GET', `/health/patients/${org.patientA.id}/ecg`);
    const ecgId = ecgList.json<{ data: { items: { id: string }[] } }>().data.items[0]?.id;
    const ecg = await call(app, token, 'GET', `/health/patients/${org.patientA.id}/ecg/${ecgId ?? ''}`);
    expect(ecg.statusCode, ecg.body).toBe(200);
    const samples = ecg.json<{ data: { samples: number[]; averageHeartRate: number } }>().data;
    expect(samples.samples).toHaveLength(100);
    expect(samples.samples[10]).toBeCloseTo(Math.sin(1), 4);
    const sleep = await call(app, token, 'GET', `/health/patients/${org.patientA.id}/sleep`);
    expect(sleep.json<{ data: { total: number } }>().data.total).toBe(1);
    const sport = await call(app, token, 'GET', `/health/patients/${org.patientA.id}/sport`);
    expect(sport.json<{ data: { items: { sport: string; steps: number }[] } }>().data.items).toMatchObject([
      { sport: 'RUN', steps: 4000 },
    ]);

    // The app's home reads its own latest values without knowing its patient id; staff cannot.
    const own = await call(app, token, 'GET', '/health/me/latest');
    expect(own.statusCode, own.body).toBe(200);
    expect(
      own.json<{ data: { readings: { measure: string; value: number }[] } }>().data.readings,
    ).toContainEqual(expect.objectContaining({ measure: 'SPO2', value: 97 }));
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    expect((await call(app, doctor, 'GET', '/health/me/latest')).json<{ code: string }>().code).toBe(
      'health.noPatientProfile',
    );

    // The patient reaches only their own record.
    expect(
      (await call(app, token, 'GET', `/health/patients/${org.patientB.id}/latest`)).json<{ code: string }>()
        .code,
    ).toBe('patient.notFound');
    expect(
      (await postBatch(app, token, batchOf(org.patientB.id, [reading('SPO2', 97, at)]))).json<{
        code: string;
      }>().code,
    ).toBe('patient.notFound');
  });

  it('refuses staff without health.update, other centers’ and other tenants’ patients, storing nothing', async () => {
    const org = await vitalsOrganisation(testDb);
    const other = await createTenant(testDb.database);
    const otherAdmin = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const at = minutesAgo(5);
    const operator = await logInAs(app, org.tenant.code, org.operatorA);
    const denied = await postBatch(app, operator, batchOf(org.patientA.id, [reading('SPO2', 97, at)]));
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ code: string }>().code).toBe('auth.permissionDenied');
    const doctorB = await logInAs(app, org.tenant.code, org.doctorB);
    const otherCenter = await postBatch(app, doctorB, batchOf(org.patientA.id, [reading('SPO2', 97, at)]));
    expect(otherCenter.statusCode).toBe(404);
    expect(otherCenter.json<{ code: string }>().code).toBe('patient.notFound');
    const otherTenant = await postBatch(
      app,
      await logInAs(app, other.code, otherAdmin),
      batchOf(org.patientA.id, [reading('SPO2', 97, at)]),
    );
    expect(otherTenant.json<{ code: string }>().code).toBe('patient.notFound');
    expect((await call(app, doctorB, 'GET', `/health/patients/${org.patientA.id}/latest`)).statusCode).toBe(
      404,
    );
    expect(await storedReadings(testDb.ownerUrl, org.patientA.id)).toEqual([]);
  });

  it('POST /health/manual refuses a bad entry as a whole with its code, and stores a good one', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const at = minutesAgo(1).toISOString();
    const bad = await call(app, token, 'POST', '/health/manual', {
      patientId: org.patientA.id,
      measure: 'BLOOD_PRESSURE',
      systolic: 120,
      diastolic: 101,
      measuredAt: at,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ code: string; fieldErrors: { field: string }[] }>()).toMatchObject({
      code: 'health.pulsePressure',
      fieldErrors: [{ field: 'body.systolic' }],
    });
    const future = await call(app, token, 'POST', '/health/manual', {
      patientId: org.patientA.id,
      measure: 'SPO2',
      value: 97,
      measuredAt: new Date(clock.now().getTime() + HOUR).toISOString(),
    });
    expect(future.json<{ code: string }>().code).toBe('health.futureDate');
    expect(await storedReadings(testDb.ownerUrl, org.patientA.id)).toEqual([]);
    const good = await call(app, token, 'POST', '/health/manual', {
      patientId: org.patientA.id,
      measure: 'SPO2',
      value: 97,
      measuredAt: at,
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(await storedReadings(testDb.ownerUrl, org.patientA.id)).toMatchObject([
      { measure: 'SPO2', value: 97, source: 'MANUAL' },
    ]);
    const audit = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE target_id = $1`,
      [org.patientA.id],
    );
    expect(audit.map((row) => row.action)).toContain('HEALTH_MANUAL_ENTRY');
  });
});
