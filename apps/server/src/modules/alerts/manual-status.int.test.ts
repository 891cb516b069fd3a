import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { runDueJobsOf } from '../../../test/jobs.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import {
  batchOf,
  call,
  logInAs,
  newPatient,
  patientRow,
  postBatch,
  reading,
  vitalsOrganisation,
} from '../vitals/test-support.js';
import { waitingJobs } from './test-support.js';

/**
 * A staff member's status change through the API goes through the status lifecycle
 * (docs/status-lifecycle.md): reason MANUAL with the note and the acting user in the history, the
 * episode and the come-down job kept as for an automatic change.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
// Ahead of the database's clock, so readings are never older than the patients (created at its now()).
const clock = new ManualClock(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
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
const changeStatus = async (patientId: string, status: string, reason: string) =>
  call(app, await asDoctor(), 'PUT', `/account/patients/${patientId}/status`, { status, reason });
const alertsOf = (patientId: string) =>
  asOwner<{ level: string }>(
    testDb.ownerUrl,
    'SELECT level FROM alerts WHERE patient_id = $1 ORDER BY created_at, id',
    [patientId],
  );
const episodeOf = async (patientId: string) =>
  (
    await asOwner<{ alert_episode_level: string }>(
      testDb.ownerUrl,
      'SELECT alert_episode_level FROM patients WHERE id = $1',
      [patientId],
    )
  )[0]?.alert_episode_level;

interface HistoryEntry {
  fromStatus: string;
  toStatus: string;
  reason: string;
  reasonCode: string | null;
  reasonParams: Record<string, unknown>;
  changedBy: { id: string } | null;
}
const historyOf = async (patientId: string) =>
  (await call(app, await asDoctor(), 'GET', `/account/patients/${patientId}/status-history`)).json<{
    data: HistoryEntry[];
  }>().data;

describe('a manual status change', () => {
  it('lowered by hand: reason MANUAL with the note and the user; the episode ends, so the next crossing alerts again', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'HEART_RATE', 130);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `status-settle:${patient.id}`)).toHaveLength(1);

    clock.advance(MINUTE);
    const response = await changeStatus(patient.id, 'NORMAL', 'Measured again at the clinic: fine');
    expect(response.statusCode).toBe(200);
    const [latest] = await historyOf(patient.id);
    expect(latest).toMatchObject({
      fromStatus: 'HIGH_RISK',
      toStatus: 'NORMAL',
      reason: 'Measured again at the clinic: fine',
      reasonCode: 'MANUAL',
      reasonParams: { text: 'Measured again at the clinic: fine' },
      changedBy: { id: org.doctorA.id },
    });
    expect(await episodeOf(patient.id)).toBe('NORMAL');
    // NORMAL: nothing to come down from.
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `status-settle:${patient.id}`)).toEqual([]);

    clock.advance(MINUTE);
    await send(patient.id, 'HEART_RATE', 131);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    expect((await alertsOf(patient.id)).map((alert) => alert.level)).toEqual(['HIGH_RISK', 'HIGH_RISK']);
    expect(await waitingJobs(testDb.ownerUrl, org.tenant.id, `high-risk:${patient.id}`)).toHaveLength(1);
  });

  it('raised by hand: alerts nobody and holds until readings stayed lower for the window after it', async () => {
    const patient = await newPatient(testDb, org.tenant.id, org.centerA.id);
    await send(patient.id, 'HEART_RATE', 72);
    clock.advance(MINUTE);
    expect((await changeStatus(patient.id, 'HIGH_RISK', 'Chest pain reported by phone')).statusCode).toBe(
      200,
    );
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    expect(await alertsOf(patient.id)).toEqual([]);
    const [job] = await waitingJobs(testDb.ownerUrl, org.tenant.id, `status-settle:${patient.id}`);
    expect(job?.run_at.getTime()).toBe(clock.now().getTime() + 30 * MINUTE);

    // A silent device proves nothing: the job at the window's end leaves the status.
    clock.advance(31 * MINUTE);
    await runDueJobsOf(app, testDb);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('HIGH_RISK');
    // A normal reading after the window brings it down.
    await send(patient.id, 'HEART_RATE', 70);
    expect((await patientRow(testDb.ownerUrl, patient.id)).status).toBe('NORMAL');
    expect((await historyOf(patient.id)).map((entry) => [entry.toStatus, entry.reasonCode])).toEqual([
      ['NORMAL', 'SETTLED'],
      ['HIGH_RISK', 'MANUAL'],
    ]);
  });
});
