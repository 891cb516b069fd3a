import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { centerAdmins, doctorAssistants, platformStaffTenants } from '../../db/schema.js';
import { activeSessions, auditActions, call, doctorLinks, logInAs, organisation, revokedReasons, storedUser, type Organisation } from './test-support.js';

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

const update = (token: string, id: string, body: Record<string, unknown>) => call(app, token, 'PUT', `/account/admin/staff/${id}`, body);
/** The whole record of a doctor at a center, as the edit form sends it back. */
const doctorRecord = (user: { email: string | null }, centerId: string, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Doctor',
  lastName: 'Anh',
  email: user.email,
  role: 'DOCTOR',
  centerId,
  ...overrides,
});

async function withAssistant(org: Organisation) {
  const assistant = await createTenantUser(testDb.database, org.tenant.id, { role: 'DOCTOR_ASSISTANT', healthCenterId: org.centerA.id, firstName: 'Assi', lastName: 'Anh' });
  await testDb.database.withTenant(org.tenant.id, (tx) => tx.insert(doctorAssistants).values({ tenantId: org.tenant.id, assistantId: assistant.id, doctorId: org.doctorA.id }));
  return assistant;
}

describe('GET /account/admin/staff/{id}', () => {
  it('shows the detail to whoever sees the account, and 404 to another tenant or another center', async () => {
    const org = await organisation(testDb);
    const assistant = await withAssistant(org);
    const adminToken = await logInAs(app, org.tenant.code, org.admin);
    const detail = await call(app, adminToken, 'GET', `/account/admin/staff/${assistant.id}`);
    expect(detail.json()).toMatchObject({
      data: { id: assistant.id, role: 'DOCTOR_ASSISTANT', doctors: [{ id: org.doctorA.id }], levels: [{ id: null, role: 'DOCTOR_ASSISTANT' }], isPlatformStaff: false, profile: { id: assistant.id } },
    });
    const tokenB = await logInAs(app, org.tenant.code, org.adminB);
    expect((await call(app, tokenB, 'GET', `/account/admin/staff/${assistant.id}`)).json()).toMatchObject({ code: 'account.notFound' });
    const outsider = await organisation(testDb);
    expect((await call(app, await logInAs(app, outsider.tenant.code, outsider.admin), 'GET', `/account/admin/staff/${assistant.id}`)).statusCode).toBe(404);
    const patient = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT' });
    expect((await call(app, adminToken, 'GET', `/account/admin/staff/${patient.id}`)).statusCode).toBe(404);
  });
});

