import { platformStaffTenants } from '../../db/schema.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { auditActions, call, doctorBody, doctorLinks, logInAs, organisation, storedUser, usersByEmail } from './test-support.js';

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

const INITIAL_PASSWORD = 'Start@2024';
const create = (token: string, body: Record<string, unknown>) => call(app, token, 'POST', '/account/admin/staff', body);
const countUsers = async (tenantId: string) => (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM users WHERE tenant_id = $1', [tenantId]))[0]?.n;

describe('POST /account/admin/staff', () => {
  it('creates a doctor at a center, active, audited, able to log in with the initial password', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const body = doctorBody(org.centerA.id, { password: INITIAL_PASSWORD, phone: '0912000111', middleName: 'Thi' });
    const response = await create(token, body);
    expect(response.statusCode).toBe(200);
    const created = response.json<{ data: { id: string } }>().data;
    expect(response.json()).toMatchObject({
      data: {
        fullName: 'Lan Thi Tran',
        role: 'DOCTOR',
        status: 'ACTIVE',
        center: { id: org.centerA.id, name: 'Center A' },
        levels: [{ id: null, role: 'DOCTOR', center: { id: org.centerA.id } }],
        profile: { email: body.email, phone: '0912000111' },
      },
    });
    expect(await storedUser(testDb.ownerUrl, created.id)).toMatchObject({ tenant_id: org.tenant.id, role: 'DOCTOR', health_center_id: org.centerA.id, status: 'ACTIVE' });
    const audits = (await auditActions(testDb.ownerUrl, created.id)).map((row) => [row.action, row.actor_user_id]);
    expect(audits).toHaveLength(2);
    expect(audits).toEqual(expect.arrayContaining([['PERMISSION_ROLE_ASSIGNED', org.admin.id], ['STAFF_CREATED', org.admin.id]]));
    expect((await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: org.tenant.code, username: body.email, password: INITIAL_PASSWORD, grant_type: 'password' } })).statusCode).toBe(200);
  });

  it('creates an account without a password that cannot log in until one is set through forgot password', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const body = { firstName: 'Care', lastName: 'Giver', phone: '0977000222', role: 'CSKH' };
    const created = (await create(token, body)).json<{ data: { id: string; email: null } }>().data;
    expect(created.email).toBeNull();
    expect(await storedUser(testDb.ownerUrl, created.id)).toMatchObject({ password_hash: null, role: 'CSKH', health_center_id: null });
    const login = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: org.tenant.code, username: '0977000222', password: INITIAL_PASSWORD, grant_type: 'password' } });
    expect(login.json()).toMatchObject({ code: 'auth.wrongCredentials' });
  });

  it('creates a scope admin, an assistant with doctors, and a custom-role operator', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const scopeAdmin = await create(token, { ...doctorBody(org.centerA.id), role: 'SCOPE_ADMIN', centerId: null, scopeId: org.north });
    expect(scopeAdmin.json()).toMatchObject({ data: { role: 'SCOPE_ADMIN', scope: { id: org.north, name: 'North' }, center: null } });

    const assistant = await create(token, doctorBody(org.centerA.id, { role: 'DOCTOR_ASSISTANT', doctorIds: [org.doctorA.id, org.doctorB.id] }));
    const assistantId = assistant.json<{ data: { id: string } }>().data.id;
    expect(assistant.json()).toMatchObject({ data: { role: 'DOCTOR_ASSISTANT' } });
    expect(assistant.json<{ data: { doctors: unknown[] } }>().data.doctors).toContainEqual({ id: org.doctorA.id, fullName: 'Doctor Anh' });
    expect(await doctorLinks(testDb.ownerUrl, assistantId)).toEqual([org.doctorA.id, org.doctorB.id].sort());

    const role = (await call(app, token, 'POST', '/account/role', { name: 'Night desk', baseRole: 'OPERATOR', permissions: ['dashboard.view'] })).json<{ data: { id: string } }>().data;
    const operator = await create(token, doctorBody(org.centerB.id, { role: role.id }));
    expect(operator.json()).toMatchObject({ data: { role: 'OPERATOR', customRole: { id: role.id, name: 'Night desk' }, center: { id: org.centerB.id } } });
  });

  it('lets a center’s admin create staff at their center only', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.adminA);
    expect((await create(token, doctorBody(org.centerA.id))).statusCode).toBe(200);
    const before = await countUsers(org.tenant.id);
    const elsewhere = await create(token, doctorBody(org.centerB.id));
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ code: 'center.notFound', message: 'Health center does not exist' });
    // Staff outside any center would be invisible to them: not theirs to create.
    expect((await create(token, { ...doctorBody(org.centerA.id), role: 'OPERATOR', centerId: null })).json()).toMatchObject({ code: 'auth.permissionDenied' });
    // A role granting more than they hold (MAIN_ADMIN may manage roles).
    const escalation = await create(token, doctorBody(org.centerA.id, { role: 'MAIN_ADMIN' }));
    expect(escalation.statusCode).toBe(403);
    expect(escalation.json()).toMatchObject({ code: 'role.cannotGrant' });
    expect(await countUsers(org.tenant.id)).toBe(before);
  });

  it('applies each rule with its code and stores nothing', async () => {
    const org = await organisation(testDb);
    const other = await organisation(testDb);
    const taken = await createTenantUser(testDb.database, org.tenant.id, { phone: '0909000333' });
    const token = await logInAs(app, org.tenant.code, org.admin);
    const cases: [Record<string, unknown>, number, string][] = [
      [doctorBody(org.centerA.id, { role: undefined }), 400, 'role.required'],
      [doctorBody(org.centerA.id, { role: null }), 400, 'role.required'],
      [doctorBody(org.centerA.id, { email: taken.email?.toUpperCase() }), 409, 'account.emailExists'],
      [doctorBody(org.centerA.id, { phone: '0909000333' }), 409, 'account.phoneExists'],
      [doctorBody(org.centerA.id, { email: null }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { firstName: 'R2D2' }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { lastName: 'Tr\u0000an' }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { phone: '12' }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { centerId: null }), 400, 'staff.centerRequired'],
      [doctorBody(org.centerA.id, { role: 'SCOPE_ADMIN', centerId: null }), 400, 'staff.scopeRequired'],
      [doctorBody(org.centerA.id, { role: 'ADMIN' }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { scopeId: org.north }), 400, 'common.invalidParameter'],
      [doctorBody(other.centerA.id), 404, 'center.notFound'],
      [doctorBody(org.centerA.id, { role: 'SCOPE_ADMIN', centerId: null, scopeId: other.north }), 404, 'scope.notFound'],
      [doctorBody(org.centerA.id, { role: 'DOCTOR_ASSISTANT' }), 400, 'staff.assistantNeedsDoctor'],
      [doctorBody(org.centerA.id, { role: 'DOCTOR_ASSISTANT', doctorIds: [other.doctorA.id] }), 404, 'staff.doctorNotFound'],
      [doctorBody(org.centerA.id, { role: 'DOCTOR_ASSISTANT', doctorIds: [org.adminA.id] }), 404, 'staff.doctorNotFound'],
      [doctorBody(org.centerA.id, { doctorIds: [org.doctorA.id] }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { role: 'PATIENT' }), 400, 'common.invalidParameter'],
      [doctorBody(org.centerA.id, { role: '0190f5a2-0000-7000-8000-000000000000' }), 404, 'role.notFound'],
      [doctorBody(org.centerA.id, { password: 'short' }), 400, 'password.tooWeak'],
      [doctorBody(org.centerA.id, { role: 'SYSTEM_ADMIN', centerId: null }), 403, 'auth.permissionDenied'],
    ];
    const before = await countUsers(org.tenant.id);
    for (const [body, status, code] of cases) {
      const response = await create(token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ code });
      if (typeof body.email === 'string') expect(await usersByEmail(testDb.ownerUrl, body.email), code).toHaveLength(code === 'account.emailExists' ? 1 : 0);
    }
    expect(await countUsers(org.tenant.id)).toBe(before);
    const [staffAudits] = await asOwner<{ n: number }>(testDb.ownerUrl, `SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = $1 AND action = 'STAFF_CREATED'`, [org.tenant.id]);
    expect(staffAudits?.n).toBe(0);
  });

  it('answers role.required in the caller’s language', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const response = await app.inject({ method: 'POST', url: '/account/admin/staff', payload: doctorBody(org.centerA.id, { role: undefined }), headers: { 'accept-language': 'vi' }, cookies: { rpm_session: token } });
    expect(response.json()).toMatchObject({ code: 'role.required', message: 'Vui lòng chọn ít nhất một vai trò' });
  });

  it('is refused (403) to roles without staff.create', async () => {
    const org = await organisation(testDb);
    const operator = await createTenantUser(testDb.database, org.tenant.id, { role: 'OPERATOR' });
    const before = await countUsers(org.tenant.id);
    for (const user of [org.doctorA, operator]) {
      const response = await create(await logInAs(app, org.tenant.code, user), doctorBody(org.centerA.id));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    }
    expect(await countUsers(org.tenant.id)).toBe(before);
  });
});

