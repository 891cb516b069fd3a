import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient } from '../../../test/factories.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { call, logInAs, patientOrganisation, type PatientOrganisation } from './test-support.js';

/**
 * The triage list: severity order (open SOS case, SOS, high risk, at risk, no data, normal, then
 * the latest reading), its columns (what crossed, last reading and its age, open case and ticket),
 * the `mine` and `center` scopes for a doctor, an assistant and an operator, and dashboard counts
 * that equal the list's totals for the same scope.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
const clock = new ManualClock(new Date(Date.now() - (Date.now() % 1000)));
const now = clock.now();
const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);

interface Row {
  id: string;
  status: string;
  attention: string;
  noData: boolean;
  lastReadingAt: string | null;
  lastReadingAgeSeconds: number | null;
  crossed: {
    alertId: string;
    type: string;
    level: string;
    readings: { measure: string; value: number; measuredAt: string }[];
    raisedAt: string;
  } | null;
  openSosCaseId: string | null;
  openTicketId: string | null;
}
interface Page {
  data: { items: Row[]; total: number };
}

const ids = {} as Record<
  | 'openCase'
  | 'sos'
  | 'high'
  | 'atRiskFresh'
  | 'atRiskOld'
  | 'noData'
  | 'normalRead'
  | 'normalNever'
  | 'deleted',
  string
>;
let openCaseId = '';
let openTicketId = '';
let openAlertId = '';

async function owner(sql: string, values: unknown[]) {
  await asOwner(testDb.ownerUrl, sql, values);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await patientOrganisation(testDb);
  const tenantId = org.tenant.id;
  const make = async (
    key: keyof typeof ids,
    status: string,
    lastReadingAt: Date | null,
    options: { doctorA?: boolean; deleted?: boolean } = {},
  ) => {
    const patient = await createPatient(testDb.database, tenantId, {
      healthCenterId: org.centerA.id,
      firstName: key,
      lastName: 'Triage',
      status,
      lastReadingAt,
      ...(options.deleted === true
        ? {
            accountState: 'DISABLED',
            deletionRequestedAt: ago(60),
            purgeAfter: new Date(now.getTime() + 30 * 24 * 60 * MINUTE),
          }
        : {}),
    });
    ids[key] = patient.id;
    if (options.doctorA !== false)
      await owner(
        `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`,
        [tenantId, patient.id, org.doctorA.id],
      );
    return patient.id;
  };
  // Created in an order unlike the expected one, so the default (creation) order cannot pass.
  await make('normalNever', 'NORMAL', null, { doctorA: false });
  await make('atRiskOld', 'AT_RISK', ago(30));
  await make('noData', 'NORMAL', ago(120));
  await make('high', 'HIGH_RISK', ago(10));
  await make('normalRead', 'NORMAL', ago(60));
  await make('sos', 'SOS', ago(5), { doctorA: false });
  await make('atRiskFresh', 'AT_RISK', ago(2));
  await make('openCase', 'HIGH_RISK', ago(40));
  await make('deleted', 'SOS', ago(1), { deleted: true });

  // An open SOS case (the patient's status came down meanwhile: the case still comes first), and a
  // closed one of the SOS patient, which is not "open".
  openCaseId = randomUUID();
  const caseSql = `INSERT INTO sos_cases (tenant_id, id, patient_id, status, reason, source, opened_at, kpi_due_at, closed_at)
                   VALUES ($1, $2, $3, $4, 'SOS_BUTTON', 'SOS_BUTTON', $5, $5, $6)`;
  await owner(caseSql, [tenantId, openCaseId, ids.openCase, 'IN_PROCESS', ago(45), null]);
  await owner(caseSql, [tenantId, randomUUID(), ids.sos, 'CLOSED', ago(90), ago(80)]);

  // What crossed: the high-risk patient's latest unresolved alert; a newer resolved one is history.
  openAlertId = randomUUID();
  const alertSql = `INSERT INTO alerts (tenant_id, id, patient_id, type, level, measure_values, status, source, created_at)
                    VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, 'READING', $8)`;
  await owner(alertSql, [
    tenantId,
    openAlertId,
    ids.high,
    'HEART_RATE',
    'HIGH_RISK',
    JSON.stringify([{ measure: 'HEART_RATE', value: 151, measuredAt: ago(12).toISOString() }]),
    'ACKNOWLEDGED',
    ago(12),
  ]);
  await owner(alertSql, [
    tenantId,
    randomUUID(),
    ids.high,
    'SPO2',
    'AT_RISK',
    JSON.stringify([{ measure: 'SPO2', value: 91, measuredAt: ago(11).toISOString() }]),
    'RESOLVED',
    ago(11),
  ]);
  await owner(alertSql, [
    tenantId,
    randomUUID(),
    ids.atRiskOld,
    'SPO2',
    'AT_RISK',
    JSON.stringify([{ measure: 'SPO2', value: 93, measuredAt: ago(31).toISOString() }]),
    'RESOLVED',
    ago(31),
  ]);

  // Tickets: an open one of the high-risk patient; a closed one of an at-risk patient.
  openTicketId = randomUUID();
  const ticketSql = `INSERT INTO tickets (tenant_id, id, number, type, status, title, patient_id, kpi_due_at, created_at)
                     VALUES ($1, $2, $3, 'ALERT', $4, 'Check', $5, $6, $6)`;
  await owner(ticketSql, [tenantId, openTicketId, 1, 'PROCESSING', ids.high, ago(9)]);
  await owner(ticketSql, [tenantId, randomUUID(), 2, 'SUCCESS', ids.atRiskFresh, ago(8)]);

  // Watches: the no-data patient's stopped syncing; patient A's (NORMAL) is online.
  const deviceSql = `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, app_status)
                     VALUES ($1, $2, 'V19', $3, $4, $5, $6)`;
  await owner(deviceSql, [tenantId, randomUUID(), 'SN-1', 'AA:00:00:00:00:01', ids.noData, 'NO_SYNC']);
  await owner(deviceSql, [tenantId, randomUUID(), 'SN-2', 'AA:00:00:00:00:02', org.patientA.id, 'ONLINE']);
  // A watch in stock says nothing about anyone.
  await owner(
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address) VALUES ($1, $2, 'V19', 'SN-3', 'AA:00:00:00:00:03')`,
    [tenantId, randomUUID()],
  );
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const list = async (token: string, query: string) => {
  const response = await call(app, token, 'GET', `/account/patients?size=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>().data;
};

describe('sorting by severity', () => {
  it('puts the open SOS case first, then SOS, high risk, at risk, no data and normal, freshest reading first', async () => {
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const page = await list(token, 'scope=center&sortField=severity&sortType=desc');
    expect(page.items.slice(0, 7).map((row) => row.id)).toEqual([
      ids.openCase,
      ids.sos,
      ids.high,
      ids.atRiskFresh,
      ids.atRiskOld,
      ids.noData,
      ids.normalRead,
    ]);
    // The normal patients without any reading come last.
    expect(new Set(page.items.slice(7).map((row) => row.id))).toEqual(
      new Set([org.patientA.id, ids.normalNever]),
    );
    expect(page.items.map((row) => row.attention)).toEqual([
      'OPEN_SOS_CASE',
      'SOS',
      'HIGH_RISK',
      'AT_RISK',
      'AT_RISK',
      'NO_DATA',
      'NORMAL',
      'NORMAL',
      'NORMAL',
    ]);
    // Ascending is the exact reverse.
    const reversed = await list(token, 'scope=center&sortField=severity&sortType=asc');
    expect(reversed.items.map((row) => row.id)).toEqual(page.items.map((row) => row.id).reverse());
  });

  it('gives each row what crossed, the last reading and its age, the open case and the open ticket', async () => {
    const token = await logInAs(app, org.tenant.code, org.operatorA);
    const page = await list(token, 'sortField=severity&sortType=desc');
    const byId = new Map(page.items.map((row) => [row.id, row]));
    expect(byId.get(ids.high)).toMatchObject({
      status: 'HIGH_RISK',
      lastReadingAt: ago(10).toISOString(),
      lastReadingAgeSeconds: 600,
      crossed: {
        alertId: openAlertId,
        type: 'HEART_RATE',
        level: 'HIGH_RISK',
        readings: [{ measure: 'HEART_RATE', value: 151, measuredAt: ago(12).toISOString() }],
        raisedAt: ago(12).toISOString(),
      },
      openSosCaseId: null,
      openTicketId,
      noData: false,
    });
    expect(byId.get(ids.openCase)).toMatchObject({ openSosCaseId: openCaseId, attention: 'OPEN_SOS_CASE' });
    // A closed case, a resolved alert and a closed ticket are not open.
    expect(byId.get(ids.sos)).toMatchObject({ openSosCaseId: null, crossed: null, attention: 'SOS' });
    expect(byId.get(ids.atRiskOld)).toMatchObject({ crossed: null, lastReadingAgeSeconds: 1800 });
    expect(byId.get(ids.atRiskFresh)).toMatchObject({ openTicketId: null });
    expect(byId.get(ids.noData)).toMatchObject({ noData: true, attention: 'NO_DATA' });
    expect(byId.get(org.patientA.id)).toMatchObject({
      noData: false,
      lastReadingAt: null,
      lastReadingAgeSeconds: null,
    });
    // Deleted accounts are never listed.
    expect(byId.has(ids.deleted)).toBe(false);
  });
});

describe('mine and center', () => {
  const doctorAPatients = () =>
    new Set([
      ids.openCase,
      ids.high,
      ids.atRiskFresh,
      ids.atRiskOld,
      ids.noData,
      ids.normalRead,
      org.patientA.id,
    ]);
  const centerA = () => new Set([...doctorAPatients(), ids.sos, ids.normalNever]);

  it('mine is a doctor’s care team; center is everything the doctor sees', async () => {
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const mine = await list(token, 'scope=mine&sortField=severity&sortType=desc');
    expect(new Set(mine.items.map((row) => row.id))).toEqual(doctorAPatients());
    expect(mine.total).toBe(doctorAPatients().size);
    const center = await list(token, 'scope=center');
    expect(new Set(center.items.map((row) => row.id))).toEqual(centerA());
  });

  it('mine is an assistant’s doctors’ patients', async () => {
    const token = await logInAs(app, org.tenant.code, org.assistantA);
    const mine = await list(token, 'scope=mine');
    expect(new Set(mine.items.map((row) => row.id))).toEqual(doctorAPatients());
    const center = await list(token, 'scope=center');
    expect(new Set(center.items.map((row) => row.id))).toEqual(centerA());
  });

  it('mine of a caller on no care team is empty; another center’s doctor keeps to what they see', async () => {
    const operator = await logInAs(app, org.tenant.code, org.operatorA);
    expect((await list(operator, 'scope=mine')).total).toBe(0);
    const doctorB = await logInAs(app, org.tenant.code, org.doctorB);
    await owner(
      `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`,
      [org.tenant.id, ids.high, org.doctorB.id],
    );
    try {
      // Linked to a center-A patient, doctor B still sees only center B.
      expect((await list(doctorB, 'scope=mine')).total).toBe(0);
    } finally {
      await owner(`DELETE FROM patient_doctors WHERE patient_id = $1 AND doctor_id = $2`, [
        ids.high,
        org.doctorB.id,
      ]);
    }
  });

  it('audits the read, naming the patients shown and the scope', async () => {
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const response = await call(
      app,
      token,
      'GET',
      '/account/patients?scope=mine&sortField=severity&sortType=desc&size=3',
    );
    expect(response.statusCode).toBe(200);
    const [row] = await asOwner<{ details: { patientIds: string[]; scope: string; total: number } }>(
      testDb.ownerUrl,
      `SELECT details FROM audit_log WHERE action = 'PATIENT_LISTED' AND actor_user_id = $1 ORDER BY occurred_at DESC, id DESC LIMIT 1`,
      [org.doctorA.id],
    );
    expect(row?.details).toMatchObject({ scope: 'mine', total: doctorAPatients().size });
    expect(row?.details.patientIds).toEqual([ids.openCase, ids.high, ids.atRiskFresh]);
  });
});

describe('dashboard counts equal the list for the same scope', () => {
  const STATUSES = ['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS'] as const;
  type Counts = Record<(typeof STATUSES)[number] | 'total', number>;

  async function expectCountsEqualList(token: string, countPath: string, scope: 'mine' | 'center') {
    const separator = countPath.includes('?') ? '&' : '?';
    const response = await call(app, token, 'GET', `${countPath}${separator}scope=${scope}`);
    expect(response.statusCode, response.body).toBe(200);
    const counts = response.json<{ data: Counts }>().data;
    for (const status of STATUSES)
      expect((await list(token, `scope=${scope}&status=${status}`)).total, `${scope} ${status}`).toBe(
        counts[status],
      );
    expect((await list(token, `scope=${scope}`)).total).toBe(counts.total);
    return counts;
  }

  it('for a doctor, an assistant and an operator, in both scopes', async () => {
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const mine = await expectCountsEqualList(doctor, '/account/doctor/getCountPatientStatus', 'mine');
    expect(mine).toEqual({ NORMAL: 3, AT_RISK: 2, HIGH_RISK: 2, SOS: 0, total: 7 });
    const center = await expectCountsEqualList(doctor, '/account/doctor/getCountPatientStatus', 'center');
    expect(center).toEqual({ NORMAL: 4, AT_RISK: 2, HIGH_RISK: 2, SOS: 1, total: 9 });
    // The doctor's default stays their care team.
    const plain = await call(app, doctor, 'GET', '/account/doctor/getCountPatientStatus');
    expect(plain.json<{ data: Counts }>().data).toEqual(mine);

    const assistant = await logInAs(app, org.tenant.code, org.assistantA);
    expect(
      await expectCountsEqualList(assistant, '/account/doctor-assistant/get-count-patient-status', 'mine'),
    ).toEqual(mine);
    expect(
      await expectCountsEqualList(assistant, '/account/doctor-assistant/get-count-patient-status', 'center'),
    ).toEqual(center);

    const operator = await logInAs(app, org.tenant.code, org.operator);
    const everything = await expectCountsEqualList(
      operator,
      '/account/operator/getCountPatientStatus',
      'center',
    );
    expect(everything.total).toBe(10); // both centers
    await expectCountsEqualList(operator, '/account/operator/getCountPatientStatus', 'mine');
    // An operator's default stays everything they see.
    const plain2 = await call(app, operator, 'GET', '/account/operator/getCountPatientStatus');
    expect(plain2.json<{ data: Counts }>().data).toEqual(everything);
  });
});

// Runs last: the patients it adds would change the fixed lists and counts above.
describe('the same severity: the newest open case first', () => {
  const caseIds = {} as Record<'newest' | 'middle' | 'middleTie', string>;

  beforeAll(async () => {
    const tenantId = org.tenant.id;
    const add = async (key: keyof typeof caseIds, lastReadingAt: Date, openedAt: Date) => {
      const patient = await createPatient(testDb.database, tenantId, {
        healthCenterId: org.centerA.id,
        firstName: key,
        lastName: 'Case',
        status: 'SOS',
        lastReadingAt,
      });
      caseIds[key] = patient.id;
      await owner(
        `INSERT INTO sos_cases (tenant_id, id, patient_id, status, reason, source, opened_at, kpi_due_at)
         VALUES ($1, $2, $3, 'NEW', 'SOS_BUTTON', 'SOS_BUTTON', $4, $4)`,
        [tenantId, randomUUID(), patient.id, openedAt],
      );
    };
    // Last reading order would be middle, the fixture's open case, middleTie, newest: the case's
    // open time must decide first, the last reading only between cases opened together.
    await add('newest', ago(50), ago(2));
    await add('middle', ago(1), ago(20));
    await add('middleTie', ago(30), ago(20));
  });

  it('orders open cases by open time, newest first, then by the freshest reading; asc is the reverse', async () => {
    const token = await logInAs(app, org.tenant.code, org.operatorA);
    const page = await list(token, 'scope=center&sortField=severity&sortType=desc');
    expect(page.items.slice(0, 5).map((row) => row.id)).toEqual([
      caseIds.newest,
      caseIds.middle,
      caseIds.middleTie,
      ids.openCase,
      ids.sos,
    ]);
    const reversed = await list(token, 'scope=center&sortField=severity&sortType=asc');
    expect(reversed.items.map((row) => row.id)).toEqual(page.items.map((row) => row.id).reverse());
  });
});
