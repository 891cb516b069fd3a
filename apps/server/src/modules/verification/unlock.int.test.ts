import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { HOUR, ManualClock } from '../../lib/clock.js';
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

const newPhone = () => `09${String(randomInt(10 ** 8)).padStart(8, '0')}`;

async function setUp(overrides: { status?: string } = {}) {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { phone: newPhone(), ...overrides });
  const email = user.email ?? '';
  const post = poster(app, newCallerIp());
  const passwordLogin = (password: string, username = email) =>
    post('/auth/oauth-token', { tenant: tenant.code, username, password, grant_type: 'password' });
  const lockOut = async (username = email) => {
    for (let attempt = 0; attempt < 5; attempt++) await passwordLogin('Wrong@123', username);
    expect(errorOf(await passwordLogin(TEST_PASSWORD, username))).toMatchObject({ code: 'auth.accountLocked' });
  };
  return { tenant, user, email, post, passwordLogin, lockOut };
}

const lockOf = async (userId: string) =>
  (
    await asOwner<{ failed_logins: number; locked_until: Date | null; status: string }>(
      testDb.ownerUrl,
      'SELECT failed_logins, locked_until, status FROM users WHERE id = $1',
      [userId],
    )
  )[0];

describe('unlocking a locked account with a one-time code', () => {
  it('emails a code to the locked account; the code lifts the lock (audited) and the password works again', async () => {
    const { tenant, user, email, post, passwordLogin, lockOut } = await setUp();
    await lockOut();

    const sent = await post('/auth/unlock/otp/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    expect(sent.json()).toEqual({ resultCode: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 300 } });
    const [message] = await messagesTo(testDb.ownerUrl, email);
    expect(message).toMatchObject({ subject: `${tenant.name}: unlock your account`, purpose: 'OTP_UNLOCK', channel: 'EMAIL' });
    const code = await latestCodeTo(testDb.ownerUrl, email);

    const unlocked = await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code });
    expect(unlocked.json()).toEqual({ resultCode: 200, data: null });
    expect(await lockOf(user.id)).toEqual({ failed_logins: 0, locked_until: null, status: 'ACTIVE' });
    const [audit] = await asOwner<{ action: string; actor_user_id: string; details: Record<string, unknown> }>(
      testDb.ownerUrl,
      "SELECT action, actor_user_id, details FROM audit_log WHERE subject_user_id = $1 AND action = 'ACCOUNT_UNLOCKED'",
      [user.id],
    );
    expect(audit).toMatchObject({ actor_user_id: user.id, details: { method: 'otp', channel: 'EMAIL', failedLogins: 5 } });
    expect((await passwordLogin(TEST_PASSWORD)).statusCode).toBe(200);

    // The code worked once.
    expect(errorOf(await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code }))).toMatchObject({
      code: 'otp.unverifiable',
    });
  });

  it('sends by SMS to the account’s phone when asked, and works for platform staff locked inside a tenant', async () => {
    const { tenant, user, post, lockOut } = await setUp();
    const phone = user.phone ?? '';
    await lockOut(phone);
    await post('/auth/unlock/otp/send', { tenant: tenant.code, type: 'SMS', username: phone });
    const code = await latestCodeTo(testDb.ownerUrl, phone);
    expect((await post('/auth/unlock', { tenant: tenant.code, type: 'SMS', username: phone, otp: code })).statusCode).toBe(200);
    expect(await lockOf(user.id)).toMatchObject({ failed_logins: 0, locked_until: null });

    const root = await createPlatformUser(testDb.database, { role: 'ROOT' });
    const rootEmail = root.email ?? '';
    await lockOut(rootEmail);
    await post('/auth/unlock/otp/send', { tenant: tenant.code, type: 'EMAIL', username: rootEmail });
    const rootCode = await latestCodeTo(testDb.ownerUrl, rootEmail);
    expect((await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: rootEmail, otp: rootCode })).statusCode).toBe(200);
    expect(await lockOf(root.id)).toMatchObject({ failed_logins: 0, locked_until: null });
  });

  it('answers the same for unknown, unlocked and administratively locked accounts, and sends them nothing', async () => {
    const { tenant, email, post, lockOut } = await setUp();
    await lockOut();
    const notLocked = await createTenantUser(testDb.database, tenant.id);
    const byStatus = await createTenantUser(testDb.database, tenant.id, { status: 'LOCKED', lockedUntil: new Date(clock.now().getTime() + HOUR) });
    const unknown = `nobody-${randomInt(10 ** 6)}@test.example`;
    const answers = [];
    for (const username of [email, notLocked.email ?? '', byStatus.email ?? '', unknown]) {
      answers.push((await post('/auth/unlock/otp/send', { tenant: tenant.code, type: 'EMAIL', username })).json<unknown>());
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await messagesTo(testDb.ownerUrl, email)).toHaveLength(1);
    for (const username of [notLocked.email ?? '', byStatus.email ?? '', unknown]) {
      expect(await messagesTo(testDb.ownerUrl, username)).toEqual([]);
      // No code was sent, so none can work: the answer is the one a wrong code gets.
      expect(errorOf(await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username, otp: '123456' }))).toMatchObject({
        status: 400,
        code: 'otp.wrong',
      });
    }
    expect(await lockOf(byStatus.id)).toMatchObject({ status: 'LOCKED' });
  });

  it('refuses a wrong code and a code of another purpose; the lock stays', async () => {
    const { tenant, user, email, post, lockOut } = await setUp();
    await lockOut();
    await post('/auth/unlock/otp/send', { tenant: tenant.code, type: 'EMAIL', username: email });
    const code = await latestCodeTo(testDb.ownerUrl, email);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(errorOf(await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: email, otp: wrong }))).toMatchObject({
      status: 400,
      code: 'otp.wrong',
    });
    clock.advance(61_000);
    await post('/auth/oauth/otp/mail', { tenant: tenant.code, email });
    const loginCode = await latestCodeTo(testDb.ownerUrl, email);
    expect(loginCode).not.toBe(code);
    expect(errorOf(await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: email, otp: loginCode }))).toMatchObject({
      code: 'otp.wrong',
    });
    expect((await lockOf(user.id))?.locked_until).not.toBeNull();
    clock.advance(5 * 60_000);
    expect(errorOf(await post('/auth/unlock', { tenant: tenant.code, type: 'EMAIL', username: email, otp: code }))).toMatchObject({
      code: 'otp.expired',
    });
    expect((await lockOf(user.id))?.locked_until).not.toBeNull();
  });
});
