import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const VALID_PROFILE = {
  firstName: 'Linh',
  middleName: 'Thi',
  lastName: 'Nguyen',
  nickName: 'Lin',
  gender: 'FEMALE',
  birthday: '1990-04-12',
  bloodType: 'O+',
  skinColor: 'light',
  heightCm: 162.5,
  weightKg: 54,
  address: { country: 'Vietnam', province: 'Ha Noi', district: 'Ba Dinh', ward: 'Kim Ma', line: '12 Kim Ma' },
  medicalNotes: 'Asthma since childhood',
};

/** A user of a new tenant, logged in; `role` defaults to the factory's DOCTOR. */
async function signedInUser(overrides: Parameters<typeof createTenantUser>[2] = {}) {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, overrides);
  const token = await logIn(app, tenant.code, user.email ?? '');
  return { tenant, user, token };
}

const userRow = async (id: string) => (await asOwner(testDb.ownerUrl, 'SELECT * FROM users WHERE id = $1', [id]))[0];
const auditRows = (subjectId: string, action: string) =>
  asOwner<{ details: Record<string, unknown>; actor_user_id: string; tenant_id: string }>(
    testDb.ownerUrl,
    'SELECT details, actor_user_id, tenant_id FROM audit_log WHERE subject_user_id = $1 AND action = $2 ORDER BY occurred_at',
    [subjectId, action],
  );

const yearsAgo = (years: number, extraDays = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + extraDays);
  return date.toISOString().slice(0, 10);
};

describe('GET /account/me/profile/get and /account/user/get', () => {
  it('returns the caller’s own profile on both paths', async () => {
    const { user, token } = await signedInUser({ role: 'OPERATOR', phone: '0981112233', firstName: 'Minh', lastName: 'Tran' });
    for (const url of ['/account/me/profile/get', '/account/user/get']) {
      const response = await app.inject({ method: 'GET', url, ...withSession(token) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        resultCode: 200,
        data: { id: user.id, role: 'OPERATOR', email: user.email, phone: '0981112233', firstName: 'Minh', lastName: 'Tran', hasAvatar: false, language: 'en', timeZone: 'Asia/Ho_Chi_Minh', status: 'ACTIVE', customRole: null },
      });
    }
  });

  it('answers platform staff with their own account, wherever they act', async () => {
    const tenant = await createTenant(testDb.database);
    const staff = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN', firstName: 'Root', lastName: 'Ops' });
    const token = await logIn(app, tenant.code, staff.email ?? '');
    const response = await app.inject({ method: 'GET', url: '/account/me/profile/get', ...withSession(token) });
    expect(response.json()).toMatchObject({ data: { id: staff.id, role: 'SUPER_ADMIN', firstName: 'Root' } });
  });

  it('needs a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/account/me/profile/get' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'auth.unauthorized' });
  });
});

