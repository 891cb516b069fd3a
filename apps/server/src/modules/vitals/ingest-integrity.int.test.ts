/**
 * Ingestion integrity (issue 11 items 12, 13, 14): reused batch ids, late and impossible dates,
 * and the units of the person entering.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
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

const ago = (milliseconds: number) => new Date(clock.now().getTime() - milliseconds);

/** Everything the alerting side could have done for a patient. */
async function alertingTraces(patientId: string) {
  const count = async (query: string) =>
    Number((await asOwner<{ n: string }>(testDb.ownerUrl, query, [patientId]))[0]?.n ?? 0);
  return {
    alerts: await count('SELECT count(*) AS n FROM alerts WHERE patient_id = $1'),
    cases: await count('SELECT count(*) AS n FROM sos_cases WHERE patient_id = $1'),
    tickets: await count('SELECT count(*) AS n FROM tickets WHERE patient_id = $1'),
    messages: await count('SELECT count(*) AS n FROM patient_messages WHERE patient_id = $1'),
    statusChanges: await count('SELECT count(*) AS n FROM patient_status_changes WHERE patient_id = $1'),
    jobs: await count(
      `SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE payload::text LIKE '%' || $1 || '%' OR key LIKE '%' || $1 || '%'`,
    ),
  };
}
const NOTHING = { alerts: 0, cases: 0, tickets: 0, messages: 0, statusChanges: 0, jobs: 0 };

describe('a reused batch id', () => {
  it('replays the first answer for the same content (however its instants are spelled), and refuses other content with 409 storing nothing', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const at = ago(10 * MINUTE);
    const first = batchOf(patient.id, [reading('HEART_RATE', 70, at)]);
    const answer = await postBatch(app, token, first);
    expect(answerOf(answer)).toMatchObject({ accepted: 1, replayed: false });

    // The same content: same instant written with an offset, defaults spelled out.
    const local = new Date(at.getTime() + 7 * HOUR).toISOString().replace('Z', '+07:00');
    const same = {
      ...first,
      readings: [{ measure: 'HEART_RATE', value: 70, measuredAt: local, source: 'WIRELESS_DEVICE' }],
      ecg: [],
      events: [],
    };
    const replay = await postBatch(app, token, same);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(answerOf(replay)).toEqual({ ...answerOf(answer), replayed: true });

    // Other readings under the same id: refused whole, and none of them stored.
    const other = { ...first, readings: [reading('HEART_RATE', 71, ago(5 * MINUTE)), reading('SPO2', 97, at)] };
    const reused = await postBatch(app, token, other);
    expect(reused.statusCode, reused.body).toBe(409);
    expect(reused.json<{ code: string }>().code).toBe('health.batchReused');
    expect((await storedReadings(testDb.ownerUrl, patient.id)).map((row) => `${row.measure}=${row.value}`)).toEqual([
      'HEART_RATE=70',
    ]);

    // Re-sent under a new id, they are stored.
    const resent = await postBatch(app, token, { ...other, batchId: crypto.randomUUID() });
    expect(answerOf(resent)).toMatchObject({ accepted: 2, replayed: false });
  });
});

