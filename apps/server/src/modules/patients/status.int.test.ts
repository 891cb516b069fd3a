import { PATIENT_STATUS_TRANSITIONS, PATIENT_STATUSES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { DAY, ManualClock, MINUTE } from '../../lib/clock.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { purgeDeletedPatients } from './purge-job.js';
import {
  call,
  logInAs,
  outcomeOf,
  patientAudit,
  patientOrganisation,
  storedPatient,
  type PatientOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
const clock = new ManualClock();
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await patientOrganisation(testDb);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const changeStatus = (token: string, id: string, body: unknown) =>
  call(app, token, 'PUT', `/account/patients/${id}/status`, body);
const newPatient = (status: string) =>
  createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    status,
    birthday: '1950-02-02',
    gender: 'MALE',
  });

describe('changing a patient’s status', () => {
  const pairs = PATIENT_STATUSES.flatMap((from) => PATIENT_STATUSES.map((to) => [from, to] as const));
  it.each(pairs)('%s -> %s is allowed exactly as PATIENT_STATUS_TRANSITIONS says', async (from, to) => {
    const patient = await newPatient(from);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const response = await changeStatus(token, patient.id, { status: to, reason: 'Blood pressure reviewed' });
    const isAllowed = PATIENT_STATUS_TRANSITIONS[from].includes(to);
    if (isAllowed) {
      expect(response.statusCode).toBe(200);
      expect((await storedPatient(testDb.ownerUrl, patient.id))?.status).toBe(to);
      const [history] = await asOwner<{
        from_status: string;
        to_status: string;
        reason: string;
        changed_by: string;
      }>(testDb.ownerUrl, 'SELECT * FROM patient_status_changes WHERE patient_id = $1', [patient.id]);
      expect(history).toMatchObject({
        from_status: from,
        to_status: to,
        reason: 'Blood pressure reviewed',
        changed_by: org.doctorA.id,
      });
      expect((await patientAudit(testDb.ownerUrl, patient.id)).map((row) => row.action)).toEqual([
        'PATIENT_STATUS_CHANGED',
      ]);
      // The live event for dashboards and lists, in the same transaction.
      const events = await asOwner<{ type: string; payload: { from: string; to: string } }>(
        testDb.ownerUrl,
        'SELECT type, payload FROM events WHERE patient_id = $1',
        [patient.id],
      );
      expect(events).toEqual([
        { type: 'patient.statusChanged', payload: expect.objectContaining({ from, to }) as unknown },
      ]);
    } else {
      expect(outcomeOf(response)).toMatchObject({ status: 409, code: 'patient.cannotChangeStatus' });
      expect((await storedPatient(testDb.ownerUrl, patient.id))?.status).toBe(from);
      const [events] = await asOwner<{ n: number }>(
        testDb.ownerUrl,
        'SELECT count(*)::int AS n FROM events WHERE patient_id = $1',
        [patient.id],
      );
      expect(events?.n).toBe(0);
    }
  });

  it('refuses an unknown status, a missing or blank reason, and a deleted account; nothing changes', async () => {
    const patient = await newPatient('NORMAL');
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    expect(
      outcomeOf(await changeStatus(token, patient.id, { status: 'CRITICAL', reason: 'x' })),
    ).toMatchObject({ status: 400, code: 'patient.invalidStatus', fields: ['body.status'] });
    expect(outcomeOf(await changeStatus(token, patient.id, { status: 'AT_RISK' }))).toMatchObject({
      status: 400,
      code: 'patient.reasonRequired',
      fields: ['body.reason'],
    });
    expect(
      outcomeOf(await changeStatus(token, patient.id, { status: 'AT_RISK', reason: '   ' })),
    ).toMatchObject({ status: 400, code: 'patient.reasonRequired' });
    await asOwner(
      testDb.ownerUrl,
      `UPDATE patients SET account_state = 'DISABLED', deletion_requested_at = now(), purge_after = '2999-01-01' WHERE id = $1`,
      [patient.id],
    );
    expect(
      outcomeOf(await changeStatus(token, patient.id, { status: 'AT_RISK', reason: 'x' })),
    ).toMatchObject({ status: 409, code: 'patient.cannotChangeStatus' });
    expect((await storedPatient(testDb.ownerUrl, patient.id))?.status).toBe('NORMAL');
    const [count] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM patient_status_changes WHERE patient_id = $1',
      [patient.id],
    );
    expect(count?.n).toBe(0);
  });

  it('is refused to roles without health.update (operators), and to a doctor of another center (404)', async () => {
    const operator = await logInAs(app, org.tenant.code, org.operator);
    expect(
      outcomeOf(await changeStatus(operator, org.patientA.id, { status: 'AT_RISK', reason: 'x' })),
    ).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    const doctorB = await logInAs(app, org.tenant.code, org.doctorB);
    expect(
      outcomeOf(await changeStatus(doctorB, org.patientA.id, { status: 'AT_RISK', reason: 'x' })),
    ).toMatchObject({ status: 404, code: 'patient.notFound' });
    expect((await storedPatient(testDb.ownerUrl, org.patientA.id))?.status).toBe('NORMAL');
  });

  it('lists the history newest first with who changed it', async () => {
    const patient = await newPatient('NORMAL');
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    await changeStatus(token, patient.id, { status: 'AT_RISK', reason: 'First' });
    clock.advance(MINUTE);
    await changeStatus(token, patient.id, { status: 'HIGH_RISK', reason: 'Second' });
    const response = await call(app, token, 'GET', `/account/patients/${patient.id}/status-history`);
    expect(response.json()).toMatchObject({
      data: [
        {
          fromStatus: 'AT_RISK',
          toStatus: 'HIGH_RISK',
          reason: 'Second',
          changedBy: { id: org.doctorA.id, fullName: 'Doctor Anh' },
        },
        { fromStatus: 'NORMAL', toStatus: 'AT_RISK', reason: 'First' },
      ],
    });
  });
});

