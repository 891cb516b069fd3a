import { PROFILE_HEADER, SUB_USER_LIMIT, type AppProfile, type SubUser } from '@rpm/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { logInAs, newPatient, storedReadings, vitalsOrganisation } from '../vitals/test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-06-10T08:00:00Z'));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let holderToken: string;
let strangerToken: string;
let operatorToken: string;
/** A patient (with its own login) whose invitation the holder's account confirmed. */
let followed: Awaited<ReturnType<typeof newPatient>>;
/** Another holder's sub-user: the holder must never reach it. */
let othersSubUser: SubUser;

/** Calls the API as `token`, naming a profile when given. */
function call(token: string, method: NonNullable<InjectOptions['method']>, url: string, options: { profile?: string; payload?: unknown } = {}) {
  return app.inject({
    method,
    url,
    ...(options.payload === undefined ? {} : { payload: options.payload as InjectOptions['payload'] }),
    ...(options.profile === undefined ? {} : { headers: { [PROFILE_HEADER]: options.profile } }),
    ...withSession(token),
  });
}
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
const dataOf = <T,>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
const codeOf = (response: LightMyRequestResponse) => response.json<{ code: string }>().code;

const subUserBody = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Bao',
  lastName: 'Tran',
  gender: 'MALE',
  birthday: '2015-04-02',
  relation: 'CHILD',
  smoking: false,
  treatedConditions: ['DIABETES'],
  ...overrides,
});

const patientRows = (where: string, values: unknown[]) =>
  asOwner<{
    id: string;
    user_id: string | null;
    holder_user_id: string | null;
    account_kind: string;
    account_state: string;
    health_center_id: string | null;
    patient_code: string;
    relation: string | null;
    smoking: boolean | null;
    treated_conditions: string[];
    purge_after: Date | null;
  }>(testDb.ownerUrl, `SELECT * FROM patients WHERE ${where}`, values);
const auditActions = (targetId: string) =>
  asOwner<{ action: string; actor_user_id: string | null; details: Record<string, unknown> }>(
    testDb.ownerUrl,
    'SELECT action, actor_user_id, details FROM audit_log WHERE target_id = $1 ORDER BY occurred_at, id',
    [targetId],
  );
const sosCasesOf = (patientId: string) =>
  asOwner<{ id: string }>(testDb.ownerUrl, 'SELECT id FROM sos_cases WHERE patient_id = $1', [patientId]);

