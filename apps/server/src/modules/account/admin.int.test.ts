import { platformStaffTenants } from '../../db/schema.js';
import type { RoleCode } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';

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

const NEW_PASSWORD = 'M0i@Matkhau';

const login = (tenant: string, username: string | null, password = TEST_PASSWORD) =>
  app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant, username, password, grant_type: 'password' } });
const setPassword = (token: string, userId: string, newPassword = NEW_PASSWORD) =>
  app.inject({ method: 'PUT', url: '/manage/system-admin/change-password', payload: { userId, newPassword }, ...withSession(token) });
const unlock = (token: string, userId: string) =>
  app.inject({ method: 'POST', url: '/account/admin/user/unlock', payload: { userId }, ...withSession(token) });

const userState = async (id: string) =>
  (await asOwner<{ password_hash: string; failed_logins: number; locked_until: Date | null; status: string }>(
    testDb.ownerUrl,
    'SELECT password_hash, failed_logins, locked_until, status FROM users WHERE id = $1',
    [id],
  ))[0];
const auditsOf = (subjectId: string, action: string) =>
  asOwner<{ actor_user_id: string; tenant_id: string }>(
    testDb.ownerUrl,
    'SELECT actor_user_id, tenant_id FROM audit_log WHERE subject_user_id = $1 AND action = $2',
    [subjectId, action],
  );

/** A tenant with a signed-in member of `role` and another user (the target). */
async function tenantWith(role: RoleCode = 'ADMIN') {
  const tenant = await createTenant(testDb.database);
  const actor = await createTenantUser(testDb.database, tenant.id, { role });
  const target = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
  const token = await logIn(app, tenant.code, actor.email ?? '');
  return { tenant, actor, target, token };
}

