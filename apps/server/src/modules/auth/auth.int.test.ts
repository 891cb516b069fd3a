import { DEFAULT_ROLE_PERMISSIONS } from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, sessionCookieOf, withSession } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPlatformUser, createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import type { Database } from '../../db/database.js';
import { platformStaffTenants, sessions, tenants, users } from '../../db/schema.js';
import { hashToken } from './tokens.js';

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

const login = (payload: Record<string, unknown>, language = 'en') =>
  app.inject({ method: 'POST', url: '/auth/oauth-token', payload, headers: { 'accept-language': language } });

describe('POST /auth/oauth-token (password grant)', () => {
  it('logs a tenant user in with email or phone and sets an httpOnly, SameSite=Strict session cookie', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', phone: '0981234567', firstName: 'Linh', lastName: 'Nguyen' });
    for (const username of [user.email?.toUpperCase(), '0981234567']) {
      const response = await login({ tenant: tenant.code, username, password: TEST_PASSWORD, grant_type: 'password' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        resultCode: 200,
        data: { userId: user.id, tenantId: tenant.id, role: 'DOCTOR', fullName: 'Linh Nguyen' },
      });
      const cookie = response.cookies.find((candidate) => candidate.name === 'rpm_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(cookie?.maxAge).toBeUndefined();
    }
  });

  it('stores only the token’s hash', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    const stored = await testDb.database.system.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash.equals(hashToken(token))).toBe(true);
    expect(stored[0]?.tokenHash.toString('utf8')).not.toContain(token);
  });

  it('keeps a remembered session for 30 days with a persistent cookie', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const response = await login({ tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password', remember_me: true });
    const cookie = response.cookies.find((candidate) => candidate.name === 'rpm_session');
    expect(cookie?.maxAge).toBeGreaterThan(29 * 24 * 3600);
  });

  it('answers a wrong password and an unknown user with the same message, in the caller’s language', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const wrongPassword = await login({ tenant: tenant.code, username: user.email, password: 'Wrong@123', grant_type: 'password' });
    const unknownUser = await login({ tenant: tenant.code, username: 'nobody@test.example', password: 'Wrong@123', grant_type: 'password' });
    for (const response of [wrongPassword, unknownUser]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ resultCode: 500, code: 'auth.wrongCredentials', message: 'Wrong login information' });
      expect(response.cookies).toEqual([]);
    }
    const vietnamese = await login({ tenant: tenant.code, username: user.email, password: 'Wrong@123', grant_type: 'password' }, 'vi');
    expect(vietnamese.json()).toMatchObject({ message: 'Thông tin đăng nhập không đúng' });
  });

  it('refuses an unknown or inactive tenant', async () => {
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE' });
    const user = await createTenantUser(testDb.database, inactive.id);
    for (const tenant of ['no-such-tenant', inactive.code]) {
      const response = await login({ tenant, username: user.email, password: TEST_PASSWORD, grant_type: 'password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'tenant.notFound', message: 'Wrong tenant or tenant code' });
    }
  });

  it('does not let a user of one tenant log in through another tenant', async () => {
    const tenantA = await createTenant(testDb.database);
    const tenantB = await createTenant(testDb.database);
    const userOfB = await createTenantUser(testDb.database, tenantB.id);
    const response = await login({ tenant: tenantA.code, username: userOfB.email, password: TEST_PASSWORD, grant_type: 'password' });
    expect(response.json()).toMatchObject({ code: 'auth.wrongCredentials' });
  });

  it('refuses a disabled or locked account after a correct password; a wrong one answers as for any account', async () => {
    const tenant = await createTenant(testDb.database);
    const disabled = await createTenantUser(testDb.database, tenant.id, { status: 'DISABLED' });
    const locked = await createTenantUser(testDb.database, tenant.id, { status: 'LOCKED' });
    expect((await login({ tenant: tenant.code, username: disabled.email, password: TEST_PASSWORD, grant_type: 'password' })).json()).toMatchObject({ code: 'auth.accountDisabled' });
    expect((await login({ tenant: tenant.code, username: locked.email, password: TEST_PASSWORD, grant_type: 'password' })).json()).toMatchObject({ code: 'auth.accountLocked', message: 'This account has been locked' });
    // Saying "locked" before the password is proven would tell a stranger the account exists.
    expect((await login({ tenant: tenant.code, username: locked.email, password: 'Wrong@123', grant_type: 'password' })).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    expect((await login({ tenant: tenant.code, username: disabled.email, password: 'Wrong@123', grant_type: 'password' })).json()).toMatchObject({ code: 'auth.wrongCredentials' });
  });

  it('lets platform staff log in inside the tenant they choose', async () => {
    const tenant = await createTenant(testDb.database);
    const staff = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const response = await login({ tenant: tenant.code, username: staff.email, password: TEST_PASSWORD, grant_type: 'password' });
    expect(response.json()).toMatchObject({ data: { userId: staff.id, tenantId: tenant.id, role: 'SUPER_ADMIN' } });
  });

  it('lets a system admin in only to the tenants assigned to them', async () => {
    const assigned = await createTenant(testDb.database);
    const other = await createTenant(testDb.database);
    const admin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: admin.id, tenantId: assigned.id });
    expect((await login({ tenant: assigned.code, username: admin.email, password: TEST_PASSWORD, grant_type: 'password' })).statusCode).toBe(200);
    expect((await login({ tenant: other.code, username: admin.email, password: TEST_PASSWORD, grant_type: 'password' })).json()).toMatchObject({ code: 'auth.wrongCredentials' });
  });

  it('does not let a non-staff account of the platform tenant act in a customer tenant', async () => {
    const tenant = await createTenant(testDb.database);
    const notStaff = await createPlatformUser(testDb.database, { role: 'DOCTOR' });
    const response = await login({ tenant: tenant.code, username: notStaff.email, password: TEST_PASSWORD, grant_type: 'password' });
    expect(response.json()).toMatchObject({ code: 'auth.wrongCredentials' });
  });

  it('rejects malformed bodies with field-level errors and stores nothing', async () => {
    const before = await testDb.database.system.$count(sessions);
    const response = await login({ tenant: '', username: 42, grant_type: 'client_credentials' });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; fieldErrors: { field: string; code: string }[] }>();
    expect(body.code).toBe('common.invalidParameter');
    expect(body.fieldErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.tenant', code: 'too_small' }),
        expect.objectContaining({ field: 'body.username', code: 'invalid_type' }),
        expect.objectContaining({ field: 'body.password', code: 'required' }),
        expect.objectContaining({ field: 'body.grant_type', code: 'invalid_value' }),
      ]),
    );
    expect(await testDb.database.system.$count(sessions)).toBe(before);
  });

  it('answers malformed JSON with the invalid-parameter envelope', async () => {
    const response = await app.inject({ method: 'POST', url: '/auth/oauth-token', headers: { 'content-type': 'application/json' }, payload: '{"tenant":' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ resultCode: 500, code: 'common.invalidParameter' });
  });
});