describe('deleting a patient account', () => {
  it('disables at once, answers accountDeleted, and the purge job removes everything 30 days later', async () => {
    const login = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: null,
    });
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: login.id,
    });
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_status_changes (tenant_id, id, patient_id, from_status, to_status, reason) VALUES ($1, gen_random_uuid(), $2, 'NORMAL', 'AT_RISK', 'x')`,
      [org.tenant.id, patient.id],
    );
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`,
      [org.tenant.id, patient.id, org.doctorA.id],
    );
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, gen_random_uuid(), 'V19', 'SN-PURGE', 'AA:BB:CC:00:00:01', $2)`,
      [org.tenant.id, patient.id],
    );
    // Vitals of every kind go too (readings have no foreign key: the purge removes them itself).
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source)
       VALUES ($1, $2, 'HEART_RATE', now() - interval '1 day', 70, 'WIRELESS_DEVICE'), ($1, $2, 'SPO2', now() - interval '1 day', 97, 'WIRELESS_DEVICE')`,
      [org.tenant.id, patient.id],
    );
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
       VALUES ($1, $2, 'HEART_RATE', date_trunc('day', now()), 1, 70, 70, 70, 70, now())`,
      [org.tenant.id, patient.id],
    );
    const token = await logInAs(app, org.tenant.code, org.admin);

    expect(
      outcomeOf(
        await call(app, token, 'DELETE', `/account/patients/${patient.id}`, { confirmPatientCode: 'WRONG' }),
      ),
    ).toMatchObject({ status: 400, fields: ['body.confirmPatientCode'] });
    expect((await storedPatient(testDb.ownerUrl, patient.id))?.account_state).toBe('ACTIVE');
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    expect(
      outcomeOf(
        await call(app, doctor, 'DELETE', `/account/patients/${patient.id}`, {
          confirmPatientCode: patient.patientCode,
        }),
      ),
    ).toMatchObject({ status: 403, code: 'auth.permissionDenied' });

    const start = clock.now();
    const response = await call(app, token, 'DELETE', `/account/patients/${patient.id}`, {
      confirmPatientCode: patient.patientCode.toLowerCase(),
      reason: 'Asked by the patient',
    });
    expect(response.json()).toMatchObject({
      data: { accountState: 'DISABLED', purgeAfter: new Date(start.getTime() + 30 * DAY).toISOString() },
    });
    const [user] = await asOwner<{ status: string }>(
      testDb.ownerUrl,
      'SELECT status FROM users WHERE id = $1',
      [login.id],
    );
    expect(user?.status).toBe('DISABLED');
    expect(outcomeOf(await call(app, token, 'GET', `/account/patients/${patient.id}`))).toMatchObject({
      status: 410,
      code: 'patient.accountDeleted',
    });
    expect(
      outcomeOf(
        await call(app, token, 'DELETE', `/account/patients/${patient.id}`, {
          confirmPatientCode: patient.patientCode,
        }),
      ),
    ).toMatchObject({ status: 410, code: 'patient.accountDeleted' });
    const listed = await call(app, token, 'GET', `/account/patients?search=${patient.patientCode}`);
    expect(listed.json<{ data: { total: number } }>().data.total).toBe(0);

    const storage = createLocalFileStorage('/tmp/rpm-test-files');
    clock.advance(30 * DAY - MINUTE);
    expect(await purgeDeletedPatients(testDb.database, clock, storage)).toBe(0);
    expect(await storedPatient(testDb.ownerUrl, patient.id)).toBeDefined();
    clock.advance(2 * MINUTE);
    expect(await purgeDeletedPatients(testDb.database, clock, storage)).toBe(1);
    expect(await storedPatient(testDb.ownerUrl, patient.id)).toBeUndefined();
    const leftovers = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT ((SELECT count(*) FROM patient_status_changes WHERE patient_id = $1) + (SELECT count(*) FROM patient_doctors WHERE patient_id = $1) + (SELECT count(*) FROM devices WHERE patient_id = $1) + (SELECT count(*) FROM readings WHERE patient_id = $1) + (SELECT count(*) FROM readings_daily WHERE patient_id = $1))::int AS n`,
      [patient.id],
    );
    expect(leftovers[0]?.n).toBe(0);
    const [device] = await asOwner<{ patient_id: string | null }>(
      testDb.ownerUrl,
      `SELECT patient_id FROM devices WHERE serial_number = 'SN-PURGE'`,
    );
    expect(device).toEqual({ patient_id: null });
    expect((await patientAudit(testDb.ownerUrl, patient.id)).map((row) => row.action)).toEqual([
      'PATIENT_DELETION_REQUESTED',
      'PATIENT_PURGED',
    ]);
    expect(await purgeDeletedPatients(testDb.database, clock, storage)).toBe(0);
  });
});

