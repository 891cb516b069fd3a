import { randomInt } from 'node:crypto';
import { OTP_RULES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { findPlatformTenant } from '../tenants/store.js';
import { codeIn, countTenantRows, errorOf, latestCodeTo, messagesTo, newCallerIp, poster } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock();
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const PASSWORD = 'Strong#Pass7';
const newPhone = () => `09${String(randomInt(10 ** 8)).padStart(8, '0')}`;
const newEmail = () => `person-${randomInt(10 ** 9)}@test.example`;

/** yyyy-MM-dd of `years` years ago, plus `days` (the schema counts age on today's real date). */
function yearsAgo(years: number, days = 0): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function registration(tenant: string | undefined, overrides: Record<string, unknown> = {}) {
  return {
    ...(tenant === undefined ? {} : { tenant }),
    firstName: 'Lan',
    lastName: 'Tran',
    email: newEmail(),
    phone: newPhone(),
    birthday: '1990-05-17',
    password: PASSWORD,
    purpose: 'PERSONAL_MONITORING',
    acceptTerms: true,
    acceptPrivacy: true,
    ...overrides,
  };
}

async function userByEmail(email: string) {
  const [row] = await asOwner<{ id: string; status: string; role: string; first_name: string; language: string; password_hash: string }>(
    testDb.ownerUrl,
    'SELECT id, status, role, first_name, language, password_hash FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return row;
}

async function auditOf(userId: string) {
  return asOwner<{ action: string; details: Record<string, unknown> }>(
    testDb.ownerUrl,
    'SELECT action, details FROM audit_log WHERE subject_user_id = $1 ORDER BY occurred_at, id',
    [userId],
  );
}

async function setUp(language = 'en') {
  const tenant = await createTenant(testDb.database);
  const post = poster(app, newCallerIp(), language);
  const passwordLogin = (username: string, password = PASSWORD) =>
    post('/auth/oauth-token', { tenant: tenant.code, username, password, grant_type: 'password' });
  return { tenant, post, passwordLogin };
}

describe('POST /account/register then /auth/verifyRegisterByEmailOTP', () => {
  it('registers a patient who can log in once the emailed code is verified', async () => {
    const { tenant, post, passwordLogin } = await setUp();
    const form = registration(tenant.code);
    const registered = await post('/account/register', form);
    expect(registered.json()).toEqual({ resultCode: 200, data: { status: 'UNACTIVATED', resendAfterSeconds: 60, expiresInSeconds: 300 } });
    const user = await userByEmail(form.email);
    expect(user).toMatchObject({ status: 'UNACTIVATED', role: 'PATIENT', first_name: 'Lan', language: 'en' });
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);
    expect(errorOf(await passwordLogin(form.email))).toMatchObject({ code: 'auth.accountDisabled' });

    const [mail] = await messagesTo(testDb.ownerUrl, form.email);
    expect(mail).toMatchObject({ channel: 'EMAIL', subject: `${tenant.name}: verify your email`, purpose: 'OTP_REGISTER' });
    const token = await latestCodeTo(testDb.ownerUrl, form.email);
    const verified = await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email: form.email, token });
    expect(verified.json()).toEqual({ resultCode: 200, data: { status: 'ACTIVE', awaitingApproval: false } });
    expect((await passwordLogin(form.email)).statusCode).toBe(200);

    const audit = await auditOf(user?.id ?? '');
    expect(audit.map((row) => row.action)).toEqual(['ACCOUNT_REGISTERED', 'ACCOUNT_OTP_SENT', 'ACCOUNT_VERIFIED', 'ACCOUNT_LOGIN']);
    expect(audit[0]?.details).toMatchObject({ purpose: 'PERSONAL_MONITORING', acceptedTerms: true, acceptedPrivacy: true, role: 'PATIENT' });
    expect(errorOf(await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email: form.email, token }))).toMatchObject({ code: 'otp.unverifiable' });
  });

  it('keeps a doctor UNACTIVATED with the email proven, waiting for a health-center admin', async () => {
    const { tenant, post, passwordLogin } = await setUp();
    const form = registration(tenant.code, { role: 'DOCTOR' });
    expect((await post('/account/register', form)).statusCode).toBe(200);
    const token = await latestCodeTo(testDb.ownerUrl, form.email);
    const verified = await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email: form.email, token });
    expect(verified.json()).toEqual({ resultCode: 200, data: { status: 'UNACTIVATED', awaitingApproval: true } });
    const user = await userByEmail(form.email);
    expect(user).toMatchObject({ status: 'UNACTIVATED', role: 'DOCTOR' });
    const audit = await auditOf(user?.id ?? '');
    expect(audit.find((row) => row.action === 'ACCOUNT_VERIFIED')?.details).toEqual({
      emailVerified: true,
      role: 'DOCTOR',
      status: 'UNACTIVATED',
      awaitingApproval: 'HEALTH_CENTER_ADMIN',
    });
    expect(errorOf(await passwordLogin(form.email))).toMatchObject({ code: 'auth.accountDisabled' });
    // Verified: nobody can take the email over or be sent another registration code.
    expect(errorOf(await post('/account/register', registration(tenant.code, { email: form.email })))).toMatchObject({ status: 409 });
    expect(errorOf(await post('/auth/create-verification-token', { tenant: tenant.code, email: form.email }))).toMatchObject({
      status: 409,
      code: 'account.emailExists',
    });
  });

  it('writes the code in the caller’s language and keeps it as the account’s language', async () => {
    const { tenant, post } = await setUp('vi');
    const form = registration(tenant.code);
    expect((await post('/account/register', form)).statusCode).toBe(200);
    const [mail] = await messagesTo(testDb.ownerUrl, form.email);
    expect(mail?.subject).toBe(`${tenant.name}: xác minh email của bạn`);
    expect(mail?.body).toContain('Mã xác minh của bạn là');
    expect((await userByEmail(form.email))?.language).toBe('vi');
  });

  it('refuses a wrong code and leaves the account waiting', async () => {
    const { tenant, post } = await setUp();
    const form = registration(tenant.code);
    await post('/account/register', form);
    const token = await latestCodeTo(testDb.ownerUrl, form.email);
    const wrong = await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email: form.email, token: token === '000000' ? '111111' : '000000' });
    expect(errorOf(wrong)).toMatchObject({ status: 400, code: 'otp.wrong' });
    expect((await userByEmail(form.email))?.status).toBe('UNACTIVATED');
  });
});