/** A reading the app enters by hand, one minute ago by the test clock. */
const manualEntry = (value: number) => ({
  measure: 'HEART_RATE',
  value,
  measuredAt: new Date(clock.now().getTime() - MINUTE).toISOString(),
});

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  holderToken = await logInAs(app, org.tenant.code, org.patientUser);
  operatorToken = await logInAs(app, org.tenant.code, org.operatorA);
  const strangerUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerB.id });
  await newPatient(testDb, org.tenant.id, org.centerB.id, { userId: strangerUser.id });
  strangerToken = await logInAs(app, org.tenant.code, strangerUser);
  othersSubUser = dataOf<SubUser>(await call(strangerToken, 'POST', '/health/me/sub-users', { payload: subUserBody({ firstName: 'Other' }) }));

  const followedUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerB.id });
  followed = await newPatient(testDb, org.tenant.id, org.centerB.id, { userId: followedUser.id, firstName: 'Hoa', lastName: 'Le' });
  // The confirmed invitation (the grant follows from it by the database's trigger); heart rate hidden.
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status,
                                   follower_user_id, confirmed_at, hidden_kinds)
     VALUES ($1, $2, $3, 'CARING', 'Anh', '0903000001', 'FRIEND', 'CONFIRMED', $4, now(), '{HEART_RATE}')`,
    [org.tenant.id, uuidv7(), followed.id, org.patientUser.id],
  );
  await asOwner(
    testDb.ownerUrl,
    `INSERT INTO readings (tenant_id, patient_id, measure, value, source, measured_at, received_at)
     VALUES ($1, $2, 'HEART_RATE', 71, 'MANUAL', $3, $3), ($1, $2, 'SPO2', 97, 'MANUAL', $3, $3)`,
    [org.tenant.id, followed.id, new Date(clock.now().getTime() - HOUR)],
  );
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('sub-users', () => {
  let subUser: SubUser;

  it('creates a sub-user held by the account, in the holder’s center, numbered like every patient, audited', async () => {
    const response = await call(holderToken, 'POST', '/health/me/sub-users', { payload: subUserBody() });
    expect(response.statusCode, response.body).toBe(200);
    subUser = dataOf<SubUser>(response);
    expect(subUser).toMatchObject({ firstName: 'Bao', lastName: 'Tran', relation: 'CHILD', smoking: false, treatedConditions: ['DIABETES'], status: 'NORMAL' });
    const [row] = await patientRows('id = $1', [subUser.id]);
    expect(row).toMatchObject({
      user_id: null,
      holder_user_id: org.patientUser.id,
      account_kind: 'SUB_USER',
      account_state: 'ACTIVE',
      health_center_id: org.centerA.id,
      patient_code: subUser.patientCode,
      relation: 'CHILD',
      treated_conditions: ['DIABETES'],
    });
    expect(subUser.patientCode).toMatch(/^[A-Z]+\d+$/);
    expect(subUser.patientCode).not.toBe(othersSubUser.patientCode);
    const audits = await auditActions(subUser.id);
    expect(audits.map((audit) => [audit.action, audit.actor_user_id])).toEqual([['SUB_USER_CREATED', org.patientUser.id]]);

    const listed = await call(holderToken, 'GET', '/health/me/sub-users');
    expect(dataOf<SubUser[]>(listed).map((item) => item.id)).toEqual([subUser.id]);
  });

  it('refuses bad input with the field and writes nothing', async () => {
    const before = await patientRows('holder_user_id = $1', [org.patientUser.id]);
    for (const bad of [{ firstName: 'B4o' }, { relation: 'COUSIN' }, { birthday: '2999-01-01' }, { treatedConditions: ['DIABETES', 'DIABETES'] }, { smoking: 'yes' }]) {
      const response = await call(holderToken, 'POST', '/health/me/sub-users', { payload: subUserBody(bad) });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(codeOf(response)).toBe('common.invalidParameter');
    }
    expect(await patientRows('holder_user_id = $1', [org.patientUser.id])).toHaveLength(before.length);
  });

  it('changes a sub-user’s profile; another account’s sub-user is not found and stays as it was', async () => {
    const changed = await call(holderToken, 'PUT', `/health/me/sub-users/${subUser.id}`, {
      payload: subUserBody({ firstName: 'Binh', smoking: true, treatedConditions: ['HEART_DISEASE', 'HIGH_BLOOD_PRESSURE'] }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(dataOf<SubUser>(changed)).toMatchObject({ id: subUser.id, firstName: 'Binh', smoking: true, treatedConditions: ['HEART_DISEASE', 'HIGH_BLOOD_PRESSURE'] });

    for (const [method, payload] of [['PUT', subUserBody({ firstName: 'Taken' })], ['DELETE', undefined]] as const) {
      const refused = await call(holderToken, method, `/health/me/sub-users/${othersSubUser.id}`, { payload });
      expect(refused.statusCode).toBe(404);
      expect(codeOf(refused)).toBe('subUser.notFound');
    }
    // The holder's own record and a patient it follows are not sub-users either.
    for (const id of [org.patientA.id, followed.id, randomUUID()]) {
      const refused = await call(holderToken, 'DELETE', `/health/me/sub-users/${id}`);
      expect(codeOf(refused)).toBe('subUser.notFound');
    }
    const [other] = await patientRows('id = $1', [othersSubUser.id]);
    expect(other).toMatchObject({ account_state: 'ACTIVE', holder_user_id: expect.any(String) as string });
    expect(dataOf<SubUser[]>(await call(strangerToken, 'GET', '/health/me/sub-users'))[0]?.firstName).toBe('Other');
  });

  it('holds at most the limit of sub-users; a deleted one leaves the list and frees its place', async () => {
    const held = dataOf<SubUser[]>(await call(holderToken, 'GET', '/health/me/sub-users'));
    for (let index = held.length; index < SUB_USER_LIMIT; index += 1) {
      const added = await call(holderToken, 'POST', '/health/me/sub-users', { payload: subUserBody({ firstName: `Con`, lastName: `Thu ${'I'.repeat(index + 1)}` }) });
      expect(added.statusCode, added.body).toBe(200);
    }
    const over = await call(holderToken, 'POST', '/health/me/sub-users', { payload: subUserBody({ firstName: 'Extra' }) });
    expect(over.statusCode).toBe(409);
    expect(codeOf(over)).toBe('subUser.limitReached');
    expect(await patientRows(`holder_user_id = $1 AND first_name = 'Extra'`, [org.patientUser.id])).toEqual([]);

    const list = dataOf<SubUser[]>(await call(holderToken, 'GET', '/health/me/sub-users'));
    const last = list.at(-1);
    if (last === undefined) throw new Error('no sub-user');
    const deleted = await call(holderToken, 'DELETE', `/health/me/sub-users/${last.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const [row] = await patientRows('id = $1', [last.id]);
    expect(row?.account_state).toBe('DISABLED');
    expect(row?.purge_after?.toISOString()).toBe(new Date(clock.now().getTime() + 30 * DAY).toISOString());
    expect((await auditActions(last.id)).map((audit) => audit.action)).toContain('SUB_USER_DELETED');
    const after = dataOf<SubUser[]>(await call(holderToken, 'GET', '/health/me/sub-users'));
    expect(after.map((item) => item.id)).not.toContain(last.id);
    expect(after).toHaveLength(SUB_USER_LIMIT - 1);
    // A deleted sub-user is no longer a profile, and cannot be deleted again.
    expect(codeOf(await call(holderToken, 'GET', '/health/me/dashboard', { profile: last.id }))).toBe('profile.notFound');
    expect(codeOf(await call(holderToken, 'DELETE', `/health/me/sub-users/${last.id}`))).toBe('subUser.notFound');
  });

  it('is the account holder’s: a staff session has no patient profile', async () => {
    for (const [method, url] of [['GET', '/health/me/sub-users'], ['POST', '/health/me/sub-users'], ['GET', '/health/me/profiles']] as const) {
      const response = await call(operatorToken, method, url, { payload: method === 'POST' ? subUserBody() : undefined });
      expect(response.statusCode).toBe(404);
      expect(codeOf(response)).toBe('health.noPatientProfile');
    }
  });
});