describe('dashboard counts', () => {
  interface Counts {
    data: { NORMAL: number; AT_RISK: number; HIGH_RISK: number; SOS: number; total: number };
  }
  const counts = async (token: string, url: string) => {
    const response = await call(app, token, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Counts>().data;
  };

  it('counts per role: the doctor’s patients, the assistant’s doctors’ patients, the caller’s centers, one center', async () => {
    const { database } = testDb;
    const doctorPatient = await createPatient(database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      status: 'SOS',
    });
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`,
      [org.tenant.id, doctorPatient.id, org.doctorA.id],
    );
    const expectedOf = async (where: string, values: unknown[]) => {
      const rows = await asOwner<{ status: string; n: number }>(
        testDb.ownerUrl,
        `SELECT status, count(*)::int AS n FROM patients WHERE tenant_id = $1 AND account_state = 'ACTIVE' AND ${where} GROUP BY status`,
        [org.tenant.id, ...values],
      );
      const expected = { NORMAL: 0, AT_RISK: 0, HIGH_RISK: 0, SOS: 0, total: 0 };
      for (const row of rows) {
        expected[row.status as 'NORMAL'] = row.n;
        expected.total += row.n;
      }
      return expected;
    };
    const doctorA = await logInAs(app, org.tenant.code, org.doctorA);
    const doctorCounts = await counts(doctorA, '/account/doctor/getCountPatientStatus');
    expect(doctorCounts).toEqual(
      await expectedOf(`id IN (SELECT patient_id FROM patient_doctors WHERE doctor_id = $2)`, [
        org.doctorA.id,
      ]),
    );
    expect(doctorCounts.SOS).toBeGreaterThanOrEqual(1);
    const assistant = await logInAs(app, org.tenant.code, org.assistantA);
    expect(await counts(assistant, '/account/doctor-assistant/get-count-patient-status')).toEqual(
      doctorCounts,
    );
    const operator = await logInAs(app, org.tenant.code, org.operator);
    expect(await counts(operator, '/account/operator/getCountPatientStatus')).toEqual(
      await expectedOf('true', []),
    );
    expect(
      await counts(operator, `/account/operator/getCountPatientStatus?mhscId=${org.centerB.id}`),
    ).toEqual(await expectedOf('health_center_id = $2', [org.centerB.id]));
    const operatorA = await logInAs(app, org.tenant.code, org.operatorA);
    expect(await counts(operatorA, '/account/operator/getCountPatientStatus')).toEqual(
      await expectedOf('health_center_id = $2', [org.centerA.id]),
    );
    expect(
      outcomeOf(
        await call(app, operatorA, 'GET', `/account/operator/getCountPatientStatus?mhscId=${org.centerB.id}`),
      ),
    ).toMatchObject({ status: 404, code: 'center.notFound' });
    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    expect(
      await counts(adminA, `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${org.centerA.id}`),
    ).toEqual(await expectedOf('health_center_id = $2', [org.centerA.id]));
    expect(
      outcomeOf(
        await call(
          app,
          adminA,
          'GET',
          `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${org.centerB.id}`,
        ),
      ),
    ).toMatchObject({ status: 404 });
    expect(
      outcomeOf(await call(app, adminA, 'GET', '/account/smadmin/mhsc/getCountPatientStatus')),
    ).toMatchObject({ status: 400 });
  });

  it('refuses each role-gated count to other roles', async () => {
    const operator = await logInAs(app, org.tenant.code, org.operator);
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    for (const [token, url] of [
      [operator, '/account/doctor/getCountPatientStatus'],
      [doctor, '/account/doctor-assistant/get-count-patient-status'],
      [operator, `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${org.centerA.id}`],
    ] as const) {
      expect(outcomeOf(await call(app, token, 'GET', url)), url).toMatchObject({
        status: 403,
        code: 'auth.permissionDenied',
      });
    }
    const coach = await createTenantUser(testDb.database, org.tenant.id, { role: 'COACH' });
    expect(
      outcomeOf(
        await call(
          app,
          await logInAs(app, org.tenant.code, coach),
          'GET',
          '/account/operator/getCountPatientStatus',
        ),
      ),
    ).toMatchObject({ status: 403 });
  });
});