describe('sessions: check-token, permission, logout', () => {
  it('returns the session, and the role’s permissions', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
    const token = await logIn(app, tenant.code, user.email ?? '');
    const check = await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) });
    expect(check.json()).toMatchObject({ resultCode: 200, data: { userId: user.id, role: 'OPERATOR' } });
    const bearer = await app.inject({ method: 'GET', url: '/auth/check-token', headers: { authorization: `Bearer ${token}` } });
    expect(bearer.statusCode).toBe(200);
    const permission = await app.inject({ method: 'POST', url: '/auth/permission', payload: {}, ...withSession(token) });
    expect(permission.json<{ data: { permissions: string[] } }>().data.permissions.sort()).toEqual([...DEFAULT_ROLE_PERMISSIONS.OPERATOR].sort());
  });

  it('answers 401 "Please login to continue" without a session or with a forged token', async () => {
    for (const request of [{}, withSession('forged-token'), { headers: { authorization: 'Bearer forged' } }]) {
      const response = await app.inject({ method: 'GET', url: '/auth/check-token', ...request });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ resultCode: 500, code: 'auth.unauthorized', message: 'Please login to continue' });
    }
    const vietnamese = await app.inject({ method: 'POST', url: '/auth/permission', payload: {}, headers: { 'accept-language': 'vi-VN,vi;q=0.9' } });
    expect(vietnamese.json()).toMatchObject({ message: 'Vui lòng đăng nhập để tiếp tục' });
  });

  it('ends the older session with 403 "logged in somewhere else" when the user logs in again', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const first = await logIn(app, tenant.code, user.email ?? '');
    const second = await logIn(app, tenant.code, user.email ?? '');
    const old = await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(first) });
    expect(old.statusCode).toBe(403);
    expect(old.json()).toMatchObject({
      code: 'auth.loggedInElsewhere',
      message: 'Your account was logged in somewhere else. Please login to continue',
    });
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(second) })).statusCode).toBe(200);
  });

  it('answers "Your session is expired!" after expiry', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    await testDb.database.system.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.tokenHash, hashToken(token)));
    const response = await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'auth.sessionExpired', message: 'Your session is expired!' });
  });

  it('refuses the token after logout and clears the cookie', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    const logout = await app.inject({ method: 'POST', url: '/auth/logout', payload: {}, ...withSession(token) });
    expect(logout.json()).toEqual({ resultCode: 200, data: null });
    expect(logout.cookies.find((cookie) => cookie.name === 'rpm_session')?.value).toBe('');
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(401);
  });

  it('refuses the session of a user disabled after login', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    await testDb.database.withTenant(tenant.id, (tx) => tx.update(users).set({ status: 'DISABLED' }).where(eq(users.id, user.id)));
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(401);
  });

  it('refuses, on its next request, the session of a tenant made inactive after login', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const token = await logIn(app, tenant.code, user.email ?? '');
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(200);
    await testDb.database.system.update(tenants).set({ status: 'INACTIVE' }).where(eq(tenants.id, tenant.id));
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(401);
    await testDb.database.system.update(tenants).set({ status: 'ACTIVE' }).where(eq(tenants.id, tenant.id));
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(200);
  });

  it('issues a session that is a different token every time', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const tokens = new Set<string>();
    for (let index = 0; index < 3; index++) {
      const response = await login({ tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' });
      tokens.add(sessionCookieOf(response));
    }
    expect(tokens.size).toBe(3);
  });
});

