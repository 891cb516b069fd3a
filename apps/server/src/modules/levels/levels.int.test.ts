import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieOf } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { platformStaffTenants } from '../../db/schema.js';
import { REFRESH_COOKIE } from '../../http/access.js';
import { auditActions, call, idsOf, logInAs, organisation, storedUser } from '../staff/test-support.js';

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

const switchTo = (token: string, body: Record<string, unknown>) => call(app, token, 'PUT', '/account/level', body);
const options = async (token: string) =>
  (await call(app, token, 'GET', '/account/level/options')).json<{
    data: { current: Record<string, unknown>; levels: { id: string | null; role: string }[]; tenants: { id: string }[]; scopes: { id: string }[]; centers: { id: string }[] };
  }>().data;
const sessionOf = async (userId: string) =>
  (await asOwner<{ level_id: string | null; filter_scope_id: string | null; filter_center_id: string | null; tenant_id: string; role: string }>(
    testDb.ownerUrl,
    'SELECT level_id, filter_scope_id, filter_center_id, tenant_id, role FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
    [userId],
  ))[0];

describe('the level switcher of a tenant’s staff', () => {
  it('offers a tenant-wide admin every scope and center, and the lists follow the chosen center until switched back', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const offered = await options(token);
    expect(offered.current).toEqual({ levelId: null, tenantId: org.tenant.id, scopeId: null, centerId: null });
    expect(offered.levels).toEqual([expect.objectContaining({ id: null, role: 'ADMIN' })]);
    expect(offered.tenants.map((tenant) => tenant.id)).toEqual([org.tenant.id]);
    expect(new Set(offered.scopes.map((scope) => scope.id))).toEqual(new Set([org.north, org.south]));
    expect(new Set(offered.centers.map((center) => center.id))).toEqual(new Set([org.centerA.id, org.centerB.id]));

    const doctors = () => call(app, token, 'GET', '/account/admin/mhsc-doctor');
    expect(new Set(idsOf(await doctors()))).toEqual(new Set([org.doctorA.id, org.doctorB.id]));
    const narrowed = await switchTo(token, { levelId: null, scopeId: null, centerId: org.centerA.id });
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json()).toMatchObject({ data: { role: 'ADMIN', tenantId: org.tenant.id, centerId: org.centerA.id, levelId: null } });
    expect(narrowed.json<{ data: { permissions: string[] } }>().data.permissions).toContain('staff.view');
    expect(await sessionOf(org.admin.id)).toMatchObject({ filter_center_id: org.centerA.id, filter_scope_id: null, level_id: null });
    expect(idsOf(await doctors())).toEqual([org.doctorA.id]);
    expect(idsOf(await call(app, token, 'GET', '/account/admin/mhsc-admin'))).toEqual([org.adminA.id]);
    expect((await options(token)).current).toMatchObject({ centerId: org.centerA.id });

    await switchTo(token, { scopeId: org.south, centerId: null });
    expect(idsOf(await doctors())).toEqual([org.doctorB.id]);
    await switchTo(token, { scopeId: null, centerId: null });
    expect(new Set(idsOf(await doctors()))).toEqual(new Set([org.doctorA.id, org.doctorB.id]));
    const switches = (await auditActions(testDb.ownerUrl, org.admin.id)).filter((row) => row.action === 'LEVEL_SWITCHED');
    expect(switches).toHaveLength(3);
    expect(switches[0]?.details).toMatchObject({ to: { centerId: org.centerA.id } });
  });

  it('keeps the choice across a refresh of the tokens', async () => {
    const org = await organisation(testDb);
    const login = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: org.tenant.code, username: org.admin.email, password: TEST_PASSWORD, grant_type: 'password' } });
    const token = sessionCookieOf(login);
    const refresh = login.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value ?? '';
    await switchTo(token, { centerId: org.centerB.id });
    const refreshed = await app.inject({ method: 'POST', url: '/auth/refresh-token', cookies: { [REFRESH_COOKIE]: refresh } });
    const next = sessionCookieOf(refreshed);
    expect(idsOf(await call(app, next, 'GET', '/account/admin/mhsc-doctor'))).toEqual([org.doctorB.id]);
  });

  it('keeps a center’s doctor to their center: another center is 403, an unknown one 404', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const offered = await options(token);
    expect(offered.centers.map((center) => center.id)).toEqual([org.centerA.id]);
    expect(offered.scopes).toEqual([]);
    expect(offered.current).toMatchObject({ centerId: org.centerA.id });

    const refused = await switchTo(token, { centerId: org.centerB.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await switchTo(token, { scopeId: org.north })).statusCode).toBe(403);
    const unknown = await switchTo(token, { centerId: '0190f5a2-0000-7000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'level.notFound' });
    expect((await switchTo(token, { levelId: '0190f5a2-0000-7000-8000-000000000000' })).statusCode).toBe(404);
    const other = await organisation(testDb);
    expect((await switchTo(token, { centerId: other.centerA.id })).statusCode).toBe(404);
    expect((await switchTo(token, { tenantId: other.tenant.id })).statusCode).toBe(403);
    expect(await sessionOf(org.doctorA.id)).toMatchObject({ filter_center_id: null, tenant_id: org.tenant.id });
    expect((await switchTo(token, { centerId: org.centerA.id })).statusCode).toBe(200);
  });

  it('narrows a scope admin within their scope only', async () => {
    const org = await organisation(testDb);
    const scopeAdmin = await createTenantUser(testDb.database, org.tenant.id, { role: 'SCOPE_ADMIN', scopeId: org.north });
    const token = await logInAs(app, org.tenant.code, scopeAdmin);
    const offered = await options(token);
    expect(offered.scopes.map((scope) => scope.id)).toEqual([org.north]);
    expect(offered.centers.map((center) => center.id)).toEqual([org.centerA.id]);
    expect((await switchTo(token, { centerId: org.centerB.id })).statusCode).toBe(403);
    expect((await switchTo(token, { scopeId: org.north, centerId: org.centerA.id })).statusCode).toBe(200);
  });
});