describe('tenants', () => {
  it('lets the same email register in two tenants, each verified in its own', async () => {
    const first = await setUp();
    const second = await setUp();
    const email = newEmail();
    expect((await first.post('/account/register', registration(first.tenant.code, { email }))).statusCode).toBe(200);
    clock.advance(OTP_RULES.resendCooldownSeconds * 1000);
    expect((await second.post('/account/register', registration(second.tenant.code, { email }))).statusCode).toBe(200);
    const [codeOfFirst = '', codeOfSecond = ''] = (await messagesTo(testDb.ownerUrl, email)).map((message) => codeIn(message.body));
    expect(codeOfFirst).not.toBe(codeOfSecond);
    // The first tenant's code means nothing in the second.
    expect(errorOf(await second.post('/auth/verifyRegisterByEmailOTP', { tenant: second.tenant.code, email, token: codeOfFirst }))).toMatchObject({ code: 'otp.wrong' });
    expect((await first.post('/auth/verifyRegisterByEmailOTP', { tenant: first.tenant.code, email, token: codeOfFirst })).statusCode).toBe(200);
    expect((await second.post('/auth/verifyRegisterByEmailOTP', { tenant: second.tenant.code, email, token: codeOfSecond })).statusCode).toBe(200);
  });
});

describe('registration refusals store nothing', () => {
  it('refuses a duplicate email (409 account.emailExists) and a duplicate phone (409 account.phoneExists)', async () => {
    const { tenant, post } = await setUp();
    const phone = newPhone();
    const existing = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', phone });
    const before = await countTenantRows(testDb.ownerUrl, tenant.id);
    const duplicateEmail = await post('/account/register', registration(tenant.code, { email: existing.email?.toUpperCase() }));
    expect(errorOf(duplicateEmail)).toMatchObject({ status: 409, code: 'account.emailExists', message: 'Email already exists' });
    const duplicatePhone = await post('/account/register', registration(tenant.code, { phone }));
    expect(errorOf(duplicatePhone)).toMatchObject({ status: 409, code: 'account.phoneExists' });
    expect(await countTenantRows(testDb.ownerUrl, tenant.id)).toEqual(before);
  });

  it('answers each invalid form with its code and field, in the caller’s language', async () => {
    const { tenant, post } = await setUp();
    const vietnamese = poster(app, newCallerIp(), 'vi');
    const before = await countTenantRows(testDb.ownerUrl, tenant.id);
    const platform = await findPlatformTenant(testDb.database.system);
    const cases: [Record<string, unknown>, { status: number; code: string; field?: string }][] = [
      [registration(tenant.code, { birthday: yearsAgo(18, 1) }), { status: 400, code: 'account.underage', field: 'body.birthday' }],
      [registration(tenant.code, { acceptTerms: false }), { status: 400, code: 'account.termsRequired', field: 'body.acceptTerms' }],
      [registration(tenant.code, { acceptPrivacy: undefined }), { status: 400, code: 'account.termsRequired', field: 'body.acceptPrivacy' }],
      [registration(tenant.code, { purpose: undefined }), { status: 400, code: 'account.termsRequired', field: 'body.purpose' }],
      [registration(tenant.code, { firstName: 'Lan2' }), { status: 400, code: 'common.invalidParameter', field: 'body.firstName' }],
      [registration(tenant.code, { lastName: 'Tr4n' }), { status: 400, code: 'common.invalidParameter', field: 'body.lastName' }],
      [registration(tenant.code, { birthday: yearsAgo(-1) }), { status: 400, code: 'common.invalidParameter', field: 'body.birthday' }],
      [registration(tenant.code, { password: 'weakpass' }), { status: 400, code: 'password.tooWeak', field: 'body.password' }],
      [registration(tenant.code, { password: 'Password1!' }), { status: 400, code: 'password.common', field: 'body.password' }],
      [registration(undefined), { status: 400, code: 'tenant.notFound' }],
      [registration('no-such-tenant'), { status: 400, code: 'tenant.notFound' }],
      [registration(platform.code), { status: 400, code: 'tenant.notFound' }],
    ];
    for (const [form, expected] of cases) {
      const answer = errorOf(await post('/account/register', form));
      expect(answer, JSON.stringify(form)).toMatchObject({ status: expected.status, code: expected.code });
      if (expected.field !== undefined) {
        expect(answer.fieldErrors?.map((fieldError) => fieldError.field), expected.code).toContain(expected.field);
      }
    }
    const underage = errorOf(await vietnamese('/account/register', registration(tenant.code, { birthday: yearsAgo(10) })));
    expect(underage).toMatchObject({ code: 'account.underage', message: 'Bạn phải từ 18 tuổi trở lên để sử dụng dịch vụ này' });
    const terms = errorOf(await post('/account/register', registration(tenant.code, { acceptTerms: false })));
    expect(terms.message).toBe('Please accept the purpose of use, the terms and the privacy policy');
    expect(await countTenantRows(testDb.ownerUrl, tenant.id)).toEqual(before);
    // Exactly 18 today is old enough.
    expect((await post('/account/register', registration(tenant.code, { birthday: yearsAgo(18) }))).statusCode).toBe(200);
  });
});

