import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { findMigrationsDirectory } from '../../db/migrator.js';
import { loginThrottle, sessions } from '../../db/schema.js';
import { HOUR, ManualClock } from '../../lib/clock.js';
import { THROTTLE } from './service.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-11-21T08:00:00Z'));
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

let addressCounter = 0;
/** Each test logs in from its own address so the per-address throttle does not mix tests. */
const newAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;
const login = (tenant: string, username: string, password: string, remoteAddress: string, language = 'en') =>
  app.inject({
    method: 'POST',
    url: '/auth/oauth-token',
    payload: { tenant, username, password, grant_type: 'password' },
    remoteAddress,
    headers: { 'accept-language': language },
  });

/** What a caller can compare between two answers: status, code, message and the body's shape. */
function answerOf(response: Awaited<ReturnType<typeof login>>) {
  const { requestId, ...rest } = response.json<{ requestId?: unknown; code?: string } & Record<string, unknown>>();
  return { status: response.statusCode, requestId: typeof requestId, ...rest };
}

describe('account lockout after five failed logins', () => {
  it('locks at the fifth failure for 24 hours, refuses even the right password, then lets the user in', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const email = user.email ?? '';
    const address = newAddress();
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await login(tenant.code, email, 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    }
    const fifth = await login(tenant.code, email, 'Wrong@123', address);
    expect(fifth.json()).toMatchObject({ code: 'auth.accountLocked', message: 'This account has been locked' });
    expect((await login(tenant.code, email, TEST_PASSWORD, address)).json()).toMatchObject({ code: 'auth.accountLocked' });

    clock.advance(23 * HOUR);
    expect((await login(tenant.code, email, TEST_PASSWORD, address)).json()).toMatchObject({ code: 'auth.accountLocked' });
    clock.advance(HOUR + 1000);
    const after = await login(tenant.code, email, TEST_PASSWORD, address);
    expect(after.statusCode).toBe(200);

    const [row] = await asOwner<{ failed_logins: number; locked_until: Date | null }>(testDb.ownerUrl, 'SELECT failed_logins, locked_until FROM users WHERE id = $1', [user.id]);
    expect(row).toEqual({ failed_logins: 0, locked_until: null });
    const actions = (await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE subject_user_id = $1 ORDER BY occurred_at, id', [user.id])).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'ACCOUNT_LOGIN_FAILED')).toHaveLength(5);
    expect(actions).toContain('ACCOUNT_LOCKED');
    expect(actions.at(-1)).toBe('ACCOUNT_LOGIN');
  });

  it('counts parallel wrong passwords exactly: locked after five, no wrong login accepted', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const address = newAddress();
    const responses = await Promise.all(Array.from({ length: 8 }, () => login(tenant.code, user.email ?? '', 'Wrong@123', address)));
    expect(responses.every((response) => response.statusCode === 400)).toBe(true);
    const [row] = await asOwner<{ failed_logins: number; locked: boolean }>(testDb.ownerUrl, 'SELECT failed_logins, locked_until IS NOT NULL AS locked FROM users WHERE id = $1', [user.id]);
    expect(row?.locked).toBe(true);
    expect(row?.failed_logins).toBeGreaterThanOrEqual(5);
    expect((await login(tenant.code, user.email ?? '', TEST_PASSWORD, address)).json()).toMatchObject({ code: 'auth.accountLocked' });
  });

  it('resets the count after a successful login', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const address = newAddress();
    for (let attempt = 0; attempt < 4; attempt++) await login(tenant.code, user.email ?? '', 'Wrong@123', address);
    expect((await login(tenant.code, user.email ?? '', TEST_PASSWORD, address)).statusCode).toBe(200);
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await login(tenant.code, user.email ?? '', 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    }
  });

  it('ends the sessions of an account when it gets locked', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    const address = newAddress();
    for (let attempt = 0; attempt < 5; attempt++) await login(tenant.code, user.email ?? '', 'Wrong@123', address);
    expect((await app.inject({ url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(401);
  });
});

describe('no account oracle in the lockout', () => {
  it('answers an unknown login exactly like a known one at attempts 1 to 7, in both languages', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const platformStaff = await createPlatformUser(testDb.database, { role: 'ROOT' });
    const knownLogins = [user.email ?? '', platformStaff.email ?? ''];
    for (const language of ['en', 'vi']) {
      const unknown = `nobody-${language}-${addressCounter}@test.example`;
      const known = knownLogins.shift() ?? '';
      const [knownAddress, unknownAddress] = [newAddress(), newAddress()];
      for (let attempt = 1; attempt <= 7; attempt++) {
        const knownAnswer = answerOf(await login(tenant.code, known, 'Wrong@123', knownAddress, language));
        const unknownAnswer = answerOf(await login(tenant.code, unknown, 'Wrong@123', unknownAddress, language));
        expect(unknownAnswer, `attempt ${attempt} (${language})`).toEqual(knownAnswer);
        expect(knownAnswer.code).toBe(attempt < 5 ? 'auth.wrongCredentials' : 'auth.accountLocked');
      }
      // Locked for 24 hours, like the account; afterwards both count from the start again.
      clock.advance(24 * HOUR + 1000);
      expect(answerOf(await login(tenant.code, unknown.toUpperCase(), 'Wrong@123', unknownAddress, language))).toEqual(
        answerOf(await login(tenant.code, known, 'Wrong@123', knownAddress, language)),
      );
    }
  });

  it('counts an unknown name however it is typed (case, spaces) and stores only a keyed hash of it', async () => {
    const tenant = await createTenant(testDb.database);
    const address = newAddress();
    const name = `Someone-${addressCounter}@Test.example`;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const typed = attempt % 2 === 0 ? ` ${name.toUpperCase()} ` : name.toLowerCase();
      expect((await login(tenant.code, typed, 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    }
    expect((await login(tenant.code, name, 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.accountLocked' });
    // Another tenant's same name is another count.
    const other = await createTenant(testDb.database);
    expect((await login(other.code, name, 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.wrongCredentials' });

    const rows = await asOwner<{ tenant_id: string; identifier_hash: Buffer; failed_logins: number }>(
      testDb.ownerUrl,
      'SELECT tenant_id, identifier_hash, failed_logins FROM login_failures_unknown WHERE tenant_id = ANY($1::uuid[]) ORDER BY failed_logins DESC',
      [[tenant.id, other.id]],
    );
    expect(rows.map((row) => [row.tenant_id, row.failed_logins, row.identifier_hash.length])).toEqual([
      [tenant.id, 5, 32],
      [other.id, 1, 32],
    ]);
    expect(rows[0]?.identifier_hash.toString('latin1').toLowerCase()).not.toContain('someone');
  });

  it('answers a wrong password for an account locked by status like any other account, until the count locks it', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { status: 'LOCKED' });
    const address = newAddress();
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await login(tenant.code, user.email ?? '', 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    }
    expect((await login(tenant.code, user.email ?? '', 'Wrong@123', address)).json()).toMatchObject({ code: 'auth.accountLocked' });
    const fresh = await createTenantUser(testDb.database, tenant.id, { status: 'LOCKED' });
    expect((await login(tenant.code, fresh.email ?? '', TEST_PASSWORD, address)).json()).toMatchObject({ code: 'auth.accountLocked' });
  });
});

describe('per-address throttling', () => {
  it('answers 429 after too many failures from one address, for any account, until the window passes', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const address = newAddress();
    for (let attempt = 0; attempt < THROTTLE.failures; attempt++) {
      await login(tenant.code, `nobody-${attempt}@test.example`, 'Wrong@123', address);
    }
    const blocked = await login(tenant.code, user.email ?? '', TEST_PASSWORD, address);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'auth.throttled' });
    expect((await login(tenant.code, user.email ?? '', TEST_PASSWORD, newAddress())).statusCode).toBe(200);
    clock.advance(THROTTLE.windowMilliseconds + 1000);
    expect((await login(tenant.code, user.email ?? '', TEST_PASSWORD, address)).statusCode).toBe(200);
    expect(await testDb.database.system.$count(loginThrottle, eq(loginThrottle.key, `ip:${address}`))).toBe(1);
  });

  const failFrom = (target: FastifyInstance, tenant: string, remoteAddress: string, forwardedFor: string) =>
    target.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: { tenant, username: `nobody-${forwardedFor}@test.example`, password: 'Wrong@123', grant_type: 'password' },
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('ignores X-Forwarded-For without TRUST_PROXY: varying it does not escape the throttle of the real address', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const address = newAddress();
    for (let attempt = 0; attempt < THROTTLE.failures; attempt++) await failFrom(app, tenant.code, address, `203.0.113.${attempt + 1}`);
    const blocked = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' },
      remoteAddress: address,
      headers: { 'x-forwarded-for': '198.51.100.77' },
    });
    expect(blocked.statusCode).toBe(429);
    const keys = await testDb.database.system.select({ key: loginThrottle.key }).from(loginThrottle);
    expect(keys.map((row) => row.key).filter((key) => key.startsWith('ip:203.0.113.') || key === 'ip:198.51.100.77')).toEqual([]);
  });

  it('with TRUST_PROXY, counts failures per forwarded client behind a listed proxy, and ignores the header from anyone else', async () => {
    const proxied = await createTestApp(testDb.database, { trustProxy: ['127.0.0.1', '192.0.2.0/24'] }, clock);
    try {
      const tenant = await createTenant(testDb.database);
      const user = await createTenantUser(testDb.database, tenant.id);
      const [clientA, clientB] = ['198.51.100.10', '198.51.100.11'];
      const signIn = (remoteAddress: string, forwardedFor: string) =>
        proxied.inject({
          method: 'POST',
          url: '/auth/oauth-token',
          payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' },
          remoteAddress,
          headers: { 'x-forwarded-for': forwardedFor },
        });
      for (let attempt = 0; attempt < THROTTLE.failures; attempt++) await failFrom(proxied, tenant.code, '127.0.0.1', clientA);
      expect((await signIn('127.0.0.1', clientA)).statusCode).toBe(429);
      // Another client behind the same proxy (or another listed one) is not blocked by A's failures.
      expect((await signIn('127.0.0.1', clientB)).statusCode).toBe(200);
      expect((await signIn('192.0.2.5', clientB)).statusCode).toBe(200);
      const [audited] = await asOwner<{ ip: string }>(
        testDb.ownerUrl,
        "SELECT ip FROM audit_log WHERE subject_user_id = $1 AND action = 'ACCOUNT_LOGIN' ORDER BY occurred_at LIMIT 1",
        [user.id],
      );
      expect(audited?.ip).toBe(clientB);

      // From an address that is not a listed proxy the header is a spoof: the real address counts.
      const stranger = newAddress();
      for (let attempt = 0; attempt < THROTTLE.failures; attempt++) await failFrom(proxied, tenant.code, stranger, `203.0.113.${100 + attempt}`);
      expect((await signIn(stranger, '198.51.100.99')).statusCode).toBe(429);
      expect((await signIn('127.0.0.1', '198.51.100.99')).statusCode).toBe(200);
      expect(await testDb.database.system.$count(loginThrottle, eq(loginThrottle.key, `ip:${stranger}`))).toBe(1);
      expect(await testDb.database.system.$count(loginThrottle, eq(loginThrottle.key, 'ip:127.0.0.1'))).toBe(0);
    } finally {
      await proxied.close();
    }
  });
});

