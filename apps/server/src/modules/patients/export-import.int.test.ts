import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportJob } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import {
  createHealthCenter,
  createPatient,
  createTenant,
  createTenantUser,
} from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';

/** An exported patient list is an import file: export, import it elsewhere, and get the same patients. */
let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-export-import-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

async function adminOf(centerName: string) {
  const tenant = await createTenant(testDb.database);
  const center = await createHealthCenter(testDb.database, tenant.id, centerName);
  const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
  return { tenant, center, token: await logIn(app, tenant.code, admin.email ?? '') };
}

interface PatientRow {
  patient_code: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  birthday: string;
  gender: string;
  phone: string | null;
  email: string | null;
  height_cm: string | null;
  weight_kg: string | null;
  blood_type: string | null;
  address_line: string;
  contract_id: string | null;
  center: string | null;
}
const patientsOf = (tenantId: string) =>
  asOwner<PatientRow>(
    testDb.ownerUrl,
    `SELECT p.patient_code, p.first_name, p.middle_name, p.last_name, p.birthday::text AS birthday, p.gender,
            p.phone, p.email, p.height_cm::text AS height_cm, p.weight_kg::text AS weight_kg, p.blood_type,
            p.address_line, p.contract_id, c.name AS center
       FROM patients p LEFT JOIN health_centers c ON c.tenant_id = p.tenant_id AND c.id = p.health_center_id
      WHERE p.tenant_id = $1 ORDER BY p.patient_code`,
    [tenantId],
  );

describe('patient export and import', () => {
  it('imports an exported file unchanged: the same patients in a fresh center', async () => {
    const source = await adminOf('Riverside clinic');
    const base = { healthCenterId: source.center.id, status: 'NORMAL' as const };
    await createPatient(testDb.database, source.tenant.id, {
      ...base,
      patientCode: 'RT-001',
      firstName: 'Lan',
      lastName: 'Tran',
      birthday: '1948-02-29',
      gender: 'FEMALE',
      phone: '0981000001',
      email: 'lan.tran@example.com',
      heightCm: 152.5,
      weightKg: 48.2,
      bloodType: 'AB-',
      addressLine: '5 Hai Ba Trung, District 3',
      contractId: 'CT-77',
    });
    await createPatient(testDb.database, source.tenant.id, {
      ...base,
      patientCode: 'RT-002',
      firstName: 'Minh',
      lastName: 'Le',
      birthday: '1970-12-31',
      gender: 'MALE',
      phone: '+84981000002',
      email: null,
      heightCm: null,
      weightKg: null,
      bloodType: null,
      addressLine: '',
    });
    await createPatient(testDb.database, source.tenant.id, {
      ...base,
      patientCode: 'RT-003',
      firstName: 'Hoa',
      lastName: 'Pham',
      birthday: '1999-01-01',
      gender: 'OTHER',
      phone: null,
      email: 'hoa@example.com',
      bloodType: 'O+',
      addressLine: '=not a formula',
    });

    const exported = await app.inject({ url: '/account/patients/export', ...withSession(source.token) });
    expect(exported.statusCode).toBe(200);

    const target = await adminOf('Riverside clinic');
    const body = multipart([
      {
        name: 'file',
        filename: 'patients.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        content: exported.rawPayload,
      },
    ]);
    const started = await app.inject({
      method: 'POST',
      url: '/account/imports/PATIENT',
      payload: body.payload,
      headers: body.headers,
      ...withSession(target.token),
    });
    expect(started.statusCode, started.body).toBe(202);
    let job = started.json<{ data: ImportJob }>().data;
    for (let attempt = 0; attempt < 400 && (job.status === 'QUEUED' || job.status === 'RUNNING'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      job = (await app.inject({ url: `/account/imports/${job.id}`, ...withSession(target.token) })).json<{
        data: ImportJob;
      }>().data;
    }
    expect(job).toMatchObject({ status: 'SUCCEEDED', rowsProcessed: 3, rowsStored: 3, rowsFailed: 0 });

    const before = await patientsOf(source.tenant.id);
    expect(before).toHaveLength(3);
    expect(await patientsOf(target.tenant.id)).toEqual(before);
  });
});