describe('GET /health/me/profiles', () => {
  it('lists the own record first, then the sub-users, then the followed patients with what each may do', async () => {
    const response = await call(holderToken, 'GET', '/health/me/profiles');
    expect(response.statusCode, response.body).toBe(200);
    const profiles = dataOf<AppProfile[]>(response);
    const subUsers = dataOf<SubUser[]>(await call(holderToken, 'GET', '/health/me/sub-users'));
    expect(profiles.map((profile) => [profile.kind, profile.patientId])).toEqual([
      ['OWN', org.patientA.id],
      ...subUsers.map((item) => ['SUB_USER', item.id]),
      ['FOLLOWED', followed.id],
    ]);
    expect(profiles[0]).toMatchObject({ readOnly: false, canRaiseSos: true, hiddenKinds: [] });
    expect(profiles[1]).toMatchObject({ readOnly: false, canRaiseSos: false, name: 'Binh Tran' });
    expect(profiles.at(-1)).toMatchObject({ name: 'Hoa Le', readOnly: true, canRaiseSos: false, hiddenKinds: ['HEART_RATE'] });
    const [read] = await asOwner<{ details: { patientIds: string[] } }>(
      testDb.ownerUrl,
      `SELECT details FROM audit_log WHERE action = 'APP_PROFILES_VIEWED' AND request_id = $1`,
      [String(response.headers['x-request-id'])],
    );
    expect(read?.details.patientIds).toEqual(profiles.map((profile) => profile.patientId));
  });

  it('shows a stranger only its own records', async () => {
    const profiles = dataOf<AppProfile[]>(await call(strangerToken, 'GET', '/health/me/profiles'));
    expect(profiles.map((profile) => profile.kind)).toEqual(['OWN', 'SUB_USER']);
    expect(profiles.map((profile) => profile.patientId)).not.toContain(followed.id);
  });
});

