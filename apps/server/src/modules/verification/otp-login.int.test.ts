import { randomInt } from 'node:crypto';
import { OTP_RULES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieOf, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { TEST_SECRETS_KEY_HEX } from '../../../test/test-config.js';
import { ManualClock } from '../../lib/clock.js';
import { startMailCatcher, type MailCatcher } from '../messaging/mail-catcher.js';
import { hashOtpCode } from './otp.js';
import { codeIn, errorOf, latestCodeTo, messagesTo, newCallerIp, poster } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let mail: MailCatcher;
const clock = new ManualClock();
beforeAll(async () => {
  testDb = await createTestDatabase();
  mail = await startMailCatcher();
  app = await createTestApp(testDb.database, { smtpUrl: mail.url }, clock);
});
afterAll(async () => {
  await app.close();
  await mail.stop();
  await testDb.drop();
});

const SECOND = 1000;
const newPhone = () => `09${String(randomInt(10 ** 8)).padStart(8, '0')}`;
const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');

async function patientIn(tenantId: string, overrides: { phone?: string; language?: string; status?: string } = {}) {
  return createTenantUser(testDb.database, tenantId, { role: 'PATIENT', ...overrides });
}

async function auditActions(userId: string): Promise<string[]> {
  const rows = await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE subject_user_id = $1 ORDER BY occurred_at, id', [userId]);
  return rows.map((row) => row.action);
}

describe('OTP login by email (real SMTP server)', () => {
  it('mails a code that logs the person in; the session cookie then works', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await patientIn(tenant.id);
    const email = user.email ?? '';
    const post = poster(app, newCallerIp());

    const sent = await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: email.toUpperCase() });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ resultCode: 200, data: { resendAfterSeconds: 60, expiresInSeconds: 300 } });

    await app.messaging.drain();
    const received = await mail.waitFor((candidate) => candidate.to.includes(email));
    expect(received.subject).toBe(`${tenant.name}: your login code`);
    expect(received.text).toContain('It expires in 5 minutes.');
    expect(received.headers.get('from')).toContain('no-reply@test.example');
    const code = codeIn(received.text);

    // The outbox keeps the receipt: the provider and the id the SMTP server saw.
    const [stored] = await messagesTo(testDb.ownerUrl, email);
    expect(stored).toMatchObject({ status: 'SENT', provider: 'smtp', attempts: 1, channel: 'EMAIL', purpose: 'OTP_LOGIN' });
    expect(stored?.provider_message_id).toBe(received.headers.get('message-id'));
    // Only a keyed hash of the code is kept.
    const [challenge] = await asOwner<{ code_hash: Buffer }>(testDb.ownerUrl, 'SELECT code_hash FROM otp_challenges WHERE user_id = $1', [user.id]);
    expect(challenge?.code_hash).toHaveLength(32);
    expect(challenge?.code_hash.toString('latin1')).not.toContain(code);

    const login = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'EMAIL', otp: code, username: email });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ data: { userId: user.id, tenantId: tenant.id, role: 'PATIENT' } });
    const check = await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(sessionCookieOf(login)) });
    expect(check.json()).toMatchObject({ resultCode: 200, data: { userId: user.id } });
    expect(await auditActions(user.id)).toEqual(['ACCOUNT_OTP_SENT', 'ACCOUNT_OTP_LOGIN']);
  });
});

