import type { MedicalRecord, PatientFile } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import {
  call,
  logInAs,
  outcomeOf,
  patientAudit,
  patientOrganisation,
  type PatientOrganisation,
} from './test-support.js';

/** Medical records (spec §3, §2 add, edit, detail) and their attachments, on a real database and disk. */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let dataDir: string;
let admin: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-medical-records-'));
  app = await createTestApp(testDb.database, { dataDir });
  org = await patientOrganisation(testDb);
  admin = await logInAs(app, org.tenant.code, org.admin);
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

const recordsUrl = (patientId: string) => `/account/patients/${patientId}/records`;
interface Answer {
  json: () => unknown;
}
const recordOf = (response: Answer) => (response.json() as { data: MedicalRecord }).data;
const fileOf = (response: Answer) => (response.json() as { data: PatientFile }).data;
const pageOf = (response: Answer) =>
  (response.json() as { data: { items: MedicalRecord[]; total: number } }).data;

async function addRecord(token: string, patientId: string, body: Record<string, unknown>) {
  return call(app, token, 'POST', recordsUrl(patientId), {
    title: 'Blood test',
    type: 'RESULT_CARD',
    examinationDate: '2026-03-02',
    ...body,
  });
}

function upload(token: string, url: string, content: Buffer, filename: string) {
  const body = multipart([{ name: 'file', filename, content, contentType: 'application/octet-stream' }]);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: body.headers,
    ...withSession(token),
  });
}

/** Every stored file under the data directory (the storage keeps one file per upload). */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

const utcDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('medical records', () => {
  it('adds a record, attaches a PDF and a PNG by content, lists, reads, opens, edits and deletes it, all audited', async () => {
    const created = await addRecord(admin, org.patientA.id, {
      title: 'Lipid panel',
      place: 'Cho Ray Hospital',
      doctor: 'Dr. Lan',
      note: 'Fasting',
    });
    expect(created.statusCode, created.body).toBe(200);
    const record = recordOf(created);
    expect(record).toMatchObject({
      title: 'Lipid panel',
      type: 'RESULT_CARD',
      examinationDate: '2026-03-02',
      place: 'Cho Ray Hospital',
      doctor: 'Dr. Lan',
      note: 'Fasting',
      files: [],
      createdBy: { id: org.admin.id },
    });
    const filesUrl = `${recordsUrl(org.patientA.id)}/${record.id}/files`;
    const pdf = await upload(admin, filesUrl, PDF, 'lab/../result.pdf');
    expect(pdf.statusCode, pdf.body).toBe(200);
    const pdfFile = fileOf(pdf);
    expect(pdfFile).toMatchObject({ name: 'result.pdf', contentType: 'application/pdf', size: PDF.length });
    expect(fileOf(await upload(admin, filesUrl, PNG, 'scan.jpg'))).toMatchObject({
      contentType: 'image/png',
    });

    const detail = recordOf(await call(app, admin, 'GET', `${recordsUrl(org.patientA.id)}/${record.id}`));
    expect(detail.files.map((file) => file.name)).toEqual(['result.pdf', 'scan.jpg']);
    const opened = await call(app, admin, 'GET', `${filesUrl}/${pdfFile.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');
    expect(opened.headers['cache-control']).toBe('private, no-store');
    expect(opened.rawPayload.equals(PDF)).toBe(true);

    const edited = await call(app, admin, 'PUT', `${recordsUrl(org.patientA.id)}/${record.id}`, {
      title: 'Lipid panel, repeat',
      type: 'RESULT_CARD',
      examinationDate: '2026-03-02',
      place: 'Cho Ray Hospital',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(recordOf(edited)).toMatchObject({
      title: 'Lipid panel, repeat',
      doctor: null,
      note: null,
    });
    expect(recordOf(edited).files).toHaveLength(2);

    expect((await call(app, admin, 'DELETE', `${filesUrl}/${pdfFile.id}`)).statusCode).toBe(200);
    expect(outcomeOf(await call(app, admin, 'GET', `${filesUrl}/${pdfFile.id}`))).toMatchObject({
      status: 404,
      code: 'patient.fileNotFound',
    });
    const filesBefore = (await storedFiles()).length;
    expect((await call(app, admin, 'DELETE', `${recordsUrl(org.patientA.id)}/${record.id}`)).statusCode).toBe(
      200,
    );
    expect(
      outcomeOf(await call(app, admin, 'GET', `${recordsUrl(org.patientA.id)}/${record.id}`)),
    ).toMatchObject({
      status: 404,
      code: 'medicalRecord.notFound',
    });
    // The PNG's bytes went with the record.
    expect((await storedFiles()).length).toBe(filesBefore - 1);

    const audit = await patientAudit(testDb.ownerUrl, org.patientA.id);
    const actions = audit.map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'MEDICAL_RECORD_CREATED',
        'PATIENT_FILE_UPLOADED',
        'MEDICAL_RECORD_VIEWED',
        'PATIENT_FILE_DOWNLOADED',
        'MEDICAL_RECORD_UPDATED',
        'PATIENT_FILE_DELETED',
        'MEDICAL_RECORD_DELETED',
      ]),
    );
    const update = await asOwner<{ details: { changed: string[] } }>(
      testDb.ownerUrl,
      `SELECT details FROM audit_log WHERE action = 'MEDICAL_RECORD_UPDATED' AND target_id = $1`,
      [org.patientA.id],
    );
    expect(update[0]?.details.changed).toEqual(['title', 'doctor', 'note']);
  });

  it('lists a page searched by title, place or doctor, filtered by type and sorted', async () => {
    const patient = org.patientB.id;
    for (const [title, type, examinationDate, place] of [
      ['Cardiology visit', 'EXAMINATION_CARD', '2025-05-01', 'Heart Institute'],
      ['X-ray chest', 'RESULT_CARD', '2025-07-15', 'City Clinic'],
      ['Pharmacy bill', 'BILL', '2025-06-10', 'City Pharmacy'],
    ] as const)
      expect((await addRecord(admin, patient, { title, type, examinationDate, place })).statusCode).toBe(200);
    const list = async (query: string) =>
      pageOf(await call(app, admin, 'GET', `${recordsUrl(patient)}?${query}`));
    const newestFirst = await list('size=2');
    expect(newestFirst.total).toBe(3);
    expect(newestFirst.items.map((item) => item.title)).toEqual(['X-ray chest', 'Pharmacy bill']);
    expect((await list('search=city')).items.map((item) => item.title).sort()).toEqual([
      'Pharmacy bill',
      'X-ray chest',
    ]);
    expect((await list('type=BILL')).items.map((item) => item.title)).toEqual(['Pharmacy bill']);
    expect((await list('sortField=title&sortType=asc')).items.map((item) => item.title)).toEqual([
      'Cardiology visit',
      'Pharmacy bill',
      'X-ray chest',
    ]);
    // A search for a LIKE wildcard matches it literally.
    expect((await list('search=%25')).total).toBe(0);
  });

  it('refuses a blank title, an unknown type and an examination day after today or before 1900', async () => {
    expect(outcomeOf(await addRecord(admin, org.patientA.id, { title: '  ' }))).toMatchObject({
      status: 400,
      code: 'common.invalidParameter',
    });
    expect(outcomeOf(await addRecord(admin, org.patientA.id, { type: 'XRAY' }))).toMatchObject({
      status: 400,
      code: 'common.invalidParameter',
    });
    // Two UTC days ahead is after today in every zone; yesterday in UTC is before it in every zone.
    for (const examinationDate of [utcDay(2), '1899-12-31'])
      expect(outcomeOf(await addRecord(admin, org.patientA.id, { examinationDate }))).toMatchObject({
        status: 400,
        code: 'medicalRecord.invalidDate',
        fields: ['examinationDate'],
      });
    expect((await addRecord(admin, org.patientA.id, { examinationDate: utcDay(-1) })).statusCode).toBe(200);
  });

  it('refuses other types, empty and oversized files, and an eleventh file, storing nothing', async () => {
    const record = recordOf(await addRecord(admin, org.patientA.id, { title: 'Scans' }));
    const filesUrl = `${recordsUrl(org.patientA.id)}/${record.id}/files`;
    const before = (await storedFiles()).length;
    expect(
      outcomeOf(await upload(admin, filesUrl, Buffer.from('<script>alert(1)</script>'), 'evil.pdf')),
    ).toMatchObject({
      status: 415,
      code: 'file.unsupportedType',
    });
    expect(outcomeOf(await upload(admin, filesUrl, Buffer.from('GIF89a-------'), 'a.gif'))).toMatchObject({
      status: 415,
    });
    expect(outcomeOf(await upload(admin, filesUrl, Buffer.alloc(0), 'empty.pdf'))).toMatchObject({
      status: 400,
      code: 'file.missing',
    });
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024, 0x20)]);
    expect(outcomeOf(await upload(admin, filesUrl, big, 'big.pdf'))).toMatchObject({
      status: 413,
      code: 'file.tooLarge',
    });
    expect((await storedFiles()).length).toBe(before);

    for (let page = 1; page <= 10; page += 1)
      expect((await upload(admin, filesUrl, PNG, `page-${String(page)}.png`)).statusCode).toBe(200);
    expect(outcomeOf(await upload(admin, filesUrl, PNG, 'page-11.png'))).toMatchObject({
      status: 409,
      code: 'medicalRecord.tooManyFiles',
    });
    expect((await storedFiles()).length).toBe(before + 10);
  });

  it('keeps records to the caller’s centers and each record to its own patient', async () => {
    const recordOfB = recordOf(await addRecord(admin, org.patientB.id, { title: 'Of B' }));
    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    expect(outcomeOf(await call(app, adminA, 'GET', recordsUrl(org.patientB.id)))).toMatchObject({
      status: 404,
      code: 'patient.notFound',
    });
    expect(outcomeOf(await addRecord(adminA, org.patientB.id, {}))).toMatchObject({
      status: 404,
      code: 'patient.notFound',
    });
    // B's record through A's address is not found, for reading, editing and deleting alike.
    const crossed = `${recordsUrl(org.patientA.id)}/${recordOfB.id}`;
    expect(outcomeOf(await call(app, admin, 'GET', crossed))).toMatchObject({
      status: 404,
      code: 'medicalRecord.notFound',
    });
    expect(
      outcomeOf(
        await call(app, admin, 'PUT', crossed, { title: 'x', type: 'OTHER', examinationDate: '2026-01-01' }),
      ),
    ).toMatchObject({ status: 404, code: 'medicalRecord.notFound' });
    expect(outcomeOf(await call(app, admin, 'DELETE', crossed))).toMatchObject({
      status: 404,
      code: 'medicalRecord.notFound',
    });
    expect(outcomeOf(await upload(admin, `${crossed}/files`, PDF, 'x.pdf'))).toMatchObject({
      status: 404,
      code: 'medicalRecord.notFound',
    });
  });
});

describe('in the patient app', () => {
  it('the patient reads its own records and opens their files; it writes none and sees no one else’s', async () => {
    const patientUser = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    const patient = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: patientUser.id,
    });
    const record = recordOf(await addRecord(admin, patient.id, { title: 'Discharge letter', type: 'OTHER' }));
    const pdf = fileOf(
      await upload(admin, `${recordsUrl(patient.id)}/${record.id}/files`, PDF, 'letter.pdf'),
    );
    // Another patient's record, to be kept from it.
    recordOf(await addRecord(admin, org.patientA.id, { title: 'Not yours' }));

    const token = await logInAs(app, org.tenant.code, patientUser);
    const mine = pageOf(await call(app, token, 'GET', '/health/me/records'));
    expect(mine.items.map((item) => item.title)).toEqual(['Discharge letter']);
    expect(mine.items[0]?.files.map((file) => file.name)).toEqual(['letter.pdf']);
    const opened = await call(app, token, 'GET', `/health/me/records/${record.id}/files/${pdf.id}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.rawPayload.equals(PDF)).toBe(true);
    // The staff routes stay closed to it, reading and writing.
    expect((await call(app, token, 'GET', recordsUrl(patient.id))).statusCode).toBe(403);
    expect((await addRecord(token, patient.id, {})).statusCode).toBe(403);
    const [audit] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'MEDICAL_RECORDS_LISTED' AND actor_user_id = $1`,
      [patientUser.id],
    );
    expect(audit?.n).toBe(1);
  });
});