describe('switching tenants (platform staff)', () => {
  it('lets a system admin act only in their assigned tenants', async () => {
    const assigned = await organisation(testDb);
    const unassigned = await organisation(testDb);
    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: systemAdmin.id, tenantId: assigned.tenant.id });
    const token = await logInAs(app, assigned.tenant.code, systemAdmin);
    const offered = await options(token);
    expect(offered.tenants.map((tenant) => tenant.id)).toContain(assigned.tenant.id);
    expect(offered.tenants.map((tenant) => tenant.id)).not.toContain(unassigned.tenant.id);

    const refused = await switchTo(token, { tenantId: unassigned.tenant.id });
    expect(refused.statusCode).toBe(403);
    expect(await sessionOf(systemAdmin.id)).toMatchObject({ tenant_id: assigned.tenant.id });

    await testDb.database.system.insert(platformStaffTenants).values({ userId: systemAdmin.id, tenantId: unassigned.tenant.id });
    const moved = await switchTo(token, { tenantId: unassigned.tenant.id });
    expect(moved.json()).toMatchObject({ data: { tenantId: unassigned.tenant.id, role: 'SYSTEM_ADMIN' } });
    expect(new Set(idsOf(await call(app, token, 'GET', '/account/admin/mhsc-doctor')))).toEqual(new Set([unassigned.doctorA.id, unassigned.doctorB.id]));
    expect((await call(app, token, 'GET', '/auth/check-token')).json()).toMatchObject({ data: { tenantId: unassigned.tenant.id } });
  });

  it('lets a super admin switch to any active tenant, not an inactive or unknown one', async () => {
    const org = await organisation(testDb);
    const target = await organisation(testDb);
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE' });
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const token = await logInAs(app, org.tenant.code, superAdmin);
    expect((await options(token)).tenants.map((tenant) => tenant.id)).toEqual(expect.arrayContaining([org.tenant.id, target.tenant.id]));
    expect((await switchTo(token, { tenantId: inactive.id })).statusCode).toBe(403);
    expect((await switchTo(token, { tenantId: '0190f5a2-0000-7000-8000-000000000000' })).statusCode).toBe(404);
    const moved = await switchTo(token, { tenantId: target.tenant.id, centerId: target.centerB.id });
    expect(moved.json()).toMatchObject({ data: { tenantId: target.tenant.id, centerId: target.centerB.id } });
    expect(idsOf(await call(app, token, 'GET', '/account/admin/mhsc-doctor'))).toEqual([target.doctorB.id]);
  });
});