describe('PUT /account/admin/staff/{id}', () => {
  it('edits names and contacts without ending sessions, and audits the changed fields', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    await logInAs(app, org.tenant.code, org.doctorA);
    const response = await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerA.id, { firstName: 'Duc', phone: '0933444555' }));
    expect(response.json()).toMatchObject({ data: { fullName: 'Duc Anh', phone: '0933444555' } });
    expect(await activeSessions(testDb.ownerUrl, org.doctorA.id)).toHaveLength(1);
    const [audit] = (await auditActions(testDb.ownerUrl, org.doctorA.id)).filter((row) => row.action === 'STAFF_UPDATED');
    expect(audit?.details).toMatchObject({ fields: ['firstName', 'phone'] });
  });

  it('ends the account’s sessions when its role or center changes', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    const moved = await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerB.id));
    expect(moved.json()).toMatchObject({ data: { center: { id: org.centerB.id } } });
    const old = await call(app, doctorToken, 'GET', '/auth/check-token');
    expect(old.json()).toMatchObject({ code: 'auth.permissionChanged' });

    const again = await logInAs(app, org.tenant.code, org.doctorA);
    const promoted = await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerB.id, { role: 'MHSC_ADMIN' }));
    expect(promoted.json()).toMatchObject({ data: { role: 'MHSC_ADMIN' } });
    expect((await call(app, again, 'GET', '/auth/check-token')).statusCode).toBe(401);
    expect(await revokedReasons(testDb.ownerUrl, org.doctorA.id)).toEqual(['permission_changed']);
    expect((await auditActions(testDb.ownerUrl, org.doctorA.id)).map((row) => row.action)).toContain('PERMISSION_ROLE_ASSIGNED');
  });

  it('keeps a center’s main admin at the center with an admin role (staff.mainAdminLocked)', async () => {
    const org = await organisation(testDb);
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.insert(centerAdmins).values({ tenantId: org.tenant.id, centerId: org.centerA.id, userId: org.adminA.id, kind: 'MAIN' }));
    const token = await logInAs(app, org.tenant.code, org.admin);
    const record = (overrides: Record<string, unknown>) => ({ firstName: 'Admin', lastName: 'Anh', email: org.adminA.email, role: 'MHSC_ADMIN', centerId: org.centerA.id, ...overrides });
    for (const overrides of [{ centerId: org.centerB.id }, { role: 'DOCTOR' }]) {
      const response = await update(token, org.adminA.id, record(overrides));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'staff.mainAdminLocked' });
    }
    expect(await storedUser(testDb.ownerUrl, org.adminA.id)).toMatchObject({ role: 'MHSC_ADMIN', health_center_id: org.centerA.id });
    // Still an admin at the same center: a name change goes through.
    expect((await update(token, org.adminA.id, record({ firstName: 'Chief' }))).statusCode).toBe(200);
  });

  it('does not let a doctor leave an assistant without a doctor, and keeps the assistant’s doctors on edit', async () => {
    const org = await organisation(testDb);
    const assistant = await withAssistant(org);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const response = await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerA.id, { role: 'OPERATOR' }));
    expect(response.json()).toMatchObject({ code: 'staff.assistantNeedsDoctor', message: 'Must keep at least one doctor for an assistant' });
    expect(await storedUser(testDb.ownerUrl, org.doctorA.id)).toMatchObject({ role: 'DOCTOR' });

    const record = { firstName: 'Assi', lastName: 'Anh', email: assistant.email, role: 'DOCTOR_ASSISTANT', centerId: org.centerA.id };
    expect((await update(token, assistant.id, record)).json()).toMatchObject({ code: 'staff.assistantNeedsDoctor' });
    const edited = await update(token, assistant.id, { ...record, doctorIds: [org.doctorB.id] });
    expect(edited.json()).toMatchObject({ data: { doctors: [{ id: org.doctorB.id }] } });
    expect(await doctorLinks(testDb.ownerUrl, assistant.id)).toEqual([org.doctorB.id]);
  });

  it('answers 404 for another tenant’s or another center’s staff, leaving the row untouched; 403 without staff.update', async () => {
    const org = await organisation(testDb);
    const outsider = await organisation(testDb);
    const body = doctorRecord(org.doctorA, org.centerA.id, { firstName: 'Hacked' });
    for (const token of [await logInAs(app, outsider.tenant.code, outsider.admin), await logInAs(app, org.tenant.code, org.adminB)]) {
      const response = await update(token, org.doctorA.id, body);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'account.notFound' });
    }
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorB);
    expect((await update(doctorToken, org.doctorA.id, body)).statusCode).toBe(403);
    expect(await storedUser(testDb.ownerUrl, org.doctorA.id)).toMatchObject({ first_name: 'Doctor', role: 'DOCTOR', health_center_id: org.centerA.id });
  });

  it('refuses a duplicate email, a missing role, and one’s own role change', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    expect((await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerA.id, { email: org.doctorB.email }))).json()).toMatchObject({ code: 'account.emailExists' });
    expect((await update(token, org.doctorA.id, doctorRecord(org.doctorA, org.centerA.id, { role: null }))).json()).toMatchObject({ code: 'role.required' });
    const self = await update(token, org.admin.id, { firstName: 'Tenant', lastName: 'Admin', email: org.admin.email, role: 'MHSC_ADMIN', centerId: org.centerA.id });
    expect(self.json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect(await storedUser(testDb.ownerUrl, org.admin.id)).toMatchObject({ role: 'ADMIN', health_center_id: null });
    expect(await storedUser(testDb.ownerUrl, org.doctorA.id)).toMatchObject({ email: org.doctorA.email });
  });
});

