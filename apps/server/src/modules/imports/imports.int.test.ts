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
import { DEVICE_IMPORT_HEADERS } from '../devices/import-kind.js';
import { PATIENT_IMPORT_HEADERS } from '../patients/import-kind.js';
import { PNG, rowsOf, workbookOf } from './test-support.js';

/**
 * The import API with the real patient and device kinds: template, upload, background run,
 * result, error file, history, and who may see what.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-imports-http-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

async function organisation() {
  const tenant = await createTenant(testDb.database);
  const center = await createHealthCenter(testDb.database, tenant.id);
  const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
  const centerAdmin = await createTenantUser(testDb.database, tenant.id, {
    role: 'MHSC_ADMIN',
    healthCenterId: center.id,
  });
  const doctor = await createTenantUser(testDb.database, tenant.id, {
    role: 'DOCTOR',
    healthCenterId: center.id,
  });
  return {
    tenant,
    center,
    adminToken: await logIn(app, tenant.code, admin.email ?? ''),
    centerAdminToken: await logIn(app, tenant.code, centerAdmin.email ?? ''),
    doctorToken: await logIn(app, tenant.code, doctor.email ?? ''),
  };
}

const upload = (
  token: string,
  kind: 'PATIENT' | 'DEVICE',
  content: Buffer,
  filename = 'import.xlsx',
  query = '',
) => {
  const body = multipart([
    {
      name: 'file',
      filename,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      content,
    },
  ]);
  return app.inject({
    method: 'POST',
    url: `/account/imports/${kind}${query}`,
    payload: body.payload,
    headers: body.headers,
    ...withSession(token),
  });
};
const get = (token: string, url: string) => app.inject({ url, ...withSession(token) });

async function finished(token: string, id: string): Promise<ImportJob> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const job = (await get(token, `/account/imports/${id}`)).json<{ data: ImportJob }>().data;
    if (job.status !== 'QUEUED' && job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('import did not finish');
}

const patientRow = (patientCode: string, firstName: string, birthday: string, phone: string, center = '') => [
  patientCode,
  firstName,
  'Nguyen',
  birthday,
  'MALE',
  phone,
  '',
  170,
  65,
  'O+',
  '12 Le Loi, District 1',
  center,
  '',
];

describe('patient import', () => {
  it('serves the template, stores the good rows and reports the bad ones in the error file', async () => {
    const { tenant, center, adminToken } = await organisation();
    const template = await get(adminToken, '/account/imports/templates/PATIENT');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-disposition']).toContain('patient-import-template.xlsx');
    // The sheet that is imported has the headers only; the example is on the instructions sheet.
    expect(await rowsOf(template.rawPayload)).toEqual([[...PATIENT_IMPORT_HEADERS]]);
    const instructions = await rowsOf(template.rawPayload, 'Instructions');
    expect(instructions).toContainEqual([...PATIENT_IMPORT_HEADERS]);
    expect(instructions.some((row) => row.includes('an.nguyen@example.com'))).toBe(true);
    expect(String(instructions[0]?.[0])).toContain('Import');

    const file = await workbookOf(PATIENT_IMPORT_HEADERS, [
      patientRow('IMP001', 'An', '15/04/1960', '0981000101'),
      patientRow('IMP002', 'B1nh', '15/04/1960', '0981000102'),
      patientRow('IMP003', 'Chi', '01/01/2090', '0981000103'),
      patientRow('IMP004', 'Dung', '20/10/1975', '0981000104'),
    ]);
    const response = await upload(
      adminToken,
      'PATIENT',
      file,
      'patients.xlsx',
      `?defaultHealthCenterId=${center.id}`,
    );
    expect(response.statusCode).toBe(202);
    const accepted = response.json<{ data: ImportJob }>().data;
    expect(accepted).toMatchObject({
      kind: 'PATIENT',
      status: 'QUEUED',
      fileName: 'patients.xlsx',
      fileSize: file.length,
    });

    const job = await finished(adminToken, accepted.id);
    expect(job).toMatchObject({
      status: 'PARTIAL',
      rowsProcessed: 4,
      rowsStored: 2,
      rowsFailed: 2,
      hasErrorFile: true,
      failureCode: null,
      bytesRead: file.length,
    });
    const stored = await asOwner<{ patient_code: string }>(
      testDb.ownerUrl,
      'SELECT patient_code FROM patients WHERE tenant_id = $1 ORDER BY patient_code',
      [tenant.id],
    );
    expect(stored.map((row) => row.patient_code)).toEqual(['IMP001', 'IMP004']);
    // The batches' search terms are written when the import ends (migration 0065): found at once.
    const searched = await get(adminToken, '/account/patients?size=10&search=0981000104');
    expect(searched.json<{ data: { items: { patientCode: string }[] } }>().data.items.map((item) => item.patientCode)).toEqual(['IMP004']);
    const [backlog] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM patient_search_backlog WHERE tenant_id = $1',
      [tenant.id],
    );
    expect(backlog?.n).toBe(0);

    const errors = await rowsOf((await get(adminToken, `/account/imports/${job.id}/error-file`)).rawPayload);
    expect(errors[0]).toEqual([...PATIENT_IMPORT_HEADERS, 'Row', 'Reason']);
    expect(errors.slice(1).map((row) => [row[0], row[PATIENT_IMPORT_HEADERS.length]])).toEqual([
      ['IMP002', 3],
      ['IMP003', 4],
    ]);
    for (const row of errors.slice(1)) expect(String(row[PATIENT_IMPORT_HEADERS.length + 1])).not.toBe('');

    const current = await get(adminToken, '/account/imports/current?kind=PATIENT');
    expect(current.json()).toMatchObject({ data: { id: job.id, status: 'PARTIAL' } });
    expect((await get(adminToken, '/account/imports/current?kind=DEVICE')).json()).toMatchObject({
      data: null,
    });
  });

  it('refuses a default health center the importer does not see, and creates no job', async () => {
    const { tenant, centerAdminToken } = await organisation();
    const elsewhere = await createHealthCenter(testDb.database, tenant.id);
    const file = await workbookOf(PATIENT_IMPORT_HEADERS, [
      patientRow('X9', 'An', '15/04/1960', '0981000909'),
    ]);
    for (const centerId of [elsewhere.id, '01890000-0000-7000-8000-000000000000']) {
      const response = await upload(
        centerAdminToken,
        'PATIENT',
        file,
        'a.xlsx',
        `?defaultHealthCenterId=${centerId}`,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'center.notFound' });
    }
    expect(
      await asOwner(testDb.ownerUrl, 'SELECT id FROM import_jobs WHERE tenant_id = $1', [tenant.id]),
    ).toEqual([]);
  });

  it('answers each refusal with its code and creates no job', async () => {
    const { tenant, adminToken } = await organisation();
    const changed: string[] = [...PATIENT_IMPORT_HEADERS];
    changed[1] = 'Given name';
    const refusals: [Buffer, string, number, string][] = [
      [
        await workbookOf(changed, [patientRow('X1', 'An', '15/04/1960', '0981000201')]),
        'import.wrongHeaders',
        400,
        'a.xlsx',
      ],
      [await workbookOf(PATIENT_IMPORT_HEADERS, []), 'import.empty', 400, 'a.xlsx'],
      [PNG, 'import.invalidFile', 400, 'photo.xlsx'],
      [Buffer.from('Patient ID,First name\n'), 'file.unsupportedType', 415, 'patients.csv'],
    ];
    for (const [content, code, status, filename] of refusals) {
      const response = await upload(adminToken, 'PATIENT', content, filename);
      expect(response.statusCode, code).toBe(status);
      expect(response.json()).toMatchObject({ code });
    }
    const notMultipart = await app.inject({
      method: 'POST',
      url: '/account/imports/PATIENT',
      payload: {},
      ...withSession(adminToken),
    });
    expect(notMultipart.json()).toMatchObject({ code: 'file.missing' });
    expect(
      await asOwner(testDb.ownerUrl, 'SELECT id FROM import_jobs WHERE tenant_id = $1', [tenant.id]),
    ).toEqual([]);
  });
});

describe('device import', () => {
  it('binds devices to patients by account name and reports bad MACs', async () => {
    const { tenant, adminToken } = await organisation();
    await createPatient(testDb.database, tenant.id, { patientCode: 'DEVPAT1' });
    const file = await workbookOf(DEVICE_IMPORT_HEADERS, [
      ['DEVPAT1', 'D4:3B:04:77:00:01', 'V19', 'SN-IMPORT-1'],
      ['DEVPAT1', 'not a mac', 'V19', 'SN-IMPORT-2'],
    ]);
    const response = await upload(adminToken, 'DEVICE', file);
    expect(response.statusCode).toBe(202);
    const job = await finished(adminToken, response.json<{ data: ImportJob }>().data.id);
    expect(job).toMatchObject({ kind: 'DEVICE', status: 'PARTIAL', rowsStored: 1, rowsFailed: 1 });
    const devices = await asOwner<{ serial_number: string }>(
      testDb.ownerUrl,
      'SELECT serial_number FROM devices WHERE tenant_id = $1',
      [tenant.id],
    );
    expect(devices.map((row) => row.serial_number)).toEqual(['SN-IMPORT-1']);
    const errors = await rowsOf((await get(adminToken, `/account/imports/${job.id}/error-file`)).rawPayload);
    expect(errors.slice(1).map((row) => row[1])).toEqual(['not a mac']);
  });
});

describe('who may import and see imports', () => {
  it('refuses callers without the import permission', async () => {
    const { doctorToken } = await organisation();
    for (const response of [
      await upload(doctorToken, 'PATIENT', await workbookOf(PATIENT_IMPORT_HEADERS, [])),
      await get(doctorToken, '/account/imports/templates/DEVICE'),
      await get(doctorToken, '/account/imports'),
      await get(doctorToken, '/account/imports/current?kind=PATIENT'),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    }
  });

  it('shows a job and its error file to its tenant only, and a center admin only their own jobs', async () => {
    const { adminToken, centerAdminToken } = await organisation();
    const response = await upload(
      adminToken,
      'PATIENT',
      await workbookOf(PATIENT_IMPORT_HEADERS, [patientRow('', '', '', '')]),
    );
    const job = await finished(adminToken, response.json<{ data: ImportJob }>().data.id);
    expect(job.hasErrorFile).toBe(true);

    const other = await organisation();
    for (const token of [other.adminToken, centerAdminToken]) {
      for (const url of [`/account/imports/${job.id}`, `/account/imports/${job.id}/error-file`]) {
        const refused = await get(token, url);
        expect(refused.statusCode).toBe(404);
        expect(refused.json()).toMatchObject({ code: 'import.notFound' });
      }
    }
    expect((await get(centerAdminToken, '/account/imports')).json()).toMatchObject({
      data: { items: [], total: 0 },
    });
    expect((await get(other.adminToken, '/account/imports')).json()).toMatchObject({
      data: { items: [], total: 0 },
    });
    expect((await get(adminToken, '/account/imports')).json()).toMatchObject({
      data: { items: [{ id: job.id }], total: 1 },
    });
  });

  it('pages, filters, searches and sorts the history', async () => {
    const { tenant, adminToken } = await organisation();
    const admin = (
      await asOwner<{ id: string }>(
        testDb.ownerUrl,
        `SELECT id FROM users WHERE tenant_id = $1 AND role = 'ADMIN'`,
        [tenant.id],
      )
    )[0]?.id;
    for (const [index, [kind, name]] of [
      ['PATIENT', 'north.xlsx'],
      ['DEVICE', 'watches.xlsx'],
      ['PATIENT', 'south.xlsx'],
    ].entries()) {
      await asOwner(
        testDb.ownerUrl,
        `INSERT INTO import_jobs (tenant_id, id, kind, status, file_name, file_size, created_by, created_at, finished_at, rows_stored)
         VALUES ($1, gen_random_uuid(), $2, 'SUCCEEDED', $3, 10, $4, now() - ($5 || ' minutes')::interval, now(), 1)`,
        [tenant.id, kind, name, admin, String(10 - index)],
      );
    }
    const names = async (query: string) =>
      (await get(adminToken, `/account/imports?${query}`)).json<{
        data: { items: ImportJob[]; total: number };
      }>().data;
    expect((await names('')).items.map((job) => job.fileName)).toEqual([
      'south.xlsx',
      'watches.xlsx',
      'north.xlsx',
    ]);
    expect((await names('kind=PATIENT')).items.map((job) => job.fileName)).toEqual([
      'south.xlsx',
      'north.xlsx',
    ]);
    expect((await names('search=WATCH')).items.map((job) => job.fileName)).toEqual(['watches.xlsx']);
    expect((await names('sortField=fileName&sortType=asc')).items.map((job) => job.fileName)).toEqual([
      'north.xlsx',
      'south.xlsx',
      'watches.xlsx',
    ]);
    const page = await names('size=2&page=1');
    expect(page.total).toBe(3);
    expect(page.items.map((job) => job.fileName)).toEqual(['north.xlsx']);
  });
});
