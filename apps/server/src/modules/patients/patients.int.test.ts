import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import {
  call,
  logInAs,
  outcomeOf,
  patientAudit,
  patientBody,
  patientCount,
  patientOrganisation,
  storedPatient,
  type PatientOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let adminToken: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await patientOrganisation(testDb);
  adminToken = await logInAs(app, org.tenant.code, org.admin);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const create = (token: string, body: unknown) => call(app, token, 'POST', '/account/patients', body);
const update = (token: string, id: string, body: unknown) =>
  call(app, token, 'PUT', `/account/patients/${id}`, body);
interface Detail {
  data: {
    id: string;
    patientCode: string;
    contractId: string | null;
    healthCenter: { id: string } | null;
    fullName: string;
    allowedStatuses: string[];
  };
}
const yearsAgo = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

describe('creating patients', () => {
  let taken: { patientCode: string } | undefined;
  it('stores every field, gives the next code of the tenant sequence and audits the creation', async () => {
    const tenant = await createTenant(testDb.database);
    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const token = await logInAs(app, tenant.code, admin);
    const first = await create(
      token,
      patientBody(null, { middleName: 'Thi', medicalNotes: 'Hypertension since 2015', contractId: 'HD-001' }),
    );
    expect(first.statusCode).toBe(200);
    const detail = first.json<Detail>().data;
    expect(detail).toMatchObject({
      patientCode: 'BNCS10001',
      fullName: 'Lan Thi Pham',
      contractId: 'HD-001',
      healthCenter: null,
      allowedStatuses: ['AT_RISK', 'HIGH_RISK'],
    });
    const second = await create(token, patientBody(null));
    expect(second.json<Detail>().data.patientCode).toBe('BNCS10002');
    const stored = await storedPatient(testDb.ownerUrl, detail.id);
    expect(stored).toMatchObject({
      first_name: 'Lan',
      contract_id: 'HD-001',
      status: 'NORMAL',
      account_state: 'ACTIVE',
    });
    expect((await patientAudit(testDb.ownerUrl, detail.id)).map((row) => row.action)).toEqual([
      'PATIENT_CREATED',
    ]);
  });

  it('keeps a given code and moves the sequence past it', async () => {
    const tenant = await createTenant(testDb.database);
    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const token = await logInAs(app, tenant.code, admin);
    expect(
      (await create(token, patientBody(null, { patientCode: 'BNCS10050' }))).json<Detail>().data.patientCode,
    ).toBe('BNCS10050');
    expect((await create(token, patientBody(null))).json<Detail>().data.patientCode).toBe('BNCS10051');
    expect(
      (await create(token, patientBody(null, { patientCode: 'OTHER-7' }))).json<Detail>().data.patientCode,
    ).toBe('OTHER-7');
  });

  it.each([
    ['a name with digits', { firstName: 'Lan2' }, 'common.invalidParameter', 'body.firstName'],
    ['no first name', { firstName: '' }, 'common.invalidParameter', 'body.firstName'],
    ['no last name', { lastName: undefined }, 'common.invalidParameter', 'body.lastName'],
    ['no birthday', { birthday: undefined }, 'common.invalidParameter', 'body.birthday'],
    ['a birthday in the future', { birthday: yearsAgo(-1) }, 'common.invalidParameter', 'body.birthday'],
    [
      'a birthday one day short of 18 years',
      { birthday: yearsAgo(18, 1) },
      'patient.underage',
      'body.birthday',
    ],
    ['a phone of 2 digits', { phone: '12' }, 'common.invalidParameter', 'body.phone'],
    ['a phone of 17 digits', { phone: '12345678901234567' }, 'common.invalidParameter', 'body.phone'],
    ['a phone with letters', { phone: '09ab123456' }, 'common.invalidParameter', 'body.phone'],
    ['an invalid email', { email: 'not-an-email' }, 'common.invalidParameter', 'body.email'],
    ['a height of 0', { heightCm: 0 }, 'common.invalidParameter', 'body.heightCm'],
    ['a height of 300', { heightCm: 300 }, 'common.invalidParameter', 'body.heightCm'],
    ['a weight of 1', { weightKg: 1 }, 'common.invalidParameter', 'body.weightKg'],
    ['a weight of 700', { weightKg: 700 }, 'common.invalidParameter', 'body.weightKg'],
    ['an unknown gender', { gender: 'X' }, 'common.invalidParameter', 'body.gender'],
    ['no gender', { gender: undefined }, 'common.invalidParameter', 'body.gender'],
    ['an unknown blood type', { bloodType: 'C+' }, 'common.invalidParameter', 'body.bloodType'],
    [
      'no patient id, phone nor email',
      { phone: null, email: null },
      'patient.identifierRequired',
      'body.phone',
    ],
  ])('refuses %s with its code, naming the field, and stores nothing', async (_name, change, code, field) => {
    const before = await patientCount(testDb.ownerUrl, org.tenant.id);
    const response = await create(adminToken, patientBody(org.centerA.id, change));
    const outcome = outcomeOf(response);
    expect(outcome).toMatchObject({ status: 400, code });
    expect(outcome.fields).toContain(field);
    expect(await patientCount(testDb.ownerUrl, org.tenant.id)).toBe(before);
  });

  it('accepts the boundaries: exactly 18 today, 3 and 16 digit phones, height and weight just inside', async () => {
    for (const change of [
      { birthday: yearsAgo(18) },
      { phone: '123' },
      { phone: '1234567890123456' },
      { heightCm: 299.9, weightKg: 1.1 },
      { heightCm: 0.1, weightKg: 699.9 },
      { phone: null, email: null, patientCode: 'ONLY-CODE' },
    ]) {
      const response = await create(adminToken, patientBody(org.centerA.id, change));
      expect(response.statusCode, JSON.stringify(change)).toBe(200);
    }
  });

  it('answers the Vietnamese message for underage callers asking in Vietnamese', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/account/patients',
      payload: patientBody(org.centerA.id, { birthday: yearsAgo(10) }),
      headers: { 'accept-language': 'vi' },
      cookies: { rpm_session: adminToken },
    });
    expect(response.json()).toMatchObject({ code: 'patient.underage' });
    expect(response.json<{ message: string }>().message).not.toBe(
      'The patient must be at least 18 years old',
    );
  });

  it.each([
    [
      'patient id',
      (taken: { patientCode: string }) => ({ patientCode: taken.patientCode }),
      'patient.codeExists',
      'body.patientCode',
    ],
    ['phone', () => ({ phone: '0900000001' }), 'patient.phoneExists', 'body.phone'],
    ['email (any case)', () => ({ email: 'Taken@Test.Example' }), 'patient.emailExists', 'body.email'],
    ['contract id', () => ({ contractId: 'CT-TAKEN' }), 'patient.contractIdExists', 'body.contractId'],
  ])(
    'refuses a duplicate %s, even of a patient in a center the caller cannot see',
    async (_name, change, code, field) => {
      taken ??= await createPatient(testDb.database, org.tenant.id, {
        healthCenterId: org.centerB.id,
        phone: '0900000001',
        email: 'taken@test.example',
        contractId: 'CT-TAKEN',
      });
      const adminAToken = await logInAs(app, org.tenant.code, org.adminA);
      const before = await patientCount(testDb.ownerUrl, org.tenant.id);
      const outcome = outcomeOf(await create(adminAToken, patientBody(org.centerA.id, change(taken))));
      expect(outcome).toMatchObject({ status: 409, code, fields: [field] });
      expect(await patientCount(testDb.ownerUrl, org.tenant.id)).toBe(before);
    },
  );

  it('places the patient of a one-center caller in their center, and refuses a center they cannot see', async () => {
    const adminAToken = await logInAs(app, org.tenant.code, org.adminA);
    const own = await create(adminAToken, patientBody(null));
    expect(own.json<Detail>().data.healthCenter?.id).toBe(org.centerA.id);
    expect(outcomeOf(await create(adminAToken, patientBody(org.centerB.id)))).toMatchObject({
      status: 404,
      code: 'center.notFound',
      fields: ['body.healthCenterId'],
    });
  });

  it('refuses callers without user.create (an operator) before storing anything', async () => {
    const token = await logInAs(app, org.tenant.code, org.operator);
    expect(outcomeOf(await create(token, patientBody(org.centerA.id)))).toMatchObject({
      status: 403,
      code: 'auth.permissionDenied',
    });
  });

  it('ignores a tenant id in the body: the patient belongs to the caller’s tenant', async () => {
    const other = await createTenant(testDb.database);
    const response = await create(adminToken, { ...patientBody(org.centerA.id), tenantId: other.id });
    expect(response.statusCode).toBe(200);
    const [row] = await asOwner<{ tenant_id: string }>(
      testDb.ownerUrl,
      'SELECT tenant_id FROM patients WHERE id = $1',
      [response.json<Detail>().data.id],
    );
    expect(row?.tenant_id).toBe(org.tenant.id);
  });
});