describe('late and impossible dates', () => {
  it('stores a heart rate of 250 dated 30 days ago, sent after a current normal reading, as late: no status change, alert, case or job', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id, {
      createdAt: ago(90 * DAY),
    });
    const current = await postBatch(app, token, batchOf(patient.id, [reading('HEART_RATE', 72, ago(MINUTE))]));
    expect(answerOf(current)).toMatchObject({ accepted: 1, status: 'NORMAL', late: 0 });

    const oldAt = ago(30 * DAY);
    const old = await postBatch(app, token, batchOf(patient.id, [reading('HEART_RATE', 250, oldAt)]));
    expect(old.statusCode, old.body).toBe(200);
    expect(answerOf(old)).toMatchObject({ accepted: 1, rejected: 0, late: 1, status: 'NORMAL' });
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect(await alertingTraces(patient.id)).toEqual(NOTHING);

    // Stored and shown, marked late.
    const series = await call(
      app,
      token,
      'GET',
      `/health/patients/${patient.id}/data?measure=HEART_RATE&view=day&from=${new Date(oldAt.getTime() - HOUR).toISOString()}&to=${new Date(oldAt.getTime() + HOUR).toISOString()}`,
    );
    expect(series.statusCode, series.body).toBe(200);
    expect(series.json<{ data: { points: unknown[] } }>().data.points).toMatchObject([
      { value: 250, late: true, source: 'WIRELESS_DEVICE' },
    ]);

    // A late fall is stored and raises nothing either.
    const fall = await postBatch(
      app,
      token,
      batchOf(patient.id, [], { events: [{ type: 'FALL', at: ago(3 * HOUR).toISOString() }] }),
    );
    expect(answerOf(fall)).toMatchObject({ accepted: 1, status: 'NORMAL' });
    expect(await alertingTraces(patient.id)).toEqual(NOTHING);
  });

  it('moves the latest-reading time for a batch of late readings only, and never back', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id, { createdAt: ago(90 * DAY) });
    const lastReadingAt = async () => (await patientRow(testDb.ownerUrl, patient.id)).last_reading_at?.getTime();
    const tenDaysAgo = ago(10 * DAY);
    const late = await postBatch(app, token, batchOf(patient.id, [reading('HEART_RATE', 70, tenDaysAgo)]));
    expect(answerOf(late)).toMatchObject({ accepted: 1, late: 1, status: 'NORMAL' });
    expect(await lastReadingAt()).toBe(tenDaysAgo.getTime());
    const older = await postBatch(app, token, batchOf(patient.id, [reading('HEART_RATE', 71, ago(20 * DAY))]));
    expect(answerOf(older)).toMatchObject({ accepted: 1, late: 1 });
    expect(await lastReadingAt()).toBe(tenDaysAgo.getTime());
  });

  it('moves the latest-reading time with a status change and without one, never back', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const row = async () => {
      const stored = await patientRow(testDb.ownerUrl, patient.id);
      return { status: stored.status, at: stored.last_reading_at?.getTime() };
    };
    const post = async (value: number, at: Date) => answerOf(await postBatch(app, token, batchOf(patient.id, [reading('HEART_RATE', value, at)])));
    // The first reading: the time is set where there was none.
    expect(await post(70, ago(30 * MINUTE))).toMatchObject({ accepted: 1, status: 'NORMAL' });
    expect(await row()).toEqual({ status: 'NORMAL', at: ago(30 * MINUTE).getTime() });
    // A change of status writes the row, and the time moves in that write.
    expect(await post(220, ago(20 * MINUTE))).toMatchObject({ accepted: 1, status: 'SOS' });
    expect(await row()).toEqual({ status: 'SOS', at: ago(20 * MINUTE).getTime() });
    // An earlier reading, judged (not late) and written to the row's evidence: the time stays.
    expect(await post(225, ago(25 * MINUTE))).toMatchObject({ accepted: 1, late: 0 });
    expect((await row()).at).toBe(ago(20 * MINUTE).getTime());
    // A later normal one: no change of status, the time moves.
    expect(await post(72, ago(10 * MINUTE))).toMatchObject({ accepted: 1, status: 'SOS' });
    expect((await row()).at).toBe(ago(10 * MINUTE).getTime());
  });

  it('follows the tenant’s horizon (LATE_DATA_HORIZON_MINUTES), default 2 hours', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    // 90 minutes old: within the default 2 hours, judged.
    const judged = await postBatch(app, token, batchOf(patient.id, [reading('SPO2', 93, ago(90 * MINUTE))]));
    expect(answerOf(judged)).toMatchObject({ late: 0, status: 'AT_RISK' });

    await setTenantSettings(testDb, org.tenant.id, { LATE_DATA_HORIZON_MINUTES: '30' });
    const other = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const late = await postBatch(app, token, batchOf(other.id, [reading('SPO2', 93, ago(45 * MINUTE))]));
    expect(answerOf(late)).toMatchObject({ late: 1, status: 'NORMAL' });
    const fresh = await postBatch(app, token, batchOf(other.id, [reading('SPO2', 93, ago(20 * MINUTE))]));
    expect(answerOf(fresh)).toMatchObject({ late: 0, status: 'AT_RISK' });
  });

  it('refuses items dated before the account, before the device was bound, or more than a year ago, per item', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id, { createdAt: ago(10 * DAY) });
    const [device] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, bound_at)
       VALUES ($1, gen_random_uuid(), 'V19', 'S-late', 'AA:BB:CC:DD:EE:31', $2, $3) RETURNING id`,
      [org.tenant.id, patient.id, ago(DAY)],
    );
    const response = await postBatch(
      app,
      token,
      batchOf(
        patient.id,
        [
          reading('HEART_RATE', 70, ago(30 * DAY)), // 0: before the account
          reading('HEART_RATE', 70, ago(2 * DAY)), // 1: before the device was bound
          reading('HEART_RATE', 70, ago(2 * DAY), 'MANUAL'), // 2: typed in: only the account counts
          reading('HEART_RATE', 70, new Date('1900-01-01T00:00:00Z'), 'MANUAL'), // 3: too old
          reading('HEART_RATE', 70, ago(400 * DAY)), // 4: too old
          reading('HEART_RATE', 71, ago(HOUR)), // 5: fine
        ],
        {
          deviceId: device?.id,
          events: [{ type: 'SOS_BUTTON', at: ago(2 * DAY).toISOString() }],
        },
      ),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(answerOf(response).problems).toEqual([
      { kind: 'readings', index: 0, code: 'health.beforeMonitoring', field: 'measuredAt' },
      { kind: 'readings', index: 1, code: 'health.beforeMonitoring', field: 'measuredAt' },
      { kind: 'readings', index: 3, code: 'health.tooOld', field: 'measuredAt' },
      { kind: 'readings', index: 4, code: 'health.tooOld', field: 'measuredAt' },
      { kind: 'events', index: 0, code: 'health.beforeMonitoring', field: 'at' },
    ]);
    expect(answerOf(response)).toMatchObject({ accepted: 2, rejected: 5, late: 1 });
    expect(await alertingTraces(patient.id)).toEqual(NOTHING);
  });

  it('POST /health/manual refuses an entry dated 1900-01-01 (health.tooOld), storing nothing', async () => {
    const org = await vitalsOrganisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const response = await call(app, token, 'POST', '/health/manual', {
      patientId: patient.id,
      measure: 'HEART_RATE',
      value: 72,
      measuredAt: '1900-01-01T00:00:00Z',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ code: string; fieldErrors: { field: string }[] }>()).toMatchObject({
      code: 'health.tooOld',
      fieldErrors: [{ field: 'body.measuredAt' }],
    });
    expect(await storedReadings(testDb.ownerUrl, patient.id)).toEqual([]);
  });
});

describe('units of the person entering', () => {
  it('reads a patient’s manual and photo entries in the patient’s own units (°F) and says so; devices stay in the tenant’s', async () => {
    const org = await vitalsOrganisation(testDb); // tenant units: °C
    await asOwner(testDb.ownerUrl, `UPDATE users SET thermal_unit = 'F' WHERE id = $1`, [org.patientUser.id]);
    const token = await logInAs(app, org.tenant.code, org.patientUser);

    const manual = await call(app, token, 'POST', '/health/manual', {
      measure: 'TEMPERATURE',
      value: 98.6,
      measuredAt: ago(MINUTE).toISOString(),
    });
    expect(manual.statusCode, manual.body).toBe(200);
    expect(manual.json<{ data: unknown }>().data).toMatchObject({
      stored: true,
      late: false,
      unit: 'F',
      units: { thermalUnit: 'F', unitSystem: 'metric', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: 'umol/L' },
    });

    const batch = await postBatch(
      app,
      token,
      batchOf(undefined, [
        reading('TEMPERATURE', 99.5, ago(2 * MINUTE), 'PHOTO_OCR'),
        reading('TEMPERATURE', 36.6, ago(3 * MINUTE)),
      ]),
    );
    expect(answerOf(batch)).toMatchObject({
      accepted: 2,
      rejected: 0,
      units: { entered: { thermalUnit: 'F' }, device: { thermalUnit: 'C' } },
    });
    const stored = (await storedReadings(testDb.ownerUrl, org.patientA.id)).map((row) => [row.source, row.value]);
    expect(stored).toHaveLength(3);
    const bySource = new Map(stored as [string, number][]);
    expect(bySource.get('MANUAL')).toBeCloseTo(37, 9);
    expect(bySource.get('PHOTO_OCR')).toBeCloseTo(37.5, 9);
    expect(bySource.get('WIRELESS_DEVICE')).toBe(36.6);

    // Staff without their own choice enter in the tenant's units: 98.6 °C is refused.
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const refused = await call(app, doctor, 'POST', '/health/manual', {
      patientId: org.patientA.id,
      measure: 'TEMPERATURE',
      value: 98.6,
      measuredAt: ago(4 * MINUTE).toISOString(),
    });
    expect(refused.json<{ code: string }>().code).toBe('health.valueOutOfRange');
  });
});