describe('abandoned registrations', () => {
  it('keeps the email while its code is live, and lets a new registration replace it once the code ran out', async () => {
    const { tenant, post, passwordLogin } = await setUp();
    const email = newEmail();
    expect((await post('/account/register', registration(tenant.code, { email, firstName: 'First' }))).statusCode).toBe(200);
    const first = await latestCodeTo(testDb.ownerUrl, email);
    const original = await userByEmail(email);
    expect(errorOf(await post('/account/register', registration(tenant.code, { email })))).toMatchObject({ status: 409, code: 'account.emailExists' });

    clock.advance(OTP_RULES.ttlSeconds * 1000);
    expect((await post('/account/register', registration(tenant.code, { email, firstName: 'Second', password: 'Other#Pass8' }))).statusCode).toBe(200);
    const replaced = await userByEmail(email);
    expect(replaced).toMatchObject({ id: original?.id, first_name: 'Second', status: 'UNACTIVATED' });
    const second = await latestCodeTo(testDb.ownerUrl, email);
    expect(errorOf(await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email, token: first }))).toMatchObject({ status: 400 });
    expect((await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email, token: second })).statusCode).toBe(200);
    expect((await passwordLogin(email, 'Other#Pass8')).statusCode).toBe(200);
  });

  it('sends a waiting registration a new code through create-verification-token', async () => {
    const { tenant, post } = await setUp();
    const form = registration(tenant.code);
    await post('/account/register', form);
    expect(errorOf(await post('/auth/create-verification-token', { tenant: tenant.code, email: form.email }))).toMatchObject({ status: 429 });
    clock.advance(OTP_RULES.resendCooldownSeconds * 1000);
    expect((await post('/auth/create-verification-token', { tenant: tenant.code, email: form.email })).statusCode).toBe(200);
    const token = await latestCodeTo(testDb.ownerUrl, form.email);
    expect((await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email: form.email, token })).json()).toMatchObject({
      data: { status: 'ACTIVE' },
    });
  });
});

