import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
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
const clock = new ManualClock(new Date('2026-03-10T08:00:00Z'));
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

const at = () => new Date(clock.now().getTime() - 2 * MINUTE);

/**
 * Spec §9 reference ranges as default thresholds, at every bound: a value on a bound stays at the
 * milder level, one step beyond reaches the level. Patients born 1980-06-15 are 45 on the test
 * date: heart-rate SOS ceiling 205.8 − 0.685 × 45 = 175.0.
 */
const BOUNDARIES: [measure: string, value: number, expected: string][] = [
  ['SPO2', 94, 'NORMAL'],
  ['SPO2', 93.9, 'AT_RISK'],
  ['SPO2', 92, 'AT_RISK'],
  ['SPO2', 91.9, 'HIGH_RISK'],
  ['SPO2', 88, 'HIGH_RISK'],
  ['SPO2', 87.9, 'SOS'],
  ['HEART_RATE', 100, 'NORMAL'],
  ['HEART_RATE', 101, 'AT_RISK'],
  ['HEART_RATE', 120, 'AT_RISK'],
  ['HEART_RATE', 121, 'HIGH_RISK'],
  ['HEART_RATE', 175, 'HIGH_RISK'],
  ['HEART_RATE', 175.1, 'SOS'],
  ['HEART_RATE', 50, 'NORMAL'],
  ['HEART_RATE', 49, 'AT_RISK'],
  ['HEART_RATE', 40, 'AT_RISK'],
  ['HEART_RATE', 39, 'HIGH_RISK'],
  ['HEART_RATE', 30, 'HIGH_RISK'],
  ['HEART_RATE', 29, 'SOS'],
  ['SYSTOLIC', 129, 'NORMAL'],
  ['SYSTOLIC', 130, 'AT_RISK'],
  ['SYSTOLIC', 139, 'AT_RISK'],
  ['SYSTOLIC', 140, 'HIGH_RISK'],
  ['SYSTOLIC', 180, 'HIGH_RISK'],
  ['SYSTOLIC', 181, 'SOS'],
  ['SYSTOLIC', 90, 'NORMAL'],
  ['SYSTOLIC', 89, 'AT_RISK'],
  ['SYSTOLIC', 80, 'AT_RISK'],
  ['SYSTOLIC', 79, 'HIGH_RISK'],
  ['SYSTOLIC', 70, 'HIGH_RISK'],
  ['SYSTOLIC', 69, 'SOS'],
  ['DIASTOLIC', 79, 'NORMAL'],
  ['DIASTOLIC', 80, 'AT_RISK'],
  ['DIASTOLIC', 89, 'AT_RISK'],
  ['DIASTOLIC', 90, 'HIGH_RISK'],
  ['DIASTOLIC', 120, 'HIGH_RISK'],
  ['DIASTOLIC', 121, 'SOS'],
  ['DIASTOLIC', 60, 'NORMAL'],
  ['DIASTOLIC', 59, 'AT_RISK'],
  ['DIASTOLIC', 50, 'AT_RISK'],
  ['DIASTOLIC', 49, 'HIGH_RISK'],
  ['DIASTOLIC', 40, 'HIGH_RISK'],
  ['DIASTOLIC', 39, 'SOS'],
  ['TEMPERATURE', 37.5, 'NORMAL'],
  ['TEMPERATURE', 37.6, 'AT_RISK'],
  ['TEMPERATURE', 38.5, 'AT_RISK'],
  ['TEMPERATURE', 38.6, 'HIGH_RISK'],
  ['TEMPERATURE', 40, 'HIGH_RISK'],
  ['TEMPERATURE', 40.1, 'SOS'],
  ['TEMPERATURE', 35.5, 'NORMAL'],
  ['TEMPERATURE', 35.4, 'AT_RISK'],
  ['TEMPERATURE', 35, 'AT_RISK'],
  ['TEMPERATURE', 34.9, 'HIGH_RISK'],
  ['TEMPERATURE', 34, 'HIGH_RISK'],
  ['TEMPERATURE', 33.9, 'SOS'],
  ['GLUCOSE', 180, 'NORMAL'],
  ['GLUCOSE', 181, 'AT_RISK'],
  ['GLUCOSE', 250, 'AT_RISK'],
  ['GLUCOSE', 251, 'HIGH_RISK'],
  ['GLUCOSE', 300, 'HIGH_RISK'],
  ['GLUCOSE', 301, 'SOS'],
  ['GLUCOSE', 70, 'NORMAL'],
  ['GLUCOSE', 69, 'AT_RISK'],
  ['GLUCOSE', 54, 'AT_RISK'],
  ['GLUCOSE', 53, 'HIGH_RISK'],
  ['GLUCOSE', 40, 'HIGH_RISK'],
  ['GLUCOSE', 39, 'SOS'],
  ['HRV', 20, 'NORMAL'],
  ['HRV', 19, 'AT_RISK'],
  ['HRV', 15, 'AT_RISK'],
  ['HRV', 14, 'HIGH_RISK'],
];