describe('OTP login by SMS (local provider)', () => {
  it('records the SMS in the account’s language and gives apps their tokens', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const user = await patientIn(tenant.id, { phone, language: 'vi' });
    const post = poster(app, newCallerIp());

    expect((await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone })).statusCode).toBe(200);
    await app.messaging.drain();
    const [sms] = await messagesTo(testDb.ownerUrl, phone);
    expect(sms).toMatchObject({ channel: 'SMS', status: 'SENT', provider: 'local-sms', subject: '' });
    expect(sms?.provider_message_id).toMatch(/^local-sms-/);
    expect(sms?.body).toContain(`${tenant.name}: mã đăng nhập của bạn là`);

    const login = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp: codeIn(sms?.body ?? ''), username: phone, app: 'patient' });
    expect(login.statusCode).toBe(200);
    const tokens = login.json<{ data: { userId: string; accessToken?: string; refreshToken?: string } }>().data;
    expect(tokens.userId).toBe(user.id);
    expect(tokens.accessToken).toMatch(/\S{20,}/);
    expect(tokens.refreshToken).toMatch(/\S{20,}/);
  });

  it('refuses staff on the patient app with the permission message, and gives them no tokens', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const operator = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR', phone });
    const post = poster(app, newCallerIp());
    expect((await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone })).statusCode).toBe(200);
    const code = await latestCodeTo(testDb.ownerUrl, phone);
    const login = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp: code, username: phone, app: 'patient' });
    expect(errorOf(login)).toMatchObject({ status: 403, code: 'auth.patientOnly', message: "You don't have permission to access" });
    expect(login.json<{ data?: unknown }>().data).toBeUndefined();
    expect(await auditActions(operator.id)).not.toContain('ACCOUNT_OTP_LOGIN');
  });
});