describe('PUT /account/me/profile', () => {
  it('stores the profile and audits the names of the changed fields, never their values', async () => {
    const { user, token } = await signedInUser();
    const response = await app.inject({ method: 'PUT', url: '/account/me/profile', payload: VALID_PROFILE, ...withSession(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { ...VALID_PROFILE, id: user.id, email: user.email },
    });
    const row = await userRow(user.id);
    expect(row).toMatchObject({ first_name: 'Linh', middle_name: 'Thi', gender: 'FEMALE', birthday: '1990-04-12', blood_type: 'O+', height_cm: '162.5', weight_kg: '54.0', address_line: '12 Kim Ma', medical_notes: 'Asthma since childhood' });

    const audits = await auditRows(user.id, 'ACCOUNT_PROFILE_UPDATED');
    expect(audits).toHaveLength(1);
    expect(audits[0]?.actor_user_id).toBe(user.id);
    // Every field differs from the factory's defaults, so every name is listed.
    expect(audits[0]?.details).toEqual({
      fields: [
        'firstName', 'middleName', 'lastName', 'nickName', 'gender', 'birthday', 'bloodType', 'skinColor', 'heightCm', 'weightKg',
        'address.country', 'address.province', 'address.district', 'address.ward', 'address.line', 'medicalNotes',
      ],
    });
    expect(JSON.stringify(audits[0]?.details)).not.toContain('Asthma');

    // The same profile again changes nothing and writes no audit row; one field changes one name.
    await app.inject({ method: 'PUT', url: '/account/me/profile', payload: VALID_PROFILE, ...withSession(token) });
    await app.inject({ method: 'PUT', url: '/account/me/profile', payload: { ...VALID_PROFILE, weightKg: 55.5 }, ...withSession(token) });
    const after = await auditRows(user.id, 'ACCOUNT_PROFILE_UPDATED');
    expect(after).toHaveLength(2);
    expect(after[1]?.details.fields).toEqual(['weightKg']);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['digits in the first name', { firstName: 'Linh2' }, 'body.firstName'],
    ['digits in the last name', { lastName: 'Nguyen 3' }, 'body.lastName'],
    ['digits in the middle name', { middleName: 'Th1' }, 'body.middleName'],
    ['a missing first name', { firstName: undefined }, 'body.firstName'],
    ['a blank last name', { lastName: '   ' }, 'body.lastName'],
    ['a birthday in the future', { birthday: yearsAgo(-1) }, 'body.birthday'],
    ['a birthday under 18 years ago', { birthday: yearsAgo(18, 1) }, 'body.birthday'],
    ['a missing birthday', { birthday: undefined }, 'body.birthday'],
    ['an unknown gender', { gender: 'UNKNOWN' }, 'body.gender'],
    ['an unknown blood type', { bloodType: 'C+' }, 'body.bloodType'],
    ['a zero height', { heightCm: 0 }, 'body.heightCm'],
    ['a height of 300 cm', { heightCm: 300 }, 'body.heightCm'],
    ['a weight of 1 kg', { weightKg: 1 }, 'body.weightKg'],
    ['a weight of 700 kg', { weightKg: 700 }, 'body.weightKg'],
    ['a missing address', { address: undefined }, 'body.address'],
    ['an address without a line', { address: { ...VALID_PROFILE.address, line: '' } }, 'body.address.line'],
    ['an address without a country', { address: { ...VALID_PROFILE.address, country: '' } }, 'body.address.country'],
  ];
  it.each(invalid)('refuses %s with a field error and writes nothing', async (_name, change, field) => {
    const { user, token } = await signedInUser();
    const before = await userRow(user.id);
    const response = await app.inject({ method: 'PUT', url: '/account/me/profile', payload: { ...VALID_PROFILE, ...change }, ...withSession(token) });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; message: string; fieldErrors: { field: string }[] }>();
    expect(body.code).toBe('common.invalidParameter');
    expect(body.message).toBe('Invalid request parameter');
    expect(body.fieldErrors.map((error) => error.field)).toContain(field);
    expect(await userRow(user.id)).toEqual(before);
    expect(await auditRows(user.id, 'ACCOUNT_PROFILE_UPDATED')).toHaveLength(0);
  });

  it('refuses a patient’s change to the medical part of their profile (spec §6), but not to the rest', async () => {
    const { user, token } = await signedInUser({ role: 'PATIENT' });
    const put = (body: Record<string, unknown>) => app.inject({ method: 'PUT', url: '/account/me/profile', payload: body, ...withSession(token) });
    const first = await put({ ...VALID_PROFILE, bloodType: null, medicalNotes: '' });
    expect(first.statusCode).toBe(200);
    const before = await userRow(user.id);
    for (const change of [{ bloodType: 'A+' }, { medicalNotes: 'No allergies' }]) {
      const response = await put({ ...VALID_PROFILE, bloodType: null, medicalNotes: '', ...change });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    }
    expect(await userRow(user.id)).toEqual(before);
    expect((await put({ ...VALID_PROFILE, bloodType: null, medicalNotes: '', nickName: 'Bee' })).statusCode).toBe(200);
  });

  it('accepts a birthday exactly 18 years ago', async () => {
    const { token } = await signedInUser();
    const response = await app.inject({ method: 'PUT', url: '/account/me/profile', payload: { ...VALID_PROFILE, birthday: yearsAgo(18) }, ...withSession(token) });
    expect(response.statusCode).toBe(200);
  });

  it('ignores fields the caller may not set here (id, role, email)', async () => {
    const { user, token } = await signedInUser({ role: 'COACH' });
    const response = await app.inject({
      method: 'PUT',
      url: '/account/me/profile',
      payload: { ...VALID_PROFILE, id: '00000000-0000-0000-0000-000000000000', role: 'ROOT', email: 'taken@over.example', tenantId: '00000000-0000-0000-0000-000000000000' },
      ...withSession(token),
    });
    expect(response.statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ id: user.id, role: 'COACH', email: user.email, tenant_id: user.tenantId });
  });
});