describe('editing patients', () => {
  it('saves the whole record and audits which fields changed', async () => {
    const created = (await create(adminToken, patientBody(org.centerA.id))).json<Detail>().data;
    const response = await update(
      adminToken,
      created.id,
      patientBody(org.centerA.id, { patientCode: created.patientCode, firstName: 'Mai', weightKg: 60 }),
    );
    expect(response.statusCode).toBe(200);
    expect((await storedPatient(testDb.ownerUrl, created.id))?.first_name).toBe('Mai');
    const audit = await patientAudit(testDb.ownerUrl, created.id);
    expect(audit.map((row) => row.action)).toEqual(['PATIENT_CREATED', 'PATIENT_UPDATED']);
    expect(audit[1]?.details.changed).toEqual(
      expect.arrayContaining(['firstName', 'weightKg', 'phone', 'email']),
    );
  });

  it('sets a contract id once, then refuses to change or clear it (service and database trigger)', async () => {
    const created = (await create(adminToken, patientBody(org.centerA.id))).json<Detail>().data;
    const body = (contractId: string | null) =>
      patientBody(org.centerA.id, { patientCode: created.patientCode, contractId, phone: null, email: null });
    expect((await update(adminToken, created.id, body('HD-777'))).statusCode).toBe(200);
    expect(outcomeOf(await update(adminToken, created.id, body('HD-778')))).toMatchObject({
      status: 409,
      code: 'patient.contractIdLocked',
      fields: ['body.contractId'],
    });
    expect(outcomeOf(await update(adminToken, created.id, body(null)))).toMatchObject({
      status: 409,
      code: 'patient.contractIdLocked',
    });
    expect((await storedPatient(testDb.ownerUrl, created.id))?.contract_id).toBe('HD-777');
    // Past the API: the database refuses too.
    await expect(
      asOwner(testDb.ownerUrl, `UPDATE patients SET contract_id = 'X' WHERE id = $1`, [created.id]),
    ).rejects.toThrow(/cannot change once set/);
  });

  it('refuses a duplicate phone on edit with the field named', async () => {
    const first = (await create(adminToken, patientBody(org.centerA.id))).json<Detail>().data;
    const second = (
      await create(adminToken, patientBody(org.centerA.id, { phone: '0911222333' }))
    ).json<Detail>().data;
    const outcome = outcomeOf(
      await update(
        adminToken,
        first.id,
        patientBody(org.centerA.id, { patientCode: first.patientCode, phone: '0911222333' }),
      ),
    );
    expect(outcome).toMatchObject({ status: 409, code: 'patient.phoneExists', fields: ['body.phone'] });
    expect(second.id).not.toBe(first.id);
  });

  it('refuses a doctor (user.update holder) editing a patient of another center: 404 and the row untouched', async () => {
    const token = await logInAs(app, org.tenant.code, org.doctorA);
    const outcome = outcomeOf(
      await update(
        token,
        org.patientB.id,
        patientBody(org.centerB.id, { patientCode: org.patientB.patientCode, firstName: 'Hacked' }),
      ),
    );
    expect(outcome).toMatchObject({ status: 404, code: 'patient.notFound' });
    expect((await storedPatient(testDb.ownerUrl, org.patientB.id))?.first_name).toBe('Binh');
  });
});