describe('creating platform staff', () => {
  it('lets a super admin create a system admin with tenants, in the platform tenant', async () => {
    const tenant = await createTenant(testDb.database);
    const second = await createTenant(testDb.database);
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const token = await logInAs(app, tenant.code, superAdmin);
    const body = { firstName: 'Sys', lastName: 'Admin', email: `sys-${tenant.code}@test.example`, role: 'SYSTEM_ADMIN', tenantIds: [tenant.id, second.id], password: INITIAL_PASSWORD };
    const response = await create(token, body);
    expect(response.statusCode).toBe(200);
    const created = response.json<{ data: { id: string; tenants: { id: string }[] } }>().data;
    expect(response.json()).toMatchObject({ data: { role: 'SYSTEM_ADMIN', isPlatformStaff: true } });
    expect(created.tenants.map((item) => item.id).sort()).toEqual([tenant.id, second.id].sort());
    expect(await storedUser(testDb.ownerUrl, created.id)).toMatchObject({ tenant_id: superAdmin.tenantId, role: 'SYSTEM_ADMIN' });
    expect((await auditActions(testDb.ownerUrl, created.id)).map((row) => row.action)).toEqual(['STAFF_CREATED']);
    expect(await logIn(app, tenant.code, body.email, INITIAL_PASSWORD)).toBeTruthy();
  });

  it('needs at least one assignable tenant for a system admin, and refuses platform roles to others', async () => {
    const tenant = await createTenant(testDb.database);
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE' });
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const platformId = superAdmin.tenantId;
    const token = await logInAs(app, tenant.code, superAdmin);
    const body = (overrides: Record<string, unknown>) => ({ firstName: 'Sys', lastName: 'Admin', email: `sys-${randomUUID()}@test.example`, role: 'SYSTEM_ADMIN', ...overrides });
    for (const [overrides, code] of [
      [{ tenantIds: [] }, 'staff.tenantRequired'],
      [{ tenantIds: [inactive.id] }, 'staff.couldNotAssignTenant'],
      [{ tenantIds: [platformId] }, 'staff.couldNotAssignTenant'],
      [{ tenantIds: ['0190f5a2-0000-7000-8000-000000000000'] }, 'staff.couldNotAssignTenant'],
      [{ role: 'ROOT' }, 'common.invalidParameter'],
      [{ role: 'SUPER_ADMIN', tenantIds: [tenant.id] }, 'common.invalidParameter'],
    ] as const) {
      const payload = body(overrides);
      const response = await create(token, payload);
      expect(response.json(), code).toMatchObject({ code });
      expect(await usersByEmail(testDb.ownerUrl, payload.email)).toEqual([]);
    }

    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: systemAdmin.id, tenantId: tenant.id });
    const systemToken = await logInAs(app, tenant.code, systemAdmin);
    const refused = await create(systemToken, body({ tenantIds: [tenant.id] }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'auth.permissionDenied' });
  });
});