describe('PUT /account/doctor/me/profile and /account/doctor-assistant/me/profile', () => {
  it('lets a doctor update through the doctor path, and refuses every other role before reading the body', async () => {
    const doctor = await signedInUser({ role: 'DOCTOR' });
    const ok = await app.inject({ method: 'PUT', url: '/account/doctor/me/profile', payload: VALID_PROFILE, ...withSession(doctor.token) });
    expect(ok.statusCode).toBe(200);
    expect((await userRow(doctor.user.id))?.first_name).toBe('Linh');

    for (const role of ['PATIENT', 'DOCTOR_ASSISTANT', 'ADMIN'] as const) {
      const other = await signedInUser({ role });
      for (const payload of [VALID_PROFILE, { firstName: 'Bad1' }]) {
        const refused = await app.inject({ method: 'PUT', url: '/account/doctor/me/profile', payload, ...withSession(other.token) });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'auth.permissionDenied', message: "You don't have permission to access" });
      }
      expect((await userRow(other.user.id))?.first_name).toBe('Test');
    }
  });

  it('lets a doctor assistant update through the assistant path only', async () => {
    const assistant = await signedInUser({ role: 'DOCTOR_ASSISTANT' });
    const ok = await app.inject({ method: 'PUT', url: '/account/doctor-assistant/me/profile', payload: VALID_PROFILE, ...withSession(assistant.token) });
    expect(ok.statusCode).toBe(200);
    const doctor = await signedInUser({ role: 'DOCTOR' });
    const refused = await app.inject({ method: 'PUT', url: '/account/doctor-assistant/me/profile', payload: VALID_PROFILE, ...withSession(doctor.token) });
    expect(refused.statusCode).toBe(403);
    expect((await userRow(doctor.user.id))?.first_name).toBe('Test');
  });
});

describe('POST /account/me/profile/update-language', () => {
  it('stores en or vi, and the Canadian variants as en', async () => {
    const { user, token } = await signedInUser();
    const setLanguage = (lang: string) =>
      app.inject({ method: 'POST', url: '/account/me/profile/update-language', payload: { lang }, ...withSession(token) });
    for (const [lang, stored] of [['vi', 'vi'], ['can', 'en'], ['VI', 'vi'], ['en-CA', 'en']] as const) {
      const response = await setLanguage(lang);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ data: { language: stored } });
      expect((await userRow(user.id))?.language).toBe(stored);
    }
    const audits = await auditRows(user.id, 'ACCOUNT_LANGUAGE_UPDATED');
    expect(audits.map((audit) => audit.details.language)).toEqual(['vi', 'en', 'vi', 'en']);
  });

  it('refuses any other language and keeps the stored one', async () => {
    const { user, token } = await signedInUser();
    for (const lang of ['fr', 'en-US', '', 'vi-VN']) {
      const response = await app.inject({ method: 'POST', url: '/account/me/profile/update-language', payload: { lang }, headers: { 'accept-language': 'en' }, ...withSession(token) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'account.languageUnsupported', message: 'This language is not supported' });
    }
    expect((await userRow(user.id))?.language).toBe('en');
    expect(await auditRows(user.id, 'ACCOUNT_LANGUAGE_UPDATED')).toHaveLength(0);
  });
});

describe('POST /account/me/profile/update-time-zone', () => {
  it('stores a valid IANA time zone and audits it', async () => {
    const { user, token } = await signedInUser();
    const response = await app.inject({ method: 'POST', url: '/account/me/profile/update-time-zone', payload: { tz: 'America/Toronto' }, ...withSession(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { timeZone: 'America/Toronto' } });
    expect((await userRow(user.id))?.time_zone).toBe('America/Toronto');
    expect(await auditRows(user.id, 'ACCOUNT_TIME_ZONE_UPDATED')).toEqual([expect.objectContaining({ details: { timeZone: 'America/Toronto' } })]);
  });

  it('refuses an unknown zone with the spec’s message, in both languages', async () => {
    const { user, token } = await signedInUser();
    const update = (tz: string, language: string) =>
      app.inject({ method: 'POST', url: '/account/me/profile/update-time-zone', payload: { tz }, headers: { 'accept-language': language }, ...withSession(token) });
    const english = await update('Mars/Olympus_Mons', 'en');
    expect(english.statusCode).toBe(400);
    expect(english.json()).toMatchObject({ code: 'account.timeZoneUnsupported', message: 'This time zone is not supported !' });
    const vietnamese = await update('GMT+25', 'vi');
    expect(vietnamese.json()).toMatchObject({ code: 'account.timeZoneUnsupported', message: 'Múi giờ này không được hỗ trợ !' });
    const blank = await update('', 'en');
    expect(blank.json()).toMatchObject({ code: 'common.invalidParameter', fieldErrors: [expect.objectContaining({ field: 'body.tz' })] });
    expect((await userRow(user.id))?.time_zone).toBe('Asia/Ho_Chi_Minh');
    expect(await auditRows(user.id, 'ACCOUNT_TIME_ZONE_UPDATED')).toHaveLength(0);
  });
});
