import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { loginThrottle } from '../../db/schema.js';
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
const login = (tenant: string, username: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant, username, password, grant_type: 'password' }, remoteAddress });

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

  it('keeps one session per app: a console login does not end the doctor app session', async () => {
    const tenant = await createTenant(testDb.database);
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const appLogin = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: tenant.code, username: doctor.email, password: TEST_PASSWORD, grant_type: 'password', app: 'doctor' } });
    const appToken = appLogin.json<{ data: { accessToken: string } }>().data.accessToken;
    await logIn(app, tenant.code, doctor.email ?? '');
    expect((await app.inject({ url: '/auth/check-token', headers: { authorization: `Bearer ${appToken}` } })).statusCode).toBe(200);
  });
});
