import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';

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

async function tenantWithAdmin() {
  const tenant = await createTenant(testDb.database);
  const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
  return { tenant, admin, token: await logIn(app, tenant.code, admin.email ?? '') };
}

const createRole = (token: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/account/role', payload: body, ...withSession(token) });

describe('custom roles', () => {
  it('creates, lists, reads, updates and deletes a custom role, auditing each change', async () => {
    const { tenant, token } = await tenantWithAdmin();
    const created = await createRole(token, { name: 'Night nurse', description: 'Watches alerts at night', baseRole: 'OPERATOR', permissions: ['dashboard.view', 'user.view'] });
    expect(created.statusCode).toBe(200);
    const role = created.json<{ data: { id: string } }>().data;
    expect(created.json()).toMatchObject({ data: { name: 'Night nurse', baseRole: 'OPERATOR', permissions: ['dashboard.view', 'user.view'], userCount: 0 } });

    const list = await app.inject({ url: '/account/role?search=night', ...withSession(token) });
    expect(list.json()).toMatchObject({ data: { total: 1, items: [{ id: role.id }] } });
    expect((await app.inject({ url: `/account/role/${role.id}`, ...withSession(token) })).json()).toMatchObject({ data: { id: role.id } });

    const updated = await app.inject({ method: 'PUT', url: `/account/role/${role.id}`, payload: { name: 'Night operator', baseRole: 'OPERATOR', permissions: ['dashboard.view'] }, ...withSession(token) });
    expect(updated.json()).toMatchObject({ data: { name: 'Night operator', permissions: ['dashboard.view'] } });

    expect((await app.inject({ method: 'DELETE', url: `/account/role/${role.id}`, ...withSession(token) })).json()).toEqual({ resultCode: 200, data: null });
    expect((await app.inject({ url: `/account/role/${role.id}`, ...withSession(token) })).statusCode).toBe(404);

    const actions = (await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE tenant_id = $1 AND target_type = 'role' ORDER BY occurred_at, id`, [tenant.id])).map((row) => row.action);
    expect(actions).toEqual(['PERMISSION_ROLE_CREATED', 'PERMISSION_ROLE_UPDATED', 'PERMISSION_ROLE_DELETED']);
  });

  it('answers "Role exists" to a duplicate name (any case) and stores nothing', async () => {
    const { tenant, token } = await tenantWithAdmin();
    await createRole(token, { name: 'Coach lead', baseRole: 'COACH', permissions: ['user.view'] });
    const duplicate = await createRole(token, { name: 'COACH LEAD', baseRole: 'COACH', permissions: ['user.view'] });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'role.exists', message: 'Role exists' });
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM roles WHERE tenant_id = $1', [tenant.id])).toHaveLength(1);
  });

  it('validates the input: name, at least one permission, known permissions, no platform base role', async () => {
    const { token } = await tenantWithAdmin();
    for (const body of [
      { name: ' ', baseRole: 'COACH', permissions: ['user.view'] },
      { name: 'Empty', baseRole: 'COACH', permissions: [] },
      { name: 'Bogus', baseRole: 'COACH', permissions: ['user.fly'] },
      { name: 'Boss', baseRole: 'SUPER_ADMIN', permissions: ['user.view'] },
    ]) {
      const response = await createRole(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'common.invalidParameter' });
    }
  });

  it('refuses to grant permissions the author does not hold', async () => {
    const { token } = await tenantWithAdmin();
    const response = await createRole(token, { name: 'Tenant maker', baseRole: 'ADMIN', permissions: ['tenant.create'] });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'role.cannotGrant' });
  });

  it('is refused to a role without permission management (403) and isolated between tenants (404)', async () => {
    const { tenant, token } = await tenantWithAdmin();
    const role = (await createRole(token, { name: 'Scoped', baseRole: 'COACH', permissions: ['user.view'] })).json<{ data: { id: string } }>().data;
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const doctorToken = await logIn(app, tenant.code, doctor.email ?? '');
    expect((await app.inject({ url: '/account/role', ...withSession(doctorToken) })).statusCode).toBe(403);
    expect((await createRole(doctorToken, { name: 'X', baseRole: 'COACH', permissions: ['user.view'] })).json()).toMatchObject({ code: 'auth.permissionDenied' });

    const other = await tenantWithAdmin();
    expect((await app.inject({ url: `/account/role/${role.id}`, ...withSession(other.token) })).statusCode).toBe(404);
    const put = await app.inject({ method: 'PUT', url: `/account/role/${role.id}`, payload: { name: 'Stolen', baseRole: 'COACH', permissions: ['user.view'] }, ...withSession(other.token) });
    expect(put.statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/account/role/${role.id}`, ...withSession(other.token) })).statusCode).toBe(404);
    const [stored] = await asOwner<{ name: string }>(testDb.ownerUrl, 'SELECT name FROM roles WHERE id = $1', [role.id]);
    expect(stored?.name).toBe('Scoped');
  });
});

