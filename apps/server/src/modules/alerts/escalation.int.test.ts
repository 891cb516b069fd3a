import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient } from '../../../test/factories.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { createLocalCallProvider } from '../messaging/providers.js';
import { placeQueuedCall } from './calls.js';
import { runHighRiskTimeout, runSosKpiCheck } from './escalation.js';
import {
  alertOrganisation,
  call,
  logInAs,
  patientOutbox,
  signal,
  waitingJobs,
  type AlertOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
const clock = new ManualClock(new Date('2025-03-01T08:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const jobContext = () => ({ tenantId: org.tenant.id, database: testDb.database, clock });
const resetPatient = (patientId: string) =>
  asOwner(
    testDb.ownerUrl,
    `UPDATE patients SET alerts_suppressed_until_normal = false, status = 'NORMAL' WHERE id = $1`,
    [patientId],
  );

describe('escalation on a controlled clock (spec §4 alerts in the patient app)', () => {
  it('AT_RISK: records an alert and notifies the patient by SMS', async () => {
    const outcome = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: org.patientA.id,
      level: 'AT_RISK',
    });
    expect(outcome.alertId).not.toBeNull();
    const [alert] = await asOwner<{ level: string; type: string; status: string }>(
      testDb.ownerUrl,
      'SELECT level, type, status FROM alerts WHERE id = $1',
      [outcome.alertId],
    );
    expect(alert).toEqual({ level: 'AT_RISK', type: 'SPO2', status: 'OPEN' });
    const sent = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'ALERT_AT_RISK');
    expect(sent.map((message) => [message.channel, message.recipient])).toEqual([['SMS', '0901000001']]);
    const events = await asOwner<{ type: string }>(
      testDb.ownerUrl,
      `SELECT type FROM events WHERE patient_id = $1 AND type = 'alert.raised'`,
      [org.patientA.id],
    );
    expect(events.length).toBeGreaterThan(0);
  });

  it('HIGH_RISK without an answer in 15 s: every follower gets an SMS, recorded and listed in SMS and call management', async () => {
    await resetPatient(org.patientA.id);
    const outcome = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: org.patientA.id,
      level: 'HIGH_RISK',
    });
    const [job] = await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${org.patientA.id}`);
    expect(job?.task).toBe('alerts.highRiskTimeout');
    expect(new Date(job?.run_at ?? 0).getTime()).toBe(clock.now().getTime() + 15_000);
    expect(job?.payload.payload).toEqual({ alertId: outcome.alertId });

    // Nothing goes to the followers before the window ends.
    expect(await patientOutbox(testDb.ownerUrl, org.patientA.id, 'HIGH_RISK_FOLLOWER_SMS')).toEqual([]);
    clock.advance(15_000);
    // The job runner calls the handler with the stored payload.
    expect(await runHighRiskTimeout(jobContext(), { alertId: outcome.alertId ?? '' })).toEqual({
      smsSent: 3,
    });
    const sms = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'HIGH_RISK_FOLLOWER_SMS');
    expect(sms.map((message) => message.recipient)).toEqual(['0902000001', '0902000002', '0902000003']);
    expect(sms.every((message) => message.channel === 'SMS' && message.body.includes('Anh Nguyen'))).toBe(
      true,
    );
    // Run again (a retried job): nothing is sent twice.
    expect(await runHighRiskTimeout(jobContext(), { alertId: outcome.alertId ?? '' })).toEqual({
      smsSent: 0,
    });
    expect(await patientOutbox(testDb.ownerUrl, org.patientA.id, 'HIGH_RISK_FOLLOWER_SMS')).toHaveLength(3);

    const operatorToken = await logInAs(app, org.tenant.code, org.operator);
    const listed = await call(app, operatorToken, 'GET', '/account/messages?kind=SMS&search=0902000002');
    expect(listed.statusCode).toBe(200);
    const items = listed.json<{
      data: { items: { to: string; kind: string; purpose: string; patient: { id: string } }[] };
    }>().data.items;
    // The follower's invitation SMS (sent when staff added it) is listed too.
    expect(items.map((item) => [item.to, item.kind, item.purpose, item.patient.id]).sort()).toEqual([
      ['0902000002', 'SMS', 'FOLLOWER_INVITATION', org.patientA.id],
      ['0902000002', 'SMS', 'HIGH_RISK_FOLLOWER_SMS', org.patientA.id],
    ]);
  });

  it('HIGH_RISK answered "I am fine": the timer is cancelled, nothing is sent, alerts below SOS are suppressed', async () => {
    await asOwner(testDb.ownerUrl, `DELETE FROM patient_messages WHERE patient_id = $1`, [org.patientA.id]);
    await resetPatient(org.patientA.id);
    const outcome = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: org.patientA.id,
      level: 'HIGH_RISK',
    });
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${org.patientA.id}`)).toHaveLength(1);
    const patientToken = await logInAs(app, org.tenant.code, org.patientUser);
    const answer = await call(app, patientToken, 'POST', '/health/alerts/i-am-fine');
    expect(answer.statusCode).toBe(200);
    expect(answer.json<{ data: { state: string } }>().data.state).toBe('CONFIRMED_FINE');
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${org.patientA.id}`)).toEqual([]);

    clock.advance(15_000);
    expect(await runHighRiskTimeout(jobContext(), { alertId: outcome.alertId ?? '' })).toEqual({
      smsSent: 0,
    });
    expect(await patientOutbox(testDb.ownerUrl, org.patientA.id, 'HIGH_RISK_FOLLOWER_SMS')).toEqual([]);
    const [stored] = await asOwner<{ suppressed: boolean }>(
      testDb.ownerUrl,
      'SELECT alerts_suppressed_until_normal AS suppressed FROM patients WHERE id = $1',
      [org.patientA.id],
    );
    expect(stored?.suppressed).toBe(true);
    // Suppressed: a new high-risk signal raises nothing.
    expect(
      (
        await signal(testDb, clock, {
          tenantId: org.tenant.id,
          patientId: org.patientA.id,
          level: 'HIGH_RISK',
        })
      ).alertId,
    ).toBeNull();
  });

  it('uses the tenant’s confirmation window when it was adjusted', async () => {
    await resetPatient(org.patientA.id);
    const saved = await call(app, org.adminToken, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 30,
      sosKpiMinutes: 5,
    });
    expect(saved.statusCode).toBe(200);
    const tooShort = await call(app, org.adminToken, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 1,
      sosKpiMinutes: 5,
    });
    expect(tooShort.statusCode).toBe(400);
    await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientA.id, level: 'HIGH_RISK' });
    const [job] = await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${org.patientA.id}`);
    expect(new Date(job?.run_at ?? 0).getTime()).toBe(clock.now().getTime() + 30_000);
    await call(app, org.adminToken, 'PUT', '/account/alert-settings', {
      highRiskConfirmSeconds: 15,
      sosKpiMinutes: 5,
    });
  });

  it('"call followers" calls every follower at once; the local provider records the calls', async () => {
    const patientToken = await logInAs(app, org.tenant.code, org.patientUser);
    const answer = await call(app, patientToken, 'POST', '/health/alerts/call-followers');
    expect(answer.json<{ data: { callsPlaced: number } }>().data.callsPlaced).toBe(3);
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${org.patientA.id}`)).toEqual([]);
    const pending = await asOwner<{ id: string; status: string }>(
      testDb.ownerUrl,
      `SELECT id, status FROM calls WHERE patient_id = $1 AND purpose = 'FOLLOWER_CALL_REQUEST'`,
      [org.patientA.id],
    );
    expect(pending.map((row) => row.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    for (const row of pending)
      await placeQueuedCall(jobContext(), { callId: row.id }, createLocalCallProvider(clock));
    const placed = await asOwner<{ status: string; provider: string }>(
      testDb.ownerUrl,
      `SELECT status, provider FROM calls WHERE patient_id = $1 AND purpose = 'FOLLOWER_CALL_REQUEST'`,
      [org.patientA.id],
    );
    expect(placed.every((row) => row.status === 'COMPLETED' && row.provider === 'local-call')).toBe(true);
    // Staff have no patient record of their own.
    const operatorToken = await logInAs(app, org.tenant.code, org.operator);
    const staff = await call(app, operatorToken, 'POST', '/health/alerts/call-followers');
    expect([staff.statusCode, staff.json<{ code: string }>().code]).toEqual([404, 'alert.noPatientProfile']);
  });
});

describe('SOS', () => {
  it('opens a case with vitals and location, an SOS ticket, follower calls and SMS, and alerts the care team', async () => {
    await resetPatient(org.patientA.id);
    const outcome = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: org.patientA.id,
      level: 'SOS',
      source: 'SOS_BUTTON',
      alertType: 'CALL',
      location: { lat: 10.77, lng: 106.7 },
      vitals: [{ measure: 'HEART_RATE', value: 182, measuredAt: clock.now() }],
    });
    const [sosCase] = await asOwner<{
      status: string;
      vitals: unknown;
      location_lat: number;
      kpi_due_at: Date;
    }>(testDb.ownerUrl, 'SELECT status, vitals, location_lat, kpi_due_at FROM sos_cases WHERE id = $1', [
      outcome.sosCaseId,
    ]);
    expect(sosCase?.status).toBe('NEW');
    expect(sosCase?.vitals).toEqual([
      { measure: 'HEART_RATE', value: 182, measuredAt: clock.now().toISOString() },
    ]);
    expect(sosCase?.location_lat).toBe(10.77);
    expect(new Date(sosCase?.kpi_due_at ?? 0).getTime()).toBe(clock.now().getTime() + 5 * MINUTE);
    const tickets = await asOwner<{ type: string; status: string }>(
      testDb.ownerUrl,
      'SELECT type, status FROM tickets WHERE sos_case_id = $1',
      [outcome.sosCaseId],
    );
    expect(tickets).toEqual([{ type: 'SOS', status: 'NEW' }]);
    const calls = await asOwner<{ to_number: string }>(
      testDb.ownerUrl,
      'SELECT to_number FROM calls WHERE sos_case_id = $1 ORDER BY to_number',
      [outcome.sosCaseId],
    );
    // The followers are called one at a time (alerts/calls.ts): the favourite first.
    expect(calls.map((row) => row.to_number)).toEqual(['0902000001']);
    const sms = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'SOS_FOLLOWER_SMS');
    expect(sms.map((message) => message.recipient)).toEqual(['0902000001', '0902000002', '0902000003']);
    // The care team's doctors also find it in their inbox (an ALERT: it cannot be turned off).
    const notices = await asOwner<{ recipient_id: string; kind: string; type: string; link: string }>(
      testDb.ownerUrl,
      `SELECT recipient_id, kind, type, link FROM notifications WHERE patient_id = $1 AND kind = 'sos.opened'`,
      [org.patientA.id],
    );
    expect(notices).toEqual([{ recipient_id: org.doctorA.id, kind: 'sos.opened', type: 'ALERT', link: `/patients/${org.patientA.id}` }]);
    const careTeam = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'SOS_CARE_TEAM');
    expect(careTeam.map((message) => [message.channel, message.recipient])).toEqual([
      ['EMAIL', org.doctorA.email],
    ]);
    const events = await asOwner<{ type: string; health_center_id: string }>(
      testDb.ownerUrl,
      `SELECT type, health_center_id FROM events WHERE payload->>'sosCaseId' = $1::text OR payload->>'ticketId' IN (SELECT id::text FROM tickets WHERE sos_case_id::text = $1::text)`,
      [outcome.sosCaseId],
    );
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set(['sos.opened', 'ticket.created', 'alert.raised']),
    );
    expect(events.every((event) => event.health_center_id === org.centerA.id)).toBe(true);
    expect(
      await waitingJobs(testDb.ownerUrl, org.tenant.id, `sos-kpi:${outcome.sosCaseId ?? ''}`),
    ).toHaveLength(1);

    // One open case per patient: a second SOS adds to its history.
    const again = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: org.patientA.id,
      level: 'SOS',
      source: 'FALL',
      alertType: 'FALL',
      previousStatus: 'SOS',
    });
    expect(again.sosCaseId).toBe(outcome.sosCaseId);
    const [count] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM sos_cases WHERE patient_id = $1 AND status <> 'CLOSED'`,
      [org.patientA.id],
    );
    expect(count?.n).toBe(1);
    const history = await asOwner<{ kind: string }>(
      testDb.ownerUrl,
      'SELECT kind FROM sos_case_actions WHERE sos_case_id = $1 ORDER BY at, id',
      [outcome.sosCaseId],
    );
    expect(history.map((entry) => entry.kind)).toEqual(['OPENED', 'SOS_REPEATED']);

    // KPI: still NEW at the deadline -> SOS_PROCESSING_OVERDUE on the case and its ticket.
    expect(await runSosKpiCheck(jobContext(), { sosCaseId: outcome.sosCaseId ?? '' })).toEqual({
      failed: false,
    });
    clock.advance(5 * MINUTE);
    expect(await runSosKpiCheck(jobContext(), { sosCaseId: outcome.sosCaseId ?? '' })).toEqual({
      failed: true,
    });
    const [failed] = await asOwner<{ kpi_failed: boolean; reason: string }>(
      testDb.ownerUrl,
      'SELECT c.kpi_failed, t.kpi_failure_reason AS reason FROM sos_cases c JOIN tickets t ON t.sos_case_id = c.id WHERE c.id = $1',
      [outcome.sosCaseId],
    );
    expect(failed).toEqual({ kpi_failed: true, reason: 'SOS_PROCESSING_OVERDUE' });
    expect(await runSosKpiCheck(jobContext(), { sosCaseId: outcome.sosCaseId ?? '' })).toEqual({
      failed: false,
    });
  });

  it('an accepted case does not fail its KPI', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      firstName: 'Kim',
      lastName: 'Vo',
    });
    const operatorToken = await logInAs(app, org.tenant.code, org.operator);
    const opened = await call(app, operatorToken, 'POST', `/account/patients/${patient.id}/sos`, {
      note: 'Called the hotline',
    });
    expect(opened.statusCode).toBe(200);
    const caseId = opened.json<{ data: { id: string; status: string } }>().data.id;
    expect(
      (await call(app, operatorToken, 'PUT', `/account/sos-cases/${caseId}/accept`, {})).statusCode,
    ).toBe(200);
    clock.advance(10 * MINUTE);
    expect(await runSosKpiCheck(jobContext(), { sosCaseId: caseId })).toEqual({ failed: false });
    const [status] = await asOwner<{ status: string }>(
      testDb.ownerUrl,
      'SELECT status FROM patients WHERE id = $1',
      [patient.id],
    );
    expect(status?.status).toBe('SOS');
  });

  it('never opens SOS for a sub-user: readings escalate as high risk, the SOS calls are refused', async () => {
    const subUser = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      firstName: 'Be',
      lastName: 'Nguyen',
    });
    await testDb.database.withTenant(org.tenant.id, (tx) =>
      tx.execute(
        sql`UPDATE patients SET account_kind = 'SUB_USER', holder_user_id = ${org.patientUser.id} WHERE id = ${subUser.id}`,
      ),
    );
    const outcome = await signal(testDb, clock, {
      tenantId: org.tenant.id,
      patientId: subUser.id,
      level: 'SOS',
      source: 'SOS_BUTTON',
    });
    expect(outcome.sosCaseId).toBeNull();
    const [alert] = await asOwner<{ level: string }>(
      testDb.ownerUrl,
      'SELECT level FROM alerts WHERE id = $1',
      [outcome.alertId],
    );
    expect(alert?.level).toBe('HIGH_RISK');
    const operatorToken = await logInAs(app, org.tenant.code, org.operator);
    const refused = await call(app, operatorToken, 'POST', `/account/patients/${subUser.id}/sos`, {
      note: '',
    });
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([409, 'sosCase.subUser']);
    const cases = await asOwner(testDb.ownerUrl, 'SELECT 1 FROM sos_cases WHERE patient_id = $1', [
      subUser.id,
    ]);
    expect(cases).toEqual([]);
  });
});