describe('the status engine on the ingestion path', () => {
  it.each(BOUNDARIES)('%s %d sets the status to %s', async (measure, value, expected) => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const response = await postBatch(app, doctor, batchOf(patient.id, [reading(measure, value, at())]));
    expect(response.statusCode, response.body).toBe(200);
    expect(answerOf(response).status).toBe(expected);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe(expected);
    const history = await asOwner<{ from_status: string; to_status: string; reason: string }>(
      testDb.ownerUrl,
      'SELECT from_status, to_status, reason FROM patient_status_changes WHERE patient_id = $1',
      [patient.id],
    );
    expect(history).toEqual(
      expected === 'NORMAL'
        ? []
        : [{ from_status: 'NORMAL', to_status: expected, reason: `automatic: ${measure} ${value}` }],
    );
  });

  it('rises at once; a milder reading within the come-down window leaves the status (docs/status-lifecycle.md), a worse one raises it, with a live event each time', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await postBatch(app, doctor, batchOf(patient.id, [reading('SPO2', 91, at())]));
    await postBatch(app, doctor, batchOf(patient.id, [reading('SPO2', 93, new Date(at().getTime() + 1000))]));
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [
        reading('SPO2', 97, new Date(at().getTime() + 2000)),
        reading('HEART_RATE', 190, new Date(at().getTime() + 2000)),
      ]),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
    const events = await asOwner<{ payload: { from: string; to: string } }>(
      testDb.ownerUrl,
      `SELECT payload FROM events WHERE patient_id = $1 AND type = 'patient.statusChanged' ORDER BY id`,
      [patient.id],
    );
    expect(events.map((event) => `${event.payload.from}>${event.payload.to}`)).toEqual([
      'NORMAL>HIGH_RISK',
      'HIGH_RISK>SOS',
    ]);
  });

  it('"I am fine" holds while values are abnormal and clears when a batch evaluates all NORMAL (the episode ends; the status waits for its window)', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await asOwner(
      testDb.ownerUrl,
      'UPDATE patients SET alerts_suppressed_until_normal = true WHERE id = $1',
      [patient.id],
    );
    await postBatch(app, doctor, batchOf(patient.id, [reading('HEART_RATE', 125, at())]));
    expect(await patientRow(testDb.ownerUrl, patient.id)).toMatchObject({
      status: 'HIGH_RISK',
      alerts_suppressed_until_normal: true,
    });
    // Steps are not judged: no evaluation, the suppression stays.
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [reading('STEPS', 100, new Date(at().getTime() + 1000))]),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).alerts_suppressed_until_normal).toBe(true);
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [
        reading('HEART_RATE', 72, new Date(at().getTime() + 2000)),
        reading('SPO2', 98, new Date(at().getTime() + 2000)),
      ]),
    );
    expect(await patientRow(testDb.ownerUrl, patient.id)).toMatchObject({
      status: 'HIGH_RISK',
      alerts_suppressed_until_normal: false,
    });
    const [episode] = await asOwner<{ level: string }>(
      testDb.ownerUrl,
      'SELECT alert_episode_level AS level FROM patients WHERE id = $1',
      [patient.id],
    );
    expect(episode?.level).toBe('NORMAL');
  });

  it.each(['FALL', 'SOS_BUTTON'])('a %s event raises SOS directly, once per event', async (type) => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const event = { type, at: at().toISOString(), location: { lat: 10.77, lng: 106.7 } };
    const first = await postBatch(app, doctor, batchOf(patient.id, [], { events: [event] }));
    expect(answerOf(first)).toMatchObject({ accepted: 1, status: 'SOS' });
    const again = await postBatch(app, doctor, batchOf(patient.id, [], { events: [event] }));
    expect(answerOf(again)).toMatchObject({ accepted: 0, duplicates: 1 });
    const [stored] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM health_events WHERE patient_id = $1',
      [patient.id],
    );
    expect(stored?.n).toBe(1);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
  });

  it('a second SOS press while in SOS is not lost: it joins the open case', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const press = (minutesAgo: number) => ({
      type: 'SOS_BUTTON',
      at: new Date(at().getTime() - minutesAgo * 60_000).toISOString(),
    });
    await postBatch(app, doctor, batchOf(patient.id, [], { events: [press(2)] }));
    const second = await postBatch(app, doctor, batchOf(patient.id, [], { events: [press(1)] }));
    expect(answerOf(second)).toMatchObject({ accepted: 1, status: 'SOS' });
    const cases = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      'SELECT id FROM sos_cases WHERE patient_id = $1',
      [patient.id],
    );
    expect(cases).toHaveLength(1);
    const repeated = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM sos_case_actions WHERE patient_id = $1 AND kind = 'SOS_REPEATED'`,
      [patient.id],
    );
    expect(repeated[0]?.n).toBe(1);
  });

  it('an SOS press carries the patient’s latest vitals of the day into the case', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const earlier = new Date(at().getTime() - 10 * 60_000);
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [reading('HEART_RATE', 72, earlier), reading('SPO2', 97, earlier)]),
    );
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [], { events: [{ type: 'SOS_BUTTON', at: at().toISOString() }] }),
    );
    const [sos] = await asOwner<{ vitals: { measure: string; value: number }[] }>(
      testDb.ownerUrl,
      'SELECT vitals FROM sos_cases WHERE patient_id = $1',
      [patient.id],
    );
    expect(sos?.vitals.map((vital) => [vital.measure, vital.value]).sort()).toEqual([
      ['HEART_RATE', 72],
      ['SPO2', 97],
    ]);
  });

  it('caps a sub-user at HIGH_RISK for SOS readings, falls and hotline calls (spec §6)', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id, {
      accountKind: 'SUB_USER',
      holderUserId: org.patientUser.id,
    });
    await postBatch(
      app,
      doctor,
      batchOf(patient.id, [reading('SPO2', 80, at())], {
        events: [{ type: 'FALL', at: at().toISOString() }],
      }),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    const hotline = await call(app, doctor, 'POST', '/health/sos/hotline', { patientId: patient.id });
    expect(hotline.json<{ data: { status: string } }>().data.status).toBe('HIGH_RISK');
  });

  it('a hotline call raises SOS for a visible patient and is audited; another center’s patient is not found', async () => {
    const operator = await logInAs(app, org.tenant.code, org.operatorA);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const response = await call(app, operator, 'POST', '/health/sos/hotline', {
      patientId: patient.id,
      note: 'Caller says he fell',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
    const audit = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      'SELECT action FROM audit_log WHERE target_id = $1',
      [patient.id],
    );
    expect(audit.map((row) => row.action)).toContain('SOS_HOTLINE_CALL');
    const other = await call(app, operator, 'POST', '/health/sos/hotline', { patientId: org.patientB.id });
    expect(other.statusCode).toBe(404);
    expect((await patientRow(testDb.ownerUrl, org.patientB.id)).status).toBe('NORMAL');
  });
});