describe('the life of a code', () => {
  async function sendSmsCode() {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const user = await patientIn(tenant.id, { phone });
    const post = poster(app, newCallerIp());
    expect((await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone })).statusCode).toBe(200);
    const code = await latestCodeTo(testDb.ownerUrl, phone);
    const grant = (otp: string) => post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp, username: phone });
    return { tenant, phone, user, post, code, grant };
  }

  it('works once: the same code is refused the second time', async () => {
    const { code, grant } = await sendSmsCode();
    expect((await grant(code)).statusCode).toBe(200);
    const reused = await grant(code);
    expect(errorOf(reused)).toMatchObject({ status: 400, code: 'otp.unverifiable', message: 'Cannot verify the OTP. Please request a new code' });
    expect(reused.cookies).toEqual([]);
  });

  it('expires after 5 minutes', async () => {
    const { code, grant } = await sendSmsCode();
    clock.advance(OTP_RULES.ttlSeconds * SECOND - SECOND);
    expect(errorOf(await grant(wrongCodeFor(code)))).toMatchObject({ code: 'otp.wrong' });
    clock.advance(SECOND);
    expect(errorOf(await grant(code))).toMatchObject({ status: 400, code: 'otp.expired', message: 'The OTP has expired. Please request a new one' });
  });

  it('dies after 5 wrong codes, and the right one is refused afterwards', async () => {
    const { code, grant, user } = await sendSmsCode();
    const wrong = wrongCodeFor(code);
    for (let attempt = 1; attempt < OTP_RULES.maxAttempts; attempt++) {
      expect(errorOf(await grant(wrong))).toMatchObject({ status: 400, code: 'otp.wrong', message: 'Wrong OTP' });
    }
    expect(errorOf(await grant(wrong))).toMatchObject({ code: 'otp.tooManyAttempts', message: 'Too many wrong OTPs. Please request a new code' });
    expect(errorOf(await grant(code))).toMatchObject({ code: 'otp.tooManyAttempts' });
    const [challenge] = await asOwner<{ attempts: number; consumed_at: Date | null }>(testDb.ownerUrl, 'SELECT attempts, consumed_at FROM otp_challenges WHERE user_id = $1', [user.id]);
    expect(challenge).toEqual({ attempts: OTP_RULES.maxAttempts, consumed_at: null });
    expect((await auditActions(user.id)).filter((action) => action === 'ACCOUNT_OTP_FAILED')).toHaveLength(OTP_RULES.maxAttempts + 1);
  });

  it('counts parallel wrong codes exactly: none slips past the limit', async () => {
    const { code, grant, user } = await sendSmsCode();
    const answers = await Promise.all(Array.from({ length: 12 }, () => grant(wrongCodeFor(code))));
    expect(answers.every((answer) => answer.statusCode === 400)).toBe(true);
    const [challenge] = await asOwner<{ attempts: number }>(testDb.ownerUrl, 'SELECT attempts FROM otp_challenges WHERE user_id = $1', [user.id]);
    expect(challenge?.attempts).toBe(OTP_RULES.maxAttempts);
    expect(errorOf(await grant(code))).toMatchObject({ code: 'otp.tooManyAttempts' });
  });

  it('cannot be resent within 60 seconds; after that a new one is sent', async () => {
    const { tenant, phone, post } = await sendSmsCode();
    const again = () => post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone });
    expect(errorOf(await again())).toMatchObject({ status: 429, code: 'otp.resendTooSoon', message: 'Please wait before requesting another code' });
    clock.advance(59 * SECOND);
    expect((await again()).statusCode).toBe(429);
    clock.advance(SECOND);
    expect((await again()).statusCode).toBe(200);
    expect(await messagesTo(testDb.ownerUrl, phone)).toHaveLength(2);
  });

  it('is replaced by a new code: the earlier one no longer works', async () => {
    const { tenant, phone, post, code: first, grant } = await sendSmsCode();
    clock.advance(OTP_RULES.resendCooldownSeconds * SECOND);
    expect((await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone })).statusCode).toBe(200);
    const second = await latestCodeTo(testDb.ownerUrl, phone);
    expect(second).not.toBe(first);
    expect(errorOf(await grant(first))).toMatchObject({ code: 'otp.wrong' });
    expect((await grant(second)).statusCode).toBe(200);
  });

  it('stops issuing codes to an address after 15 wrong ones in a day (no guessing by asking again and again)', async () => {
    const { tenant, phone, post, code, grant } = await sendSmsCode();
    const again = () => post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone });
    let current = code;
    for (let round = 1; round <= 3; round++) {
      for (let attempt = 0; attempt < OTP_RULES.maxAttempts; attempt++) await grant(wrongCodeFor(current));
      clock.advance(OTP_RULES.resendCooldownSeconds * SECOND);
      if (round < 3) {
        expect((await again()).statusCode).toBe(200);
        current = await latestCodeTo(testDb.ownerUrl, phone);
      }
    }
    expect(errorOf(await again())).toMatchObject({ status: 429, code: 'otp.resendTooSoon' });
    clock.advance(24 * 60 * 60 * SECOND);
    expect((await again()).statusCode).toBe(200);
    expect((await grant(await latestCodeTo(testDb.ownerUrl, phone))).statusCode).toBe(200);
  });

  it('refuses malformed codes before looking at anything', async () => {
    const { grant } = await sendSmsCode();
    const response = await grant('12345');
    expect(errorOf(response)).toMatchObject({ status: 400, code: 'common.invalidParameter', fieldErrors: [expect.objectContaining({ field: 'body.otp' })] });
  });
});