describe('one-step registration: /auth/create-verification-token then /auth/email-register', () => {
  const oneStep = (tenant: string, email: string, token: string, overrides: Record<string, unknown> = {}) => {
    const { phone: _phone, ...form } = registration(tenant, { email, ...overrides });
    return { ...form, token };
  };

  it('creates an ACTIVE patient who can log in at once', async () => {
    const { tenant, post, passwordLogin } = await setUp();
    const email = newEmail();
    const sent = await post('/auth/create-verification-token', { tenant: tenant.code, email });
    expect(sent.json()).toEqual({ resultCode: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 300 } });
    const token = await latestCodeTo(testDb.ownerUrl, email);

    // That code is for a new account: it cannot verify a registration that does not exist.
    expect(errorOf(await post('/auth/verifyRegisterByEmailOTP', { tenant: tenant.code, email, token }))).toMatchObject({
      status: 404,
      code: 'account.notFound',
    });
    const registered = await post('/auth/email-register', oneStep(tenant.code, email, token));
    expect(registered.json()).toEqual({ resultCode: 200, data: { status: 'ACTIVE', awaitingApproval: false } });
    const user = await userByEmail(email);
    expect(user).toMatchObject({ status: 'ACTIVE', role: 'PATIENT' });
    expect((await auditOf(user?.id ?? '')).map((row) => row.action)).toEqual(['ACCOUNT_REGISTERED', 'ACCOUNT_VERIFIED']);
    const [challenge] = await asOwner<{ user_id: string }>(testDb.ownerUrl, 'SELECT user_id FROM otp_challenges WHERE destination = $1', [email]);
    expect(challenge?.user_id).toBe(user?.id);
    expect((await passwordLogin(email)).statusCode).toBe(200);
  });

  it('refuses a registered email, a wrong code and an under-18 form, storing no account', async () => {
    const { tenant, post } = await setUp();
    const existing = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    expect(errorOf(await post('/auth/create-verification-token', { tenant: tenant.code, email: existing.email }))).toMatchObject({
      status: 409,
      code: 'account.emailExists',
    });
    const email = newEmail();
    await post('/auth/create-verification-token', { tenant: tenant.code, email });
    const token = await latestCodeTo(testDb.ownerUrl, email);
    const before = await countTenantRows(testDb.ownerUrl, tenant.id);
    expect(errorOf(await post('/auth/email-register', oneStep(tenant.code, email, token, { birthday: yearsAgo(16) })))).toMatchObject({
      code: 'account.underage',
    });
    expect(errorOf(await post('/auth/email-register', oneStep(tenant.code, email, token, { acceptTerms: false })))).toMatchObject({
      code: 'account.termsRequired',
    });
    expect(errorOf(await post('/auth/email-register', oneStep(tenant.code, email, token === '000000' ? '111111' : '000000')))).toMatchObject({
      code: 'otp.wrong',
    });
    const after = await countTenantRows(testDb.ownerUrl, tenant.id);
    expect(after.users).toBe(before.users);
    // The right code still works after the refusals.
    expect((await post('/auth/email-register', oneStep(tenant.code, email, token))).statusCode).toBe(200);
  });
});