describe('reading patients', () => {
  it('lists what the caller’s level sees, with search, filters, sort and paging, and audits the read', async () => {
    const tenantWide = await logInAs(app, org.tenant.code, org.operator);
    const centerA = await logInAs(app, org.tenant.code, org.operatorA);
    const codes = async (token: string, query: string) => {
      const response = await call(app, token, 'GET', `/account/patients?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { items: { id: string; patientCode: string }[]; total: number } }>().data;
    };
    const all = await codes(tenantWide, 'size=200');
    expect(all.items.map((item) => item.id)).toEqual(
      expect.arrayContaining([org.patientA.id, org.patientB.id]),
    );
    const onlyA = await codes(centerA, 'size=200');
    expect(onlyA.items.map((item) => item.id)).toContain(org.patientA.id);
    expect(onlyA.items.map((item) => item.id)).not.toContain(org.patientB.id);
    expect((await codes(tenantWide, 'search=binh%20tran')).items.map((item) => item.id)).toEqual([
      org.patientB.id,
    ]);
    expect(
      (await codes(tenantWide, `search=${org.patientA.patientCode.toLowerCase()}`)).items.map(
        (item) => item.id,
      ),
    ).toEqual([org.patientA.id]);
    expect((await codes(tenantWide, 'status=AT_RISK')).items.map((item) => item.id)).toEqual([
      org.patientB.id,
    ]);
    expect((await codes(tenantWide, `doctorId=${org.doctorA.id}`)).items.map((item) => item.id)).toEqual([
      org.patientA.id,
    ]);
    const ofCenterB = (await codes(tenantWide, `centerId=${org.centerB.id}`)).items.map((item) => item.id);
    expect(ofCenterB).toContain(org.patientB.id);
    expect(ofCenterB).not.toContain(org.patientA.id);
    const page = await codes(tenantWide, 'size=1&page=1&sortField=code&sortType=asc');
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(all.total);
    const sorted = (await codes(tenantWide, 'size=200&sortField=code&sortType=asc')).items.map(
      (item) => item.patientCode,
    );
    expect(sorted).toEqual([...sorted].sort());
    const [audit] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'PATIENT_LISTED' AND actor_user_id = $1`,
      [org.operator.id],
    );
    expect(audit?.n).toBeGreaterThanOrEqual(7);
    expect(outcomeOf(await call(app, tenantWide, 'GET', '/account/patients?page=-1'))).toMatchObject({
      status: 400,
      code: 'common.invalidParameter',
    });
  });

  it('shows a profile with a PATIENT_VIEWED audit row; another center’s or tenant’s patient is not found', async () => {
    const token = await logInAs(app, org.tenant.code, org.operatorA);
    const response = await call(app, token, 'GET', `/account/patients/${org.patientA.id}`);
    expect(response.statusCode).toBe(200);
    const viewed = (await patientAudit(testDb.ownerUrl, org.patientA.id)).filter(
      (row) => row.action === 'PATIENT_VIEWED',
    );
    expect(viewed.map((row) => row.actor_user_id)).toContain(org.operatorA.id);
    expect(outcomeOf(await call(app, token, 'GET', `/account/patients/${org.patientB.id}`))).toMatchObject({
      status: 404,
      code: 'patient.notFound',
    });
    const otherTenant = await createTenant(testDb.database);
    const foreign = await createPatient(testDb.database, otherTenant.id);
    expect(outcomeOf(await call(app, adminToken, 'GET', `/account/patients/${foreign.id}`))).toMatchObject({
      status: 404,
      code: 'patient.notFound',
    });
    expect(
      outcomeOf(
        await call(app, adminToken, 'PUT', `/account/patients/${foreign.id}/status`, {
          status: 'AT_RISK',
          reason: 'x',
        }),
      ),
    ).toMatchObject({ status: 404 });
    expect((await storedPatient(testDb.ownerUrl, foreign.id))?.status).toBe('NORMAL');
  });
});