describe('assigning roles', () => {
  it('gives a user a custom role: their session ends, and after logging in again they hold exactly its permissions', async () => {
    const { tenant, token } = await tenantWithAdmin();
    const role = (await createRole(token, { name: 'Dashboard only', baseRole: 'OPERATOR', permissions: ['dashboard.view', 'device.view'] })).json<{ data: { id: string } }>().data;
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const before = await logIn(app, tenant.code, user.email ?? '');

    const assigned = await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id, role: role.id }, ...withSession(token) });
    expect(assigned.json()).toMatchObject({ data: { id: user.id, role: 'OPERATOR', customRole: { id: role.id, name: 'Dashboard only' } } });

    expect((await app.inject({ url: `/account/role/${role.id}`, ...withSession(token) })).json()).toMatchObject({ data: { userCount: 1 } });
    const old = await app.inject({ url: '/auth/check-token', ...withSession(before) });
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ code: 'auth.permissionChanged' });

    const after = await logIn(app, tenant.code, user.email ?? '');
    const permissions = await app.inject({ method: 'POST', url: '/auth/permission', payload: {}, ...withSession(after) });
    expect(permissions.json<{ data: { permissions: string[] } }>().data.permissions.sort()).toEqual(['dashboard.view', 'device.view']);
    expect((await app.inject({ url: '/auth/check-token', ...withSession(after) })).json()).toMatchObject({ data: { role: 'OPERATOR' } });
  });

  it('ends the sessions of every holder when the role’s permissions change, and not when only its name does', async () => {
    const { tenant, token } = await tenantWithAdmin();
    const role = (await createRole(token, { name: 'Watcher', baseRole: 'OPERATOR', permissions: ['dashboard.view'] })).json<{ data: { id: string } }>().data;
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
    await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id, role: role.id }, ...withSession(token) });
    const session = await logIn(app, tenant.code, user.email ?? '');

    await app.inject({ method: 'PUT', url: `/account/role/${role.id}`, payload: { name: 'Watcher (renamed)', baseRole: 'OPERATOR', permissions: ['dashboard.view'] }, ...withSession(token) });
    expect((await app.inject({ url: '/auth/check-token', ...withSession(session) })).statusCode).toBe(200);

    await app.inject({ method: 'PUT', url: `/account/role/${role.id}`, payload: { name: 'Watcher (renamed)', baseRole: 'OPERATOR', permissions: ['dashboard.view', 'user.view'] }, ...withSession(token) });
    expect((await app.inject({ url: '/auth/check-token', ...withSession(session) })).json()).toMatchObject({ code: 'auth.permissionChanged' });
    expect((await app.inject({ method: 'DELETE', url: `/account/role/${role.id}`, ...withSession(token) })).json()).toMatchObject({ code: 'role.inUse' });
  });

  it('assigns a default role back, refuses unknown roles, and keeps other tenants’ users out of reach', async () => {
    const { tenant, token } = await tenantWithAdmin();
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'COACH' });
    expect((await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id, role: 'DOCTOR' }, ...withSession(token) })).json()).toMatchObject({ data: { role: 'DOCTOR', customRole: null } });
    expect((await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id, role: '01890000-0000-7000-8000-000000000000' }, ...withSession(token) })).statusCode).toBe(404);
    expect((await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id }, ...withSession(token) })).statusCode).toBe(400);

    const other = await tenantWithAdmin();
    const response = await app.inject({ method: 'PUT', url: '/account/admin/user/role', payload: { userId: user.id, role: 'COACH' }, ...withSession(other.token) });
    expect(response.statusCode).toBe(404);
    const [stored] = await asOwner<{ role: string }>(testDb.ownerUrl, 'SELECT role FROM users WHERE id = $1', [user.id]);
    expect(stored?.role).toBe('DOCTOR');
  });

  it('lists assignable users with search, without platform staff', async () => {
    const { tenant, token } = await tenantWithAdmin();
    await createTenantUser(testDb.database, tenant.id, { firstName: 'Quynh', lastName: 'Tran', role: 'COACH' });
    const found = await app.inject({ url: '/account/role/assignable-users?search=quynh', ...withSession(token) });
    expect(found.json()).toMatchObject({ data: { total: 1, items: [{ fullName: 'Quynh Tran', role: 'COACH', customRole: null }] } });
  });

  it('lists the default roles with their permissions', async () => {
    const { token } = await tenantWithAdmin();
    const defaults = (await app.inject({ url: '/account/role/default', ...withSession(token) })).json<{ data: { code: string }[] }>().data;
    expect(defaults.map((role) => role.code)).toContain('DOCTOR');
    expect(defaults.map((role) => role.code)).not.toContain('SUPER_ADMIN');
  });
});