describe('the context of a request, read with its session', () => {
  /** Counts the tenant transactions the database opens while `work` runs. */
  async function tenantTransactionsDuring(work: () => Promise<unknown>) {
    const database = testDb.database;
    const original = database.withTenant.bind(database);
    let count = 0;
    database.withTenant = <T>(...args: Parameters<Database['withTenant']>) => {
      count += 1;
      return original(...args) as Promise<T>;
    };
    try {
      await work();
    } finally {
      database.withTenant = original;
    }
    return count;
  }

  it('takes no transaction of its own for a patient or a tenant-wide admin, and one for a doctor of a center (whose visibility is read)', async () => {
    const tenant = await createTenant(testDb.database);
    const center = await createHealthCenter(testDb.database, tenant.id);
    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const patient = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR', healthCenterId: center.id });
    const checks = async (email: string | null) => {
      const token = await logIn(app, tenant.code, email ?? '');
      let status = 0;
      const count = await tenantTransactionsDuring(async () => {
        status = (await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode;
      });
      expect(status).toBe(200);
      return count;
    };
    expect(await checks(admin.email)).toBe(0);
    expect(await checks(patient.email)).toBe(0);
    expect(await checks(doctor.email)).toBe(1);
  });

  it('reads the account in the session’s statement under the account tenant’s rules, and leaves the caller’s tenant settings as they were', async () => {
    const tenant = await createTenant(testDb.database);
    const other = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN', firstName: 'Minh' });
    const token = await logIn(app, tenant.code, user.email ?? '');
    const [stored] = await testDb.database.system.select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    const seen = await testDb.database.withTenant(other.id, async (tx) => {
      const result = await tx.execute<{ account: { id: string; tenantId: string; firstName: string } | null; tenant: string; centers: string }>(
        sql`SELECT app_session_account(${stored?.id ?? ''}::uuid) AS account,
                   current_setting('app.tenant_id') AS tenant, current_setting('app.center_ids') AS centers`,
      );
      const after = await tx.execute<{ tenant: string }>(sql`SELECT current_setting('app.tenant_id') AS tenant`);
      return { ...result.rows[0], after: after.rows[0]?.tenant };
    }, { centerIds: [] });
    expect(seen.account).toMatchObject({ id: user.id, tenantId: tenant.id, firstName: 'Minh' });
    expect(seen.tenant).toBe(other.id);
    expect(seen.centers).toBe('none');
    expect(seen.after).toBe(other.id);
    const unknown = await testDb.database.system.execute<{ account: unknown }>(sql`SELECT app_session_account(${uuidv7()}::uuid) AS account`);
    expect(unknown.rows[0]?.account).toBeNull();
  });
});

