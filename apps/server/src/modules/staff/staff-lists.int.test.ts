import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { doctorAssistants, platformStaffTenants } from '../../db/schema.js';
import { call, idsOf, logInAs, organisation, type ListBody } from './test-support.js';

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

async function organisationWithStaff() {
  const org = await organisation(testDb);
  const { database } = testDb;
  const cskh = await createTenantUser(database, org.tenant.id, { role: 'CSKH', firstName: 'Cam', lastName: 'Care', phone: '0981234567' });
  const operatorA = await createTenantUser(database, org.tenant.id, { role: 'OPERATOR', healthCenterId: org.centerA.id, firstName: 'Oanh', lastName: 'Op', status: 'DISABLED' });
  const scopeAdmin = await createTenantUser(database, org.tenant.id, { role: 'SCOPE_ADMIN', scopeId: org.north, firstName: 'Scope', lastName: 'North' });
  const assistantA = await createTenantUser(database, org.tenant.id, { role: 'DOCTOR_ASSISTANT', healthCenterId: org.centerA.id, firstName: 'Assi', lastName: 'Anh' });
  const assistantB = await createTenantUser(database, org.tenant.id, { role: 'DOCTOR_ASSISTANT', healthCenterId: org.centerB.id, firstName: 'Assi', lastName: 'Binh' });
  const patient = await createTenantUser(database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerA.id });
  await database.withTenant(org.tenant.id, (tx) =>
    tx.insert(doctorAssistants).values([
      { tenantId: org.tenant.id, assistantId: assistantA.id, doctorId: org.doctorA.id },
      { tenantId: org.tenant.id, assistantId: assistantB.id, doctorId: org.doctorB.id },
    ]),
  );
  return { ...org, cskh, operatorA, scopeAdmin, assistantA, assistantB, patient };
}