describe('the profile header on self calls', () => {
  const firstSubUser = async () => {
    const [first] = dataOf<SubUser[]>(await call(holderToken, 'GET', '/health/me/sub-users'));
    if (first === undefined) throw new Error('no sub-user');
    return first;
  };
  const readTarget = async (response: LightMyRequestResponse) => {
    const [row] = await asOwner<{ target_id: string }>(
      testDb.ownerUrl,
      `SELECT target_id FROM audit_log WHERE action = 'HEALTH_DATA_VIEWED' AND request_id = $1`,
      [String(response.headers['x-request-id'])],
    );
    return row?.target_id;
  };
  const series = (measure: string) =>
    `/health/me/data?measure=${measure}&view=day&date=${clock.now().toISOString().slice(0, 10)}`;

  it('reads the own record without it or naming it, a held sub-user, and a followed patient (audited as a read of that patient)', async () => {
    const subUser = await firstSubUser();
    for (const [profile, expected] of [
      [undefined, org.patientA.id],
      [org.patientA.id, org.patientA.id],
      [subUser.id, subUser.id],
      [followed.id, followed.id],
    ] as const) {
      const response = await call(holderToken, 'GET', series('SPO2'), { profile });
      expect(response.statusCode, response.body).toBe(200);
      expect(await readTarget(response)).toBe(expected);
      for (const url of ['/health/me/dashboard', '/health/me/latest', '/health/me/sleep', '/health/me/weight']) {
        const other = await call(holderToken, 'GET', url, { profile });
        expect(other.statusCode, `${url}: ${other.body}`).toBe(200);
        expect(await readTarget(other)).toBe(expected);
      }
    }
    const followedSpo2 = dataOf<{ points: unknown[] }>(await call(holderToken, 'GET', series('SPO2'), { profile: followed.id }));
    expect(followedSpo2.points).toHaveLength(1);
  });

  it('does not show a followed patient the data kinds it hides from this follower', async () => {
    const hidden = dataOf<{ points: unknown[] }>(await call(holderToken, 'GET', series('HEART_RATE'), { profile: followed.id }));
    expect(hidden.points).toEqual([]);
  });

  it('answers profile.notFound for a patient the account may not use, or a header that names no patient', async () => {
    for (const profile of [org.patientB.id, othersSubUser.id, randomUUID(), 'not-a-uuid']) {
      for (const [method, url, payload] of [
        ['GET', series('SPO2'), undefined],
        ['GET', '/health/me/dashboard', undefined],
        ['POST', '/health/manual', manualEntry(80)],
        ['POST', '/health/alerts/sos', { source: 'SOS_BUTTON' }],
        ['GET', '/health/me/notifications', undefined],
      ] as const) {
        const response = await call(holderToken, method, url, { profile, payload });
        expect(response.statusCode, `${method} ${url} ${profile}`).toBe(404);
        expect(codeOf(response)).toBe('profile.notFound');
      }
    }
    expect(await sosCasesOf(org.patientB.id)).toEqual([]);
  });

  it('ignores the header for staff sessions', async () => {
    const response = await call(operatorToken, 'GET', `/health/patients/${org.patientA.id}/latest`, { profile: randomUUID() });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('stores a reading entered for a sub-user on the sub-user, not on the holder', async () => {
    // Readings are taken from the sub-user's creation on: an hour later (a new login by then).
    clock.advance(HOUR);
    holderToken = await logInAs(app, org.tenant.code, org.patientUser);
    const subUser = await firstSubUser();
    const holderBefore = await storedReadings(testDb.ownerUrl, org.patientA.id);
    const response = await call(holderToken, 'POST', '/health/manual', { profile: subUser.id, payload: manualEntry(88) });
    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf<{ patientId: string }>(response).patientId).toBe(subUser.id);
    expect((await storedReadings(testDb.ownerUrl, subUser.id)).map((row) => [row.measure, row.value])).toEqual([['HEART_RATE', 88]]);
    expect(await storedReadings(testDb.ownerUrl, org.patientA.id)).toEqual(holderBefore);

    // Naming the own record is the same as naming none.
    const own = await call(holderToken, 'POST', '/health/manual', { profile: org.patientA.id, payload: manualEntry(66) });
    expect(dataOf<{ patientId: string }>(own).patientId).toBe(org.patientA.id);
    expect((await storedReadings(testDb.ownerUrl, org.patientA.id)).map((row) => row.value)).toContain(66);
    expect((await storedReadings(testDb.ownerUrl, subUser.id)).map((row) => row.value)).toEqual([88]);
  });

  it('keeps a followed patient read only: writes answer profile.readOnly and store nothing', async () => {
    const before = await storedReadings(testDb.ownerUrl, followed.id);
    for (const [method, url, payload] of [
      ['POST', '/health/manual', manualEntry(90)],
      ['POST', '/health/alerts/i-am-fine', undefined],
      ['POST', '/health/alerts/call-followers', undefined],
      ['POST', '/health/alerts/sos', { source: 'SOS_BUTTON' }],
      ['POST', '/health/me/notifications/read-all', undefined],
      ['POST', '/health/me/devices', { model: 'V19', serialNumber: 'S-FOLLOWED' }],
      ['POST', '/health/me/devices/unbind', { deviceId: randomUUID() }],
    ] as const) {
      const response = await call(holderToken, method, url, { profile: followed.id, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(codeOf(response)).toBe('profile.readOnly');
    }
    expect(await storedReadings(testDb.ownerUrl, followed.id)).toEqual(before);
    expect(await sosCasesOf(followed.id)).toEqual([]);
  });

  it('never raises SOS for a sub-user (SOS button, fall, call followers)', async () => {
    const subUser = await firstSubUser();
    for (const [url, payload] of [
      ['/health/alerts/sos', { source: 'SOS_BUTTON' }],
      ['/health/alerts/sos', { source: 'FALL' }],
      ['/health/alerts/call-followers', undefined],
    ] as const) {
      const response = await call(holderToken, 'POST', url, { profile: subUser.id, payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(409);
      expect(codeOf(response)).toBe('sosCase.subUser');
    }
    expect(await sosCasesOf(subUser.id)).toEqual([]);
    // The sub-user's own "I am fine" answer is the holder's to give.
    const fine = await call(holderToken, 'POST', '/health/alerts/i-am-fine', { profile: subUser.id });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('raises SOS for the own record when the header names it', async () => {
    const response = await call(holderToken, 'POST', '/health/alerts/sos', { profile: org.patientA.id, payload: { source: 'SOS_BUTTON' } });
    expect(response.statusCode, response.body).toBe(200);
    expect((await sosCasesOf(org.patientA.id)).map((row) => row.id)).toEqual([dataOf<{ sosCaseId: string }>(response).sosCaseId]);
  });
});
