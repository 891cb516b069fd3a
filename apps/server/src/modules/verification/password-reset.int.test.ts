import { randomInt } from 'node:crypto';
import { LIMITS } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { HOUR, ManualClock } from '../../lib/clock.js';
import { hashPassword } from '../auth/passwords.js';
import { errorOf, latestCodeTo, messagesTo, newCallerIp, poster } from './test-support.js';

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

const NEW_PASSWORD = 'Fresh#Start9';
const CURRENT_PASSWORD = 'Current#Pass7';
const newPhone = () => `09${String(randomInt(10 ** 8)).padStart(8, '0')}`;

async function setUp(overrides: { phone?: string | null; status?: string; failedLogins?: number; lockedUntil?: Date } = {}) {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', ...overrides });
  const email = user.email ?? '';
  const post = poster(app, newCallerIp());
  const passwordLogin = (password: string) =>
    post('/auth/oauth-token', { tenant: tenant.code, username: email, password, grant_type: 'password' });
  return { tenant, user, email, post, passwordLogin };
}

describe('forgot password', () => {
  it('resets with an emailed code: every old session ends, the new password works and the old one does not', async () => {
    const { tenant, user, email, post, passwordLogin } = await setUp();
    const consoleSession = await logIn(app, tenant.code, email);
    const appLogin = await post('/auth/oauth-token', { tenant: tenant.code, username: email, password: TEST_PASSWORD, grant_type: 'password', app: 'patient' });
    const appToken = appLogin.json<{ data: { accessToken: string } }>().data.accessToken;

    const sent = await post('/account/forgot-password/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    expect(sent.json()).toEqual({ resultCode: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 300 } });
    const [message] = await messagesTo(testDb.ownerUrl, email);
    expect(message).toMatchObject({ subject: `${tenant.name}: reset your password`, purpose: 'OTP_RESET_PASSWORD' });
    const code = await latestCodeTo(testDb.ownerUrl, email);

    const reset = await post('/account/forgot-password/reset', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code, newPassword: NEW_PASSWORD });
    expect(reset.json()).toEqual({ resultCode: 200, data: null });

    expect(errorOf(await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(consoleSession) }))).toMatchObject({ status: 401 });
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', headers: { authorization: `Bearer ${appToken}` } })).statusCode).toBe(401);
    const revoked = await asOwner<{ revoked_reason: string }>(testDb.ownerUrl, 'SELECT revoked_reason FROM sessions WHERE user_id = $1', [user.id]);
    expect(revoked.map((row) => row.revoked_reason)).toEqual(['password_changed', 'password_changed']);

    expect(errorOf(await passwordLogin(TEST_PASSWORD))).toMatchObject({ code: 'auth.wrongCredentials' });
    expect((await passwordLogin(NEW_PASSWORD)).statusCode).toBe(200);
    const [stored] = await asOwner<{ password_changed_at: Date; password_hash: string }>(
      testDb.ownerUrl,
      'SELECT password_changed_at, password_hash FROM users WHERE id = $1',
      [user.id],
    );
    expect(stored?.password_changed_at.getTime()).toBe(clock.now().getTime());
    expect(stored?.password_hash).toMatch(/^\$argon2id\$/);
    const audit = await asOwner<{ action: string }>(testDb.ownerUrl, "SELECT action FROM audit_log WHERE subject_user_id = $1 AND action = 'ACCOUNT_PASSWORD_RESET'", [user.id]);
    expect(audit).toHaveLength(1);
  });

  it('sends the code by SMS to the account’s phone, whichever username names the account', async () => {
    const phone = newPhone();
    const { tenant, email, post, passwordLogin } = await setUp({ phone });
    expect((await post('/account/forgot-password/send', { tenant: tenant.code, type: 'SMS', username: email })).statusCode).toBe(200);
    await app.messaging.drain();
    const [sms] = await messagesTo(testDb.ownerUrl, phone);
    expect(sms).toMatchObject({ channel: 'SMS', status: 'SENT', provider: 'local-sms' });
    const code = await latestCodeTo(testDb.ownerUrl, phone);
    const reset = await post('/account/forgot-password/reset', { tenant: tenant.code, type: 'SMS', username: phone, otp: code, newPassword: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect((await passwordLogin(NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a weak, a common or the current password with its code, and the code stays usable', async () => {
    const { tenant, user, email, post, passwordLogin } = await setUp();
    await post('/account/forgot-password/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    const code = await latestCodeTo(testDb.ownerUrl, email);
    const reset = (newPassword: string) => post('/account/forgot-password/reset', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code, newPassword });

    const weak = errorOf(await reset('abc'));
    expect(weak).toMatchObject({ status: 400, code: 'password.tooWeak' });
    expect(weak.fieldErrors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body.newPassword', code: 'tooShort' })]));
    expect(errorOf(await reset('Password1!'))).toMatchObject({ status: 400, code: 'password.common' });
    // The factory's password is itself "common"; give the account an acceptable one to repeat.
    await asOwner(testDb.ownerUrl, 'UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, await hashPassword(CURRENT_PASSWORD)]);
    expect(errorOf(await reset(CURRENT_PASSWORD))).toMatchObject({
      status: 400,
      code: 'password.sameAsOld',
      message: 'The new password must be different from the current one',
    });
    const [challenge] = await asOwner<{ attempts: number; consumed_at: Date | null }>(testDb.ownerUrl, 'SELECT attempts, consumed_at FROM otp_challenges WHERE user_id = $1', [user.id]);
    expect(challenge).toEqual({ attempts: 0, consumed_at: null });
    expect((await passwordLogin(CURRENT_PASSWORD)).statusCode).toBe(200);

    expect((await reset(NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('changes nothing on a wrong or expired code', async () => {
    const { tenant, email, post, passwordLogin } = await setUp();
    const session = await logIn(app, tenant.code, email);
    await post('/account/forgot-password/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    const code = await latestCodeTo(testDb.ownerUrl, email);
    const reset = (otp: string) => post('/account/forgot-password/reset', { tenant: tenant.code, type: 'EMAIL', username: email, otp, newPassword: NEW_PASSWORD });
    expect(errorOf(await reset(code === '000000' ? '111111' : '000000'))).toMatchObject({ code: 'otp.wrong' });
    clock.advance(6 * 60_000);
    expect(errorOf(await reset(code))).toMatchObject({ code: 'otp.expired' });
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(session) })).statusCode).toBe(200);
    expect((await passwordLogin(TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('ends a lockout', async () => {
    const { tenant, user, email, post, passwordLogin } = await setUp({
      failedLogins: LIMITS.failedLoginsBeforeLock,
      lockedUntil: new Date(clock.now().getTime() + 24 * HOUR),
    });
    expect(errorOf(await passwordLogin(TEST_PASSWORD))).toMatchObject({ code: 'auth.accountLocked' });
    await post('/account/forgot-password/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    const code = await latestCodeTo(testDb.ownerUrl, email);
    expect((await post('/account/forgot-password/reset', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code, newPassword: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await passwordLogin(NEW_PASSWORD)).statusCode).toBe(200);
    const [stored] = await asOwner<{ failed_logins: number; locked_until: Date | null }>(testDb.ownerUrl, 'SELECT failed_logins, locked_until FROM users WHERE id = $1', [user.id]);
    expect(stored).toEqual({ failed_logins: 0, locked_until: null });
  });

  it('answers an unknown account, a disabled one and one without that contact alike, and sends nothing', async () => {
    const { tenant, email: knownEmail, post } = await setUp({ phone: null });
    const disabled = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', status: 'DISABLED' });
    const known = await post('/account/forgot-password/send', { tenant: tenant.code, type: 'EMAIL', username: knownEmail });
    const unknownEmail = `nobody-${randomInt(10 ** 9)}@test.example`;
    for (const payload of [
      { type: 'EMAIL', username: unknownEmail },
      { type: 'EMAIL', username: disabled.email },
      // The account exists but has no phone: password.noContact would reveal that it exists.
      { type: 'SMS', username: knownEmail },
    ]) {
      const answer = await post('/account/forgot-password/send', { tenant: tenant.code, ...payload });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(known.body);
    }
    await app.messaging.drain();
    expect(await messagesTo(testDb.ownerUrl, unknownEmail)).toEqual([]);
    expect(await messagesTo(testDb.ownerUrl, disabled.email ?? '')).toEqual([]);
    const toKnown = await asOwner<{ channel: string }>(testDb.ownerUrl, 'SELECT channel FROM outbox_messages WHERE tenant_id = $1', [tenant.id]);
    expect(toKnown).toEqual([{ channel: 'EMAIL' }]);
  });

  it('does not let a code sent in one tenant reset a password through another', async () => {
    const { tenant: tenantB, email, post, passwordLogin } = await setUp();
    const tenantA = await createTenant(testDb.database);
    await createTenantUser(testDb.database, tenantA.id, { role: 'PATIENT', email });
    await post('/account/forgot-password/send', { tenant: tenantB.code, type: 'EMAIL', username: email });
    const code = await latestCodeTo(testDb.ownerUrl, email);
    const reset = await post('/account/forgot-password/reset', { tenant: tenantA.code, type: 'EMAIL', username: email, otp: code, newPassword: NEW_PASSWORD });
    expect(errorOf(reset)).toMatchObject({ status: 400, code: 'otp.unverifiable' });
    const inA = await post('/auth/oauth-token', { tenant: tenantA.code, username: email, password: TEST_PASSWORD, grant_type: 'password' });
    expect(inA.statusCode).toBe(200);
    expect((await passwordLogin(TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps purposes apart: a login code cannot reset a password', async () => {
    const { tenant, email, post } = await setUp();
    await post('/auth/oauth/otp/mail', { tenant: tenant.code, email });
    const loginCode = await latestCodeTo(testDb.ownerUrl, email);
    const reset = await post('/account/forgot-password/reset', { tenant: tenant.code, type: 'EMAIL', username: email, otp: loginCode, newPassword: NEW_PASSWORD });
    expect(errorOf(reset)).toMatchObject({ status: 400, code: 'otp.unverifiable' });
  });
});