describe('staff lists of a tenant', () => {
  it('lists each kind of staff for a tenant-wide admin, never patients', async () => {
    const org = await organisationWithStaff();
    const token = await logInAs(app, org.tenant.code, org.admin);
    const employees = await call(app, token, 'GET', '/account/admin/employee');
    expect(employees.statusCode).toBe(200);
    expect(new Set(idsOf(employees))).toEqual(new Set([org.admin.id, org.cskh.id, org.operatorA.id]));
    expect(employees.json<ListBody>().data).toMatchObject({ page: 0, size: 20, total: 3 });
    expect(idsOf(await call(app, token, 'GET', '/account/admin/scope-admin'))).toEqual([org.scopeAdmin.id]);
    expect(new Set(idsOf(await call(app, token, 'GET', '/account/admin/mhsc-admin')))).toEqual(new Set([org.adminA.id, org.adminB.id]));
    const doctors = await call(app, token, 'GET', '/account/admin/mhsc-doctor');
    expect(new Set(idsOf(doctors))).toEqual(new Set([org.doctorA.id, org.doctorB.id]));
    const doctorA = doctors.json<ListBody>().data.items.find((item) => item.id === org.doctorA.id);
    expect(doctorA).toMatchObject({ center: { id: org.centerA.id, name: 'Center A' }, role: 'DOCTOR', status: 'ACTIVE', fullName: 'Doctor Anh' });
    const assistants = await call(app, token, 'GET', '/account/admin/doctor-assistant?sortField=name&sortType=asc');
    expect(assistants.json<ListBody>().data.items.map((item) => [item.id, item.doctors?.map((doctor) => doctor.id)])).toEqual([
      [org.assistantA.id, [org.doctorA.id]],
      [org.assistantB.id, [org.doctorB.id]],
    ]);
  });

  it('pages, searches by name, email and phone, sorts and filters by status, center and scope', async () => {
    const org = await organisationWithStaff();
    const token = await logInAs(app, org.tenant.code, org.admin);
    const list = (query: string) => call(app, token, 'GET', `/account/admin/employee?${query}`);
    const firstPage = await list('page=0&size=2&sortField=name&sortType=asc');
    expect(firstPage.json<ListBody>().data).toMatchObject({ page: 0, size: 2, total: 3 });
    expect(idsOf(firstPage)).toEqual([org.cskh.id, org.operatorA.id]);
    expect(idsOf(await list('page=1&size=2&sortField=name&sortType=asc'))).toEqual([org.admin.id]);
    expect(idsOf(await list('sortField=name&sortType=desc'))).toEqual([org.admin.id, org.operatorA.id, org.cskh.id]);
    expect(idsOf(await list('sortField=status&sortType=desc'))[0]).toBe(org.operatorA.id);
    expect(idsOf(await list('sortField=created&sortType=asc'))).toEqual([org.admin.id, org.cskh.id, org.operatorA.id]);

    expect(idsOf(await list('search=oanh%20op'))).toEqual([org.operatorA.id]);
    expect(idsOf(await list(`search=${encodeURIComponent(org.cskh.email ?? '')}`))).toEqual([org.cskh.id]);
    expect(idsOf(await list('search=98123'))).toEqual([org.cskh.id]);
    expect(idsOf(await list('search=100%25'))).toEqual([]);
    expect(idsOf(await list('status=DISABLED'))).toEqual([org.operatorA.id]);
    expect(idsOf(await list(`centerId=${org.centerA.id}`))).toEqual([org.operatorA.id]);
    expect(idsOf(await list('role=CSKH'))).toEqual([org.cskh.id]);
    const byScope = await call(app, token, 'GET', `/account/admin/mhsc-doctor?scopeId=${org.north}`);
    expect(idsOf(byScope)).toEqual([org.doctorA.id]);
    expect(idsOf(await call(app, token, 'GET', `/account/admin/scope-admin?scopeId=${org.north}`))).toEqual([org.scopeAdmin.id]);
  });

  it('refuses bad paging, sorting and a role the list does not show', async () => {
    const org = await organisationWithStaff();
    const token = await logInAs(app, org.tenant.code, org.admin);
    for (const query of ['page=-1', 'size=0', 'size=1000', 'sortField=email', 'sortType=up', 'status=SLEEPING', 'centerId=nope', 'role=DOCTOR', 'search=a%00b']) {
      const response = await call(app, token, 'GET', `/account/admin/employee?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'common.invalidParameter' });
    }
  });

  it('shows a center’s admin only their center’s staff, and a scope admin the centers of their scope', async () => {
    const org = await organisationWithStaff();
    const tokenA = await logInAs(app, org.tenant.code, org.adminA);
    expect(idsOf(await call(app, tokenA, 'GET', '/account/admin/mhsc-doctor'))).toEqual([org.doctorA.id]);
    expect(idsOf(await call(app, tokenA, 'GET', '/account/admin/employee'))).toEqual([org.operatorA.id]);
    expect(idsOf(await call(app, tokenA, 'GET', '/account/admin/mhsc-admin'))).toEqual([org.adminA.id]);
    expect(idsOf(await call(app, tokenA, 'GET', '/account/admin/scope-admin'))).toEqual([]);
    expect(idsOf(await call(app, tokenA, 'GET', `/account/admin/mhsc-doctor?centerId=${org.centerB.id}`))).toEqual([]);
    expect(idsOf(await call(app, tokenA, 'GET', '/account/admin/doctor-assistant'))).toEqual([org.assistantA.id]);

    const scopeToken = await logInAs(app, org.tenant.code, org.scopeAdmin);
    expect(idsOf(await call(app, scopeToken, 'GET', '/account/admin/mhsc-doctor'))).toEqual([org.doctorA.id]);
  });

  it('keeps other tenants’ staff out of every list', async () => {
    const org = await organisationWithStaff();
    const other = await createTenant(testDb.database);
    const otherAdmin = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const token = await logInAs(app, other.code, otherAdmin);
    for (const url of ['/account/admin/employee', '/account/admin/mhsc-doctor', '/account/admin/doctor-assistant', `/account/admin/mhsc-doctor?centerId=${org.centerA.id}`]) {
      const ids = idsOf(await call(app, token, 'GET', url));
      expect(ids.filter((id) => id !== otherAdmin.id), url).toEqual([]);
    }
  });

  it('is refused (403) to roles without staff.view', async () => {
    const org = await organisationWithStaff();
    for (const user of [org.doctorA, org.cskh, org.assistantA, org.patient]) {
      const token = await logInAs(app, org.tenant.code, user);
      for (const url of ['/account/admin/employee', '/account/admin/mhsc-doctor', '/account/admin/doctor-assistant', '/account/sadmin/system-admin']) {
        const response = await call(app, token, 'GET', url);
        expect(response.statusCode, `${user.role} ${url}`).toBe(403);
        expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
      }
    }
    expect((await app.inject({ url: '/account/admin/employee' })).statusCode).toBe(401);
  });
});

describe('the calling doctor’s assistants', () => {
  it('lists only the assistants of the calling doctor, for doctors only', async () => {
    const org = await organisationWithStaff();
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    const mine = await call(app, doctorToken, 'GET', '/account/doctor/assistants');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ data: { total: 1, items: [{ id: org.assistantA.id, doctors: [{ id: org.doctorA.id, fullName: 'Doctor Anh' }] }] } });
    const adminToken = await logInAs(app, org.tenant.code, org.admin);
    expect((await call(app, adminToken, 'GET', '/account/doctor/assistants')).statusCode).toBe(403);
  });
});

describe('platform staff lists', () => {
  it('lists system admins with their tenants and super admins, for platform staff only', async () => {
    const tenant = await createTenant(testDb.database);
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN', lastName: 'Listing' });
    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN', lastName: 'Listing' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: systemAdmin.id, tenantId: tenant.id });
    const token = await logInAs(app, tenant.code, superAdmin);

    const systemAdmins = await call(app, token, 'GET', '/account/sadmin/system-admin?search=listing');
    expect(systemAdmins.json()).toMatchObject({ data: { total: 1, items: [{ id: systemAdmin.id, role: 'SYSTEM_ADMIN', tenants: [{ id: tenant.id, code: tenant.code }] }] } });
    expect(idsOf(await call(app, token, 'GET', '/account/sadmin/super-admin?search=listing'))).toEqual([superAdmin.id]);
    expect((await call(app, token, 'GET', `/account/sadmin/system-admin?centerId=${tenant.id}`)).statusCode).toBe(400);

    const systemToken = await logInAs(app, tenant.code, systemAdmin);
    expect(idsOf(await call(app, systemToken, 'GET', '/account/sadmin/super-admin?search=listing'))).toEqual([superAdmin.id]);

    const tenantAdmin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const adminToken = await logInAs(app, tenant.code, tenantAdmin);
    for (const url of ['/account/sadmin/system-admin', '/account/sadmin/super-admin']) {
      expect((await call(app, adminToken, 'GET', url)).json()).toMatchObject({ code: 'auth.permissionDenied' });
    }
  });
});