describe('extra levels', () => {
  it('gives a doctor an admin level at another center: sessions end, the switcher offers it, lists follow it; removing it ends sessions', async () => {
    const org = await organisation(testDb);
    const adminToken = await logInAs(app, org.tenant.code, org.admin);
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    const given = await call(app, adminToken, 'POST', `/account/admin/staff/${org.doctorA.id}/levels`, { role: 'MHSC_ADMIN', centerId: org.centerB.id });
    expect(given.statusCode).toBe(200);
    const levels = given.json<{ data: { levels: { id: string | null; role: string; center: { id: string } | null }[] } }>().data.levels;
    expect(levels).toHaveLength(2);
    const extra = levels[1];
    expect(extra).toMatchObject({ role: 'MHSC_ADMIN', center: { id: org.centerB.id, name: 'Center B' } });
    expect((await call(app, doctorToken, 'GET', '/auth/check-token')).json()).toMatchObject({ code: 'auth.permissionChanged' });

    const again = await logInAs(app, org.tenant.code, org.doctorA);
    expect((await options(again)).levels.map((level) => level.role)).toEqual(['DOCTOR', 'MHSC_ADMIN']);
    expect((await call(app, again, 'GET', '/account/admin/mhsc-doctor')).statusCode).toBe(403);
    const switched = await switchTo(again, { levelId: extra?.id });
    expect(switched.json()).toMatchObject({ data: { role: 'MHSC_ADMIN', levelId: extra?.id, centerId: org.centerB.id } });
    expect(idsOf(await call(app, again, 'GET', '/account/admin/mhsc-doctor'))).toEqual([org.doctorB.id]);
    expect(await sessionOf(org.doctorA.id)).toMatchObject({ level_id: extra?.id, role: 'MHSC_ADMIN' });

    const removed = await call(app, adminToken, 'DELETE', `/account/admin/staff/${org.doctorA.id}/levels/${extra?.id ?? ''}`);
    expect(removed.json<{ data: { levels: unknown[] } }>().data.levels).toHaveLength(1);
    expect((await call(app, again, 'GET', '/auth/check-token')).statusCode).toBe(401);
    expect((await auditActions(testDb.ownerUrl, org.doctorA.id)).map((row) => row.action)).toEqual(['STAFF_LEVEL_ADDED', 'LEVEL_SWITCHED', 'STAFF_LEVEL_REMOVED']);
  });

  it('applies the role rules to levels and keeps them to the caller’s centers', async () => {
    const org = await organisation(testDb);
    const adminToken = await logInAs(app, org.tenant.code, org.admin);
    const giveB = await call(app, adminToken, 'POST', `/account/admin/staff/${org.doctorA.id}/levels`, { role: 'DOCTOR', centerId: org.centerB.id });
    const levelB = giveB.json<{ data: { levels: { id: string }[] } }>().data.levels[1]?.id ?? '';
    const tokenA = await logInAs(app, org.tenant.code, org.adminA);
    const give = (body: Record<string, unknown>, id = org.doctorA.id) => call(app, tokenA, 'POST', `/account/admin/staff/${id}/levels`, body);
    expect((await give({ role: 'MHSC_ADMIN', centerId: org.centerB.id })).json()).toMatchObject({ code: 'center.notFound' });
    expect((await give({ role: 'MAIN_ADMIN', centerId: org.centerA.id })).json()).toMatchObject({ code: 'role.cannotGrant' });
    expect((await give({ role: 'ADMIN', centerId: org.centerA.id })).json()).toMatchObject({ code: 'common.invalidParameter' });
    // Tenant-wide levels need a caller who sees the whole tenant.
    expect((await give({ role: 'ADMIN' })).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await give({ role: 'OPERATOR' })).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await give({ role: 'DOCTOR', centerId: org.centerA.id }, org.adminA.id)).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await give({ role: 'DOCTOR', centerId: org.centerA.id }, org.doctorB.id)).statusCode).toBe(404);
    const removeB = await call(app, tokenA, 'DELETE', `/account/admin/staff/${org.doctorA.id}/levels/${levelB}`);
    expect(removeB.json()).toMatchObject({ code: 'level.notFound' });
    const [count] = await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM user_levels WHERE user_id = $1', [org.doctorA.id]);
    expect(count?.n).toBe(1);

    const doctorToken = await logInAs(app, org.tenant.code, org.doctorB);
    expect((await call(app, doctorToken, 'POST', `/account/admin/staff/${org.doctorA.id}/levels`, { role: 'DOCTOR', centerId: org.centerA.id })).statusCode).toBe(403);
    const outsider = await organisation(testDb);
    const outsiderToken = await logInAs(app, outsider.tenant.code, outsider.admin);
    expect((await call(app, outsiderToken, 'DELETE', `/account/admin/staff/${org.doctorA.id}/levels/${levelB}`)).statusCode).toBe(404);
    expect(await storedUser(testDb.ownerUrl, org.doctorA.id)).toMatchObject({ role: 'DOCTOR' });
  });
});
