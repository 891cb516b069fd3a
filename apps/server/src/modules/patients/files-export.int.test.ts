import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { PATIENT_IMPORT_HEADERS } from './import-kind.js';
import {
  call,
  logInAs,
  outcomeOf,
  patientAudit,
  patientOrganisation,
  type PatientOrganisation,
} from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-patient-files-'));
  app = await createTestApp(testDb.database, { dataDir });
  org = await patientOrganisation(testDb);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 1),
]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20)]);
const upload = (token: string, patientId: string, content: Buffer, filename: string) => {
  const body = multipart([{ name: 'file', filename, content, contentType: 'application/octet-stream' }]);
  return app.inject({
    method: 'POST',
    url: `/account/patients/${patientId}/files`,
    payload: body.payload,
    headers: body.headers,
    ...withSession(token),
  });
};

describe('attached files', () => {
  it('uploads jpg/png/pdf by content, lists, downloads (audited) and deletes them', async () => {
    const token = await logInAs(app, org.tenant.code, org.admin);
    const pdf = await upload(token, org.patientA.id, PDF, 'lab/../result.pdf');
    expect(pdf.statusCode, pdf.body).toBe(200);
    const file = pdf.json<{ data: { id: string; name: string; contentType: string; size: number } }>().data;
    expect(file).toMatchObject({ name: 'result.pdf', contentType: 'application/pdf', size: PDF.length });
    expect((await upload(token, org.patientA.id, PNG, 'scan.jpg')).json()).toMatchObject({
      data: { contentType: 'image/png' },
    });
    const list = await call(app, token, 'GET', `/account/patients/${org.patientA.id}/files`);
    expect(list.json<{ data: { id: string }[] }>().data.map((entry) => entry.id)).toContain(file.id);
    const download = await call(app, token, 'GET', `/account/patients/${org.patientA.id}/files/${file.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('result.pdf');
    expect(download.rawPayload.equals(PDF)).toBe(true);
    const actions = (await patientAudit(testDb.ownerUrl, org.patientA.id)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['PATIENT_FILE_UPLOADED', 'PATIENT_FILE_DOWNLOADED']));
    expect(
      (await call(app, token, 'DELETE', `/account/patients/${org.patientA.id}/files/${file.id}`)).statusCode,
    ).toBe(200);
    expect(
      outcomeOf(await call(app, token, 'GET', `/account/patients/${org.patientA.id}/files/${file.id}`)),
    ).toMatchObject({ status: 404, code: 'patient.fileNotFound' });
  });

  it('refuses other types, empty and oversized files, and files of patients outside the caller’s centers', async () => {
    const token = await logInAs(app, org.tenant.code, org.admin);
    const before = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM patient_files',
    );
    expect(
      outcomeOf(await upload(token, org.patientA.id, Buffer.from('<script>alert(1)</script>'), 'evil.pdf')),
    ).toMatchObject({ status: 415, code: 'file.unsupportedType' });
    expect(
      outcomeOf(await upload(token, org.patientA.id, Buffer.from('GIF89a-------'), 'a.gif')),
    ).toMatchObject({ status: 415 });
    expect(outcomeOf(await upload(token, org.patientA.id, Buffer.alloc(0), 'empty.pdf'))).toMatchObject({
      status: 400,
      code: 'file.missing',
    });
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024, 0x20)]);
    expect(outcomeOf(await upload(token, org.patientA.id, big, 'big.pdf'))).toMatchObject({
      status: 413,
      code: 'file.tooLarge',
    });
    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    expect(outcomeOf(await upload(adminA, org.patientB.id, PDF, 'x.pdf'))).toMatchObject({
      status: 404,
      code: 'patient.notFound',
    });
    expect(
      outcomeOf(await call(app, adminA, 'GET', `/account/patients/${org.patientB.id}/files`)),
    ).toMatchObject({ status: 404, code: 'patient.notFound' });
    const after = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM patient_files',
    );
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});

describe('export', () => {
  it('exports the filtered list as xlsx with escaped formulas, and audits it', async () => {
    const tenant = await createTenant(testDb.database);
    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    await createPatient(testDb.database, tenant.id, {
      patientCode: 'BNCS1',
      firstName: '=HYPERLINK("x")',
      lastName: 'Evil',
      status: 'SOS',
      birthday: '1950-03-04',
      phone: '+84900',
    });
    await createPatient(testDb.database, tenant.id, {
      patientCode: 'BNCS2',
      firstName: 'Calm',
      lastName: 'Person',
      status: 'NORMAL',
    });
    const token = await logInAs(app, tenant.code, admin);
    const response = await call(app, token, 'GET', '/account/patients/export?status=SOS');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    // The import template's columns, so the file imports again as it is.
    expect(rows[0]).toEqual([...PATIENT_IMPORT_HEADERS]);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(0, 6)).toEqual(
      ['BNCS1', `'=HYPERLINK("x")`, 'Evil', '04/03/1950', null, "'+84900"].map((value) => value ?? undefined),
    );
    const [audit] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'PATIENT_EXPORTED' AND actor_user_id = $1`,
      [admin.id],
    );
    expect(audit?.n).toBe(1);
    expect(
      outcomeOf(await call(app, token, 'GET', '/account/patients/export?status=HIGH_RISK')),
    ).toMatchObject({ status: 404, code: 'export.noData' });
  });
});