describe('client apps', () => {
  it('lets only doctor accounts into the doctor app', async () => {
    const tenant = await createTenant(testDb.database);
    const nurse = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR_ASSISTANT' });
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const payload = (username: string | null) => ({ tenant: tenant.code, username, password: TEST_PASSWORD, grant_type: 'password', app: 'doctor' });
    const refused = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: payload(nurse.email) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'auth.doctorOnly', message: 'Please login with Doctor account' });
    const accepted = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: payload(doctor.email) });
    const body = accepted.json<{ data: { role: string; accessToken?: string; refreshToken?: string } }>().data;
    expect(body.role).toBe('DOCTOR');
    expect(body.accessToken).toMatch(/^[\w-]{43}$/);
    expect(body.refreshToken).toMatch(/^[\w-]{43}$/);
    expect(accepted.cookies).toEqual([]);
  });

  it('lets only patient accounts into the patient app: staff get the permission message, no session', async () => {
    const tenant = await createTenant(testDb.database);
    const patient = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const payload = (username: string | null) => ({ tenant: tenant.code, username, password: TEST_PASSWORD, grant_type: 'password', app: 'patient' });
    for (const role of ['DOCTOR', 'OPERATOR', 'CSKH', 'DOCTOR_ASSISTANT', 'ADMIN'] as const) {
      const staff = await createTenantUser(testDb.database, tenant.id, { role });
      const refused = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: payload(staff.email) });
      expect(refused.statusCode, role).toBe(403);
      expect(refused.json(), role).toMatchObject({ code: 'auth.patientOnly', message: "You don't have permission to access" });
      expect(refused.json<{ data?: unknown }>().data, role).toBeUndefined();
      expect(await testDb.database.system.$count(sessions, eq(sessions.userId, staff.id)), role).toBe(0);
    }
    const accepted = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: payload(patient.email) });
    expect(accepted.statusCode).toBe(200);
    const body = accepted.json<{ data: { role: string; accessToken?: string } }>().data;
    expect(body.role).toBe('PATIENT');
    expect(body.accessToken).toMatch(/^[\w-]{43}$/);
  });

  it('ends the patient-app sessions staff opened before the rule (migration 0026): log in again, then refused', async () => {
    const tenant = await createTenant(testDb.database);
    const patient = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const formerStaff = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const appLogin = async (email: string | null) =>
      (
        await app.inject({
          method: 'POST',
          url: '/auth/oauth-token',
          payload: { tenant: tenant.code, username: email, password: TEST_PASSWORD, grant_type: 'password', app: 'patient' },
        })
      ).json<{ data: { accessToken: string } }>().data.accessToken;
    const patientToken = await appLogin(patient.email);
    const staffToken = await appLogin(formerStaff.email);
    // A session an operator got on the patient app before logins checked the role.
    await asOwner(testDb.ownerUrl, `UPDATE users SET role = 'OPERATOR' WHERE id = $1`, [formerStaff.id]);
    await asOwner(testDb.ownerUrl, `UPDATE sessions SET role = 'OPERATOR' WHERE user_id = $1`, [formerStaff.id]);
    const check = (token: string) => app.inject({ url: '/auth/check-token', headers: { authorization: `Bearer ${token}` } });
    expect((await check(staffToken)).statusCode).toBe(200);

    await asOwner(testDb.ownerUrl, readFileSync(path.join(findMigrationsDirectory(), '0026_patient_app_staff_sessions.sql'), 'utf8'));
    const ended = await check(staffToken);
    expect([ended.statusCode, ended.json<{ code: string }>().code]).toEqual([401, 'auth.permissionChanged']);
    expect((await check(patientToken)).statusCode).toBe(200);
  });

  it('keeps one session per app: a console login does not end the doctor app session', async () => {
    const tenant = await createTenant(testDb.database);
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const appLogin = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: tenant.code, username: doctor.email, password: TEST_PASSWORD, grant_type: 'password', app: 'doctor' } });
    const appToken = appLogin.json<{ data: { accessToken: string } }>().data.accessToken;
    await logIn(app, tenant.code, doctor.email ?? '');
    expect((await app.inject({ url: '/auth/check-token', headers: { authorization: `Bearer ${appToken}` } })).statusCode).toBe(200);
  });
});