describe('no account enumeration', () => {
  it('answers an unknown phone or email exactly like a known one, and sends nothing', async () => {
    const tenant = await createTenant(testDb.database);
    const known = await patientIn(tenant.id, { phone: newPhone() });
    const disabled = await patientIn(tenant.id, { phone: newPhone(), status: 'DISABLED' });
    const post = poster(app, newCallerIp());
    const unknownEmail = `nobody-${Date.now()}@test.example`;
    const unknownPhone = newPhone();

    const knownAnswer = await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: known.email });
    for (const answer of [
      await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: unknownEmail }),
      await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: unknownPhone }),
      await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: disabled.phone }),
    ]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(knownAnswer.body);
    }
    // The cooldown, too, looks the same for everyone.
    expect((await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: unknownEmail })).statusCode).toBe(429);
    expect((await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: known.email })).statusCode).toBe(429);

    await app.messaging.drain();
    for (const recipient of [unknownEmail, unknownPhone, disabled.phone ?? '']) {
      expect(await messagesTo(testDb.ownerUrl, recipient)).toEqual([]);
      expect(mail.messages.filter((message) => message.to.includes(recipient))).toEqual([]);
    }
    expect(await messagesTo(testDb.ownerUrl, known.email ?? '')).toHaveLength(1);

    // A guessed code for an account that does not exist fails like a wrong one.
    const guess = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'EMAIL', otp: '123456', username: unknownEmail });
    expect(errorOf(guess)).toMatchObject({ status: 400, code: 'otp.wrong' });
  });

  it('never logs anyone in with a code that was sent to nobody', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const user = await patientIn(tenant.id, { phone, status: 'DISABLED' });
    const post = poster(app, newCallerIp());
    // A disabled account gets the same answer as everyone, and an unsent code.
    expect((await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone })).statusCode).toBe(200);
    await asOwner(testDb.ownerUrl, "UPDATE users SET status = 'ACTIVE' WHERE id = $1", [user.id]);
    // Suppose the unsent code were guessed: make it known by rewriting its hash.
    const [challenge] = await asOwner<{ id: string; user_id: string | null }>(testDb.ownerUrl, 'SELECT id, user_id FROM otp_challenges WHERE destination = $1', [phone]);
    expect(challenge?.user_id).toBeNull();
    const secretsKey = Buffer.from(TEST_SECRETS_KEY_HEX, 'hex');
    await asOwner(testDb.ownerUrl, 'UPDATE otp_challenges SET code_hash = $2 WHERE id = $1', [challenge?.id, hashOtpCode(secretsKey, challenge?.id ?? '', '424242')]);
    const login = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp: '424242', username: phone });
    expect(errorOf(login)).toMatchObject({ status: 400, code: 'otp.wrong' });
  });

  it('answers an unknown tenant with tenant.notFound', async () => {
    const response = await poster(app, newCallerIp())('/auth/oauth/otp/send', { tenant: 'no-such-tenant', phoneNumber: newPhone() });
    expect(errorOf(response)).toMatchObject({ status: 400, code: 'tenant.notFound' });
  });
});

describe('tenants and throttling', () => {
  it('does not let a code sent in one tenant log in through another', async () => {
    const tenantA = await createTenant(testDb.database);
    const tenantB = await createTenant(testDb.database);
    const userOfB = await patientIn(tenantB.id);
    const email = userOfB.email ?? '';
    const post = poster(app, newCallerIp());
    expect((await post('/auth/oauth/otp/mail', { tenant: tenantB.code, email })).statusCode).toBe(200);
    const code = await latestCodeTo(testDb.ownerUrl, email);

    const grantIn = (tenantCode: string) => post('/auth/oauth/otp/token-web', { tenantId: tenantCode, type: 'EMAIL', otp: code, username: email });
    expect(errorOf(await grantIn(tenantA.code))).toMatchObject({ status: 400, code: 'otp.unverifiable' });
    // Even when tenant A has an account with the same email.
    await createTenantUser(testDb.database, tenantA.id, { role: 'PATIENT', email });
    expect(errorOf(await grantIn(tenantA.code))).toMatchObject({ status: 400, code: 'otp.unverifiable' });
    expect((await grantIn(tenantB.code)).json()).toMatchObject({ data: { userId: userOfB.id, tenantId: tenantB.id } });
  });

  it('counts wrong codes against the caller’s address, which is then refused even with a right code', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    await patientIn(tenant.id, { phone });
    const post = poster(app, newCallerIp());
    await post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber: phone });
    const code = await latestCodeTo(testDb.ownerUrl, phone);
    for (let attempt = 0; attempt < 20; attempt++) {
      await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp: '000000', username: `0000${attempt}` });
    }
    const throttled = await post('/auth/oauth/otp/token-web', { tenantId: tenant.code, type: 'SMS', otp: code, username: phone });
    expect(errorOf(throttled)).toMatchObject({ status: 429, code: 'auth.throttled' });
  });
});
