import type { PatientDetail, PatientSummary, SubUser } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { DAY, ManualClock } from '../../lib/clock.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { purgeDeletedPatients } from '../patients/purge-job.js';
import { call, logInAs, vitalsOrganisation } from '../vitals/test-support.js';

/** The console's marks of sub-users: the patient list and profile, and a holder's sub-users. */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let adminToken: string;
let subUser: SubUser;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await vitalsOrganisation(testDb);
  adminToken = await logInAs(app, org.tenant.code, org.admin);
  const holderToken = await logInAs(app, org.tenant.code, org.patientUser);
  const created = await call(app, holderToken, 'POST', '/health/me/sub-users', {
    firstName: 'Bao',
    lastName: 'Tran',
    gender: 'MALE',
    birthday: '2015-04-02',
    relation: 'CHILD',
    smoking: false,
    treatedConditions: [],
  });
  if (created.statusCode !== 200) throw new Error(created.body);
  subUser = dataOf<SubUser>(created);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
const dataOf = <T,>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
const holderNameOf = () => `${org.patientA.firstName} ${org.patientA.lastName}`;

it('marks a sub-user in the patient list and profile with its holder; a main account has none', async () => {
  const holderName = holderNameOf();
  const listed = dataOf<{ items: PatientSummary[] }>(
    await call(app, adminToken, 'GET', `/account/patients?search=${subUser.patientCode}`),
  ).items;
  expect(listed.map((item) => [item.id, item.accountKind, item.holder])).toEqual([
    [subUser.id, 'SUB_USER', { name: holderName, patientId: org.patientA.id }],
  ]);
  const detail = await call(app, adminToken, 'GET', `/account/patients/${subUser.id}`);
  expect(detail.statusCode, detail.body).toBe(200);
  expect(dataOf<PatientDetail>(detail)).toMatchObject({
    accountKind: 'SUB_USER',
    holder: { name: holderName, patientId: org.patientA.id },
    userId: null,
    healthCenter: { id: org.centerA.id },
  });
  const main = dataOf<PatientDetail>(await call(app, adminToken, 'GET', `/account/patients/${org.patientA.id}`));
  expect(main).toMatchObject({ accountKind: 'MAIN', holder: null });
});

it('lists the sub-users of a patient’s account for staff who see the patient, audited', async () => {
  const response = await call(app, adminToken, 'GET', `/account/patients/${org.patientA.id}/sub-users`);
  expect(response.statusCode, response.body).toBe(200);
  expect(dataOf<SubUser[]>(response).map((item) => [item.id, item.relation])).toEqual([[subUser.id, 'CHILD']]);
  const [audit] = await asOwner<{ action: string; details: { patientIds: string[] } }>(
    testDb.ownerUrl,
    'SELECT action, details FROM audit_log WHERE request_id = $1',
    [String(response.headers['x-request-id'])],
  );
  expect(audit).toEqual({ action: 'SUB_USERS_VIEWED', details: expect.objectContaining({ patientIds: [org.patientA.id, subUser.id] }) as unknown });

  // A patient without a login holds none.
  const none = await call(app, adminToken, 'GET', `/account/patients/${org.patientB.id}/sub-users`);
  expect(dataOf<SubUser[]>(none)).toEqual([]);
});

it('answers patient.notFound to staff of another center, and refuses roles without user.view', async () => {
  const url = `/account/patients/${org.patientA.id}/sub-users`;
  const sameCenter = await call(app, await logInAs(app, org.tenant.code, org.operatorA), 'GET', url);
  expect(dataOf<SubUser[]>(sameCenter).map((item) => item.id)).toEqual([subUser.id]);
  const hidden = await call(app, await logInAs(app, org.tenant.code, org.adminB), 'GET', url);
  expect(hidden.statusCode).toBe(404);
  expect(hidden.json<{ code: string }>().code).toBe('patient.notFound');
  const patientSession = await call(app, await logInAs(app, org.tenant.code, org.patientUser), 'GET', url);
  expect(patientSession.statusCode).toBe(403);
  expect(patientSession.json<{ code: string }>().code).toBe('auth.permissionDenied');
});

it('deletes a holder’s sub-users with the holder’s account, and the purge job removes them 30 days later', async () => {
  const deleted = await call(app, adminToken, 'DELETE', `/account/patients/${org.patientA.id}`, {
    confirmPatientCode: org.patientA.patientCode,
  });
  expect(deleted.statusCode, deleted.body).toBe(200);
  const rows = await asOwner<{ id: string; account_state: string; purge_after: Date | null }>(
    testDb.ownerUrl,
    'SELECT id, account_state, purge_after FROM patients WHERE id = ANY($1::uuid[]) ORDER BY id',
    [[org.patientA.id, subUser.id]],
  );
  expect(new Set(rows.map((row) => row.account_state))).toEqual(new Set(['DISABLED']));
  expect(new Set(rows.map((row) => row.purge_after?.toISOString()))).toHaveProperty('size', 1);
  const [audit] = await asOwner<{ details: { subUserIds?: string[] } }>(
    testDb.ownerUrl,
    `SELECT details FROM audit_log WHERE action = 'PATIENT_DELETION_REQUESTED' AND target_id = $1`,
    [org.patientA.id],
  );
  expect(audit?.details.subUserIds).toEqual([subUser.id]);

  const dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-sub-user-purge-'));
  try {
    const later = new ManualClock(new Date(Date.now() + 31 * DAY));
    expect(await purgeDeletedPatients(testDb.database, later, createLocalFileStorage(dataDir))).toBe(2);
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM patients WHERE id = $1', [subUser.id])).toEqual([]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
