import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { runDueJobsOf } from '../../../test/jobs.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { waitingJobs } from '../alerts/test-support.js';
import {
  batchOf,
  call,
  logInAs,
  newPatient,
  patientRow,
  postBatch,
  reading,
  vitalsOrganisation,
} from './test-support.js';

/**
 * The status lifecycle and the episode rule through the API (docs/status-lifecycle.md): statuses
 * come back down, "I am fine" ends with the episode and the next crossing alerts again.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
// Ahead of the database's clock, so readings are never older than the patients (created at its now()).
const clock = new ManualClock(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let operator: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  operator = await logInAs(app, org.tenant.code, org.operatorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const now = () => new Date(clock.now().getTime() - 1000);
// Sessions expire as the clock moves: each call logs in again.
const asDoctor = () => logInAs(app, org.tenant.code, org.doctorA);
const send = async (patientId: string, measure: string, value: number) =>
  postBatch(app, await asDoctor(), batchOf(patientId, [reading(measure, value, now())]));
const alertsOf = (patientId: string) =>
  asOwner<{ id: string; level: string }>(
    testDb.ownerUrl,
    'SELECT id, level FROM alerts WHERE patient_id = $1 ORDER BY created_at, id',
    [patientId],
  );
const history = (patientId: string) =>
  asOwner<{ from_status: string; to_status: string; reason_code: string | null; reason_params: unknown }>(
    testDb.ownerUrl,
    'SELECT from_status, to_status, reason_code, reason_params FROM patient_status_changes WHERE patient_id = $1 ORDER BY changed_at, id',
    [patientId],
  );

describe('re-arming after "I am fine" (issue 11 item 1)', () => {
  it('HIGH_RISK → I am fine → normal readings → high again: a new alert and a new high-risk timeout job', async () => {
    const patientId = org.patientA.id;
    const patientToken = await logInAs(app, org.tenant.code, org.patientUser);
    await send(patientId, 'HEART_RATE', 130);
    expect((await patientRow(testDb.ownerUrl, patientId)).status).toBe('HIGH_RISK');
    expect(await alertsOf(patientId)).toHaveLength(1);
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${patientId}`)).toHaveLength(1);

    const fine = await call(app, patientToken, 'POST', '/health/alerts/i-am-fine');
    expect(fine.statusCode).toBe(200);
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${patientId}`)).toEqual([]);
    // Still high: "I am fine" holds.
    clock.advance(MINUTE);
    await send(patientId, 'HEART_RATE', 128);
    expect(await alertsOf(patientId)).toHaveLength(1);

    clock.advance(MINUTE);
    await send(patientId, 'HEART_RATE', 72);
    expect((await patientRow(testDb.ownerUrl, patientId)).alerts_suppressed_until_normal).toBe(false);

    clock.advance(MINUTE);
    await send(patientId, 'HEART_RATE', 131);
    const alerts = await alertsOf(patientId);
    expect(alerts.map((alert) => alert.level)).toEqual(['HIGH_RISK', 'HIGH_RISK']);
    const [job] = await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${patientId}`);
    expect(job?.task).toBe('alerts.highRiskTimeout');
    expect(job?.payload.payload).toEqual({ alertId: alerts[1]?.id });
  });
});

describe('statuses come back down (issue 11 item 2)', () => {
  it('closing an SOS case with normal current readings brings the status down, with its reason in the history', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'SPO2', 84.5);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
    const [sosCase] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      'SELECT id FROM sos_cases WHERE patient_id = $1',
      [patient.id],
    );
    clock.advance(MINUTE);
    await send(patient.id, 'SPO2', 97);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
    const closed = await call(app, operator, 'PUT', `/account/sos-cases/${sosCase?.id ?? ''}/close`, {
      reason: 'Patient called back, fine',
    });
    expect(closed.statusCode).toBe(200);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect(await history(patient.id)).toEqual([
      {
        from_status: 'NORMAL',
        to_status: 'SOS',
        reason_code: 'READING',
        reason_params: { measure: 'SPO2', value: 84.5, unit: '%' },
      },
      { from_status: 'SOS', to_status: 'NORMAL', reason_code: 'CASE_CLOSED', reason_params: {} },
    ]);
    const answer = await call(app, await asDoctor(), 'GET', `/account/patients/${patient.id}/status-history`);
    expect(answer.statusCode).toBe(200);
    const entries = answer.json<{ data: { items?: unknown[] } | unknown[] }>().data;
    expect(JSON.stringify(entries)).toContain('"reasonCode":"CASE_CLOSED"');
  });

  it('closing a ticket sets the status from the current readings (TICKET_CLOSED in the history)', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'HEART_RATE', 130);
    clock.advance(MINUTE);
    await send(patient.id, 'HEART_RATE', 72);
    // Within the window: still HIGH_RISK.
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    const staff = await logInAs(app, org.tenant.code, org.operatorA);
    const created = await call(app, staff, 'POST', '/account/tickets', {
      patientId: patient.id,
      type: 'ALERT',
      title: 'High heart rate',
    });
    expect(created.statusCode).toBe(200);
    const ticketId = created.json<{ data: { id: string } }>().data.id;
    const canceled = await call(app, staff, 'PUT', `/account/tickets/${ticketId}/cancel`, {
      reason: 'Checked by phone',
    });
    expect(canceled.statusCode).toBe(200);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect((await history(patient.id)).at(-1)).toEqual({
      from_status: 'HIGH_RISK',
      to_status: 'NORMAL',
      reason_code: 'TICKET_CLOSED',
      reason_params: {},
    });
  });

  it('AT_RISK then 30 minutes of normal readings: NORMAL; but not while an SOS case is open', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'SPO2', 93);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');
    for (let minute = 10; minute <= 30; minute += 10) {
      clock.advance(10 * MINUTE);
      await send(patient.id, 'SPO2', 97);
    }
    clock.advance(MINUTE);
    await send(patient.id, 'SPO2', 98);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect((await history(patient.id)).at(-1)).toEqual({
      from_status: 'AT_RISK',
      to_status: 'NORMAL',
      reason_code: 'SETTLED',
      reason_params: { minutes: 30 },
    });

    // An SOS press opens a case: normal readings for far longer do not bring it down.
    await postBatch(
      app,
      await asDoctor(),
      batchOf(patient.id, [], { events: [{ type: 'SOS_BUTTON', at: now().toISOString() }] }),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
    for (let minute = 0; minute < 6; minute += 1) {
      clock.advance(10 * MINUTE);
      await send(patient.id, 'SPO2', 97);
    }
    await runDueJobsOf(app, testDb);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('SOS');
  });

  it('the window is the tenant’s setting (alert settings statusSettleMinutes)', async () => {
    const admin = await logInAs(app, org.tenant.code, org.admin);
    const saved = await call(app, admin, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 15,
      sosKpiMinutes: 5,
      statusSettleMinutes: 10,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<{ data: { statusSettleMinutes: number } }>().data.statusSettleMinutes).toBe(10);
    // Omitted: unchanged.
    const again = await call(app, admin, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 15,
      sosKpiMinutes: 5,
    });
    expect(again.json<{ data: { statusSettleMinutes: number } }>().data.statusSettleMinutes).toBe(10);
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'SPO2', 93);
    clock.advance(11 * MINUTE);
    await send(patient.id, 'SPO2', 97);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect((await history(patient.id)).at(-1)?.reason_params).toEqual({ minutes: 10 });
    await call(app, admin, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 15,
      sosKpiMinutes: 5,
      statusSettleMinutes: 30,
    });
  });

  it('one normal reading then silence: the window job keeps the status; the measure normal again after the window brings it down', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'HEART_RATE', 110);
    clock.advance(2 * MINUTE);
    await send(patient.id, 'HEART_RATE', 80);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');
    const [job] = await waitingJobs(testDb.ownerUrl, org.tenant.id, `status-settle:${patient.id}`);
    expect(job?.task).toBe('vitals.statusSettle');

    // A normal reading of another measure says nothing about the heart rate.
    clock.advance(29 * MINUTE);
    await send(patient.id, 'SPO2', 98);
    await runDueJobsOf(app, testDb);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');

    clock.advance(MINUTE);
    await send(patient.id, 'HEART_RATE', 78);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect((await history(patient.id)).at(-1)).toMatchObject({ to_status: 'NORMAL', reason_code: 'SETTLED' });
  });

  it('a late batch that crosses and normalizes a minute later raises the status and does not settle it at once', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    clock.advance(45 * MINUTE);
    const at = (minutesAgo: number) => new Date(now().getTime() - minutesAgo * MINUTE);
    await postBatch(
      app,
      await asDoctor(),
      batchOf(patient.id, [reading('SYSTOLIC', 136, at(40)), reading('SYSTOLIC', 118, at(39))]),
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');
    await runDueJobsOf(app, testDb);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('AT_RISK');
    expect((await history(patient.id)).map((row) => row.to_status)).toEqual(['AT_RISK']);
  });
});