describe('PUT /manage/system-admin/change-password', () => {
  it('sets the password of a user of the acting tenant, ends their sessions and audits it', async () => {
    const { tenant, actor, target, token } = await tenantWith('ADMIN');
    const targetToken = await logIn(app, tenant.code, target.email ?? '');
    const response = await setPassword(token, target.id);
    expect(response.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(targetToken) })).statusCode).toBe(401);
    expect((await login(tenant.code, target.email, TEST_PASSWORD)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    expect((await login(tenant.code, target.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await auditsOf(target.id, 'ACCOUNT_PASSWORD_SET_BY_ADMIN')).toEqual([{ actor_user_id: actor.id, tenant_id: tenant.id }]);
    // The administrator's own session goes on.
    expect((await app.inject({ method: 'GET', url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(200);
  });

  it('refuses a role without staff.update (a doctor) and changes nothing', async () => {
    const { target, token } = await tenantWith('DOCTOR');
    const before = await userState(target.id);
    const response = await setPassword(token, target.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect(await userState(target.id)).toEqual(before);
  });

  it('answers another tenant’s user with 404, and leaves them untouched', async () => {
    const { token } = await tenantWith('ADMIN');
    const other = await tenantWith('ADMIN');
    const before = await userState(other.target.id);
    const response = await setPassword(token, other.target.id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'account.notFound' });
    expect(await userState(other.target.id)).toEqual(before);
    expect(await auditsOf(other.target.id, 'ACCOUNT_PASSWORD_SET_BY_ADMIN')).toEqual([]);
    // Platform staff are out of a tenant administrator’s reach, and just as invisible.
    const staff = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    expect((await setPassword(token, staff.id)).json()).toMatchObject({ code: 'account.notFound' });
  });

  it('applies the tenant’s password rule', async () => {
    const { target, token } = await tenantWith('ADMIN');
    const before = await userState(target.id);
    expect((await setPassword(token, target.id, 'weakpass')).json()).toMatchObject({ code: 'password.tooWeak' });
    expect((await setPassword(token, target.id, 'Password1!')).json()).toMatchObject({ code: 'password.common' });
    expect(await userState(target.id)).toEqual(before);
  });

  it('is not a way around the current password for one’s own account', async () => {
    const { actor, token } = await tenantWith('ADMIN');
    const before = await userState(actor.id);
    expect((await setPassword(token, actor.id)).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect(await userState(actor.id)).toEqual(before);
  });

  describe('super admin accounts (spec §6)', () => {
    it('refuses a system admin setting a super admin’s password', async () => {
      const platform = await asOwner<{ code: string }>(testDb.ownerUrl, 'SELECT code FROM tenants WHERE is_platform');
      const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
      const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
      const root = await createPlatformUser(testDb.database, { role: 'ROOT' });
      const token = await logIn(app, platform[0]?.code ?? '', systemAdmin.email ?? '');
      for (const target of [superAdmin, root]) {
        const before = await userState(target.id);
        const response = await setPassword(token, target.id);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({
          code: 'account.superAdminPasswordForbidden',
          message: 'Only a super admin can set a new password for a super admin account',
        });
        expect(await userState(target.id)).toEqual(before);
      }
      // Other platform staff are managed by ROOT and SUPER_ADMIN only.
      const otherSystemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
      expect((await setPassword(token, otherSystemAdmin.id)).json()).toMatchObject({ code: 'auth.permissionDenied' });
    });

    it('lets a super admin, acting in any tenant, set a super admin’s or a system admin’s password', async () => {
      const tenant = await createTenant(testDb.database);
      const actor = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
      const otherSuperAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
      const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
      await testDb.database.system.insert(platformStaffTenants).values({ userId: systemAdmin.id, tenantId: tenant.id });
      const token = await logIn(app, tenant.code, actor.email ?? '');
      for (const target of [otherSuperAdmin, systemAdmin]) {
        expect((await setPassword(token, target.id)).statusCode).toBe(200);
        expect((await login(tenant.code, target.email, NEW_PASSWORD)).statusCode).toBe(200);
        // Recorded where the account lives (the platform tenant), in that account's history.
        const [audit] = await auditsOf(target.id, 'ACCOUNT_PASSWORD_SET_BY_ADMIN');
        expect(audit).toEqual({ actor_user_id: actor.id, tenant_id: actor.tenantId });
      }
    });
  });
});

describe('POST /account/admin/user/unlock', () => {
  it('lifts a lock from five failed logins, so the account can log in again', async () => {
    const { tenant, actor, target, token } = await tenantWith('ADMIN');
    for (let attempt = 0; attempt < 5; attempt++) await login(tenant.code, target.email, 'Wrong@1234');
    expect((await login(tenant.code, target.email)).json()).toMatchObject({ code: 'auth.accountLocked' });
    expect((await userState(target.id))?.locked_until).toBeInstanceOf(Date);

    const response = await unlock(token, target.id);
    expect(response.statusCode).toBe(200);
    expect(await userState(target.id)).toMatchObject({ failed_logins: 0, locked_until: null, status: 'ACTIVE' });
    expect((await login(tenant.code, target.email)).statusCode).toBe(200);
    expect(await auditsOf(target.id, 'ACCOUNT_UNLOCKED')).toEqual([{ actor_user_id: actor.id, tenant_id: tenant.id }]);
  });

  it('turns a LOCKED account active, and leaves a disabled one disabled', async () => {
    const { tenant, token } = await tenantWith('ADMIN');
    const locked = await createTenantUser(testDb.database, tenant.id, { status: 'LOCKED', failedLogins: 5 });
    const disabled = await createTenantUser(testDb.database, tenant.id, { status: 'DISABLED', failedLogins: 2 });
    expect((await unlock(token, locked.id)).statusCode).toBe(200);
    expect((await unlock(token, disabled.id)).statusCode).toBe(200);
    expect(await userState(locked.id)).toMatchObject({ status: 'ACTIVE', failed_logins: 0 });
    expect(await userState(disabled.id)).toMatchObject({ status: 'DISABLED', failed_logins: 0 });
  });

  it('refuses a doctor, and answers another tenant’s user with 404 leaving the lock in place', async () => {
    const doctor = await tenantWith('DOCTOR');
    const lockedUntil = new Date(Date.now() + 3_600_000);
    const target = await createTenantUser(testDb.database, doctor.tenant.id, { status: 'LOCKED', failedLogins: 5, lockedUntil });
    expect((await unlock(doctor.token, target.id)).statusCode).toBe(403);
    expect(await userState(target.id)).toMatchObject({ status: 'LOCKED', failed_logins: 5 });

    const outsider = await tenantWith('ADMIN');
    const response = await unlock(outsider.token, target.id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'account.notFound' });
    expect(await userState(target.id)).toMatchObject({ status: 'LOCKED', failed_logins: 5, locked_until: lockedUntil });
    expect(await auditsOf(target.id, 'ACCOUNT_UNLOCKED')).toEqual([]);
  });

  it('refuses a malformed user id with a field error', async () => {
    const { token } = await tenantWith('ADMIN');
    const response = await unlock(token, 'not-a-uuid');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'common.invalidParameter', fieldErrors: [expect.objectContaining({ field: 'body.userId' })] });
  });
});