describe('PUT /account/admin/staff/{id}/doctors', () => {
  it('sets an assistant’s doctors, at least one, doctors only', async () => {
    const org = await organisation(testDb);
    const assistant = await withAssistant(org);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const assign = (id: string, doctorIds: string[]) => call(app, token, 'PUT', `/account/admin/staff/${id}/doctors`, { doctorIds });
    expect((await assign(assistant.id, [org.doctorA.id, org.doctorB.id])).statusCode).toBe(200);
    expect(await doctorLinks(testDb.ownerUrl, assistant.id)).toEqual([org.doctorA.id, org.doctorB.id].sort());
    expect((await auditActions(testDb.ownerUrl, assistant.id)).map((row) => row.action)).toEqual(['STAFF_DOCTORS_ASSIGNED']);

    expect((await assign(assistant.id, [])).json()).toMatchObject({ code: 'staff.assistantNeedsDoctor' });
    expect((await assign(assistant.id, [org.adminA.id])).json()).toMatchObject({ code: 'staff.doctorNotFound' });
    expect((await assign(org.doctorA.id, [org.doctorB.id])).json()).toMatchObject({ code: 'staff.notAssistant' });
    expect(await doctorLinks(testDb.ownerUrl, assistant.id)).toEqual([org.doctorA.id, org.doctorB.id].sort());
  });

  it('lets a center’s admin choose among their doctors only, keeping links they cannot see', async () => {
    const org = await organisation(testDb);
    const assistant = await withAssistant(org);
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.insert(doctorAssistants).values({ tenantId: org.tenant.id, assistantId: assistant.id, doctorId: org.doctorB.id }));
    const doctorA2 = await createTenantUser(testDb.database, org.tenant.id, { role: 'DOCTOR', healthCenterId: org.centerA.id });
    const tokenA = await logInAs(app, org.tenant.code, org.adminA);
    const assign = (doctorIds: string[]) => call(app, tokenA, 'PUT', `/account/admin/staff/${assistant.id}/doctors`, { doctorIds });
    expect((await assign([org.doctorB.id])).json()).toMatchObject({ code: 'staff.doctorNotFound' });
    expect((await assign([doctorA2.id])).statusCode).toBe(200);
    expect(await doctorLinks(testDb.ownerUrl, assistant.id)).toEqual([doctorA2.id, org.doctorB.id].sort());
  });
});

describe('PUT /account/sadmin/system-admin/{id}/tenants', () => {
  it('sets a system admin’s tenants (at least one), ending their sessions when one is taken away', async () => {
    const first = await createTenant(testDb.database);
    const second = await createTenant(testDb.database);
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values([{ userId: systemAdmin.id, tenantId: first.id }]);
    const token = await logInAs(app, first.code, superAdmin);
    const assign = (tenantIds: string[], as = token) => call(app, as, 'PUT', `/account/sadmin/system-admin/${systemAdmin.id}/tenants`, { tenantIds });
    const tenantsOf = async () => (await asOwner<{ tenant_id: string }>(testDb.ownerUrl, 'SELECT tenant_id FROM platform_staff_tenants WHERE user_id = $1 ORDER BY tenant_id', [systemAdmin.id])).map((row) => row.tenant_id);

    const added = await assign([first.id, second.id]);
    expect(added.statusCode).toBe(200);
    expect(await tenantsOf()).toEqual([first.id, second.id].sort());
    const systemToken = await logInAs(app, second.code, systemAdmin);
    expect((await assign([second.id])).statusCode).toBe(200);
    expect((await call(app, systemToken, 'GET', '/auth/check-token')).json()).toMatchObject({ code: 'auth.permissionChanged' });
    expect((await auditActions(testDb.ownerUrl, systemAdmin.id)).map((row) => row.action)).toEqual(['STAFF_TENANTS_ASSIGNED', 'STAFF_TENANTS_ASSIGNED']);

    expect((await assign([])).json()).toMatchObject({ code: 'staff.tenantRequired' });
    expect((await assign([superAdmin.tenantId])).json()).toMatchObject({ code: 'staff.couldNotAssignTenant', message: 'Could not assign tenant' });
    expect(await tenantsOf()).toEqual([second.id]);

    expect((await call(app, token, 'PUT', `/account/sadmin/system-admin/${superAdmin.id}/tenants`, { tenantIds: [first.id] })).statusCode).toBe(404);
    const otherSystemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: otherSystemAdmin.id, tenantId: first.id });
    const refused = await assign([first.id], await logInAs(app, first.code, otherSystemAdmin));
    expect(refused.statusCode).toBe(403);
    const tenantAdmin = await createTenantUser(testDb.database, first.id, { role: 'ADMIN' });
    expect((await assign([first.id], await logInAs(app, first.code, tenantAdmin))).statusCode).toBe(403);
    expect(await tenantsOf()).toEqual([second.id]);
  });
});
