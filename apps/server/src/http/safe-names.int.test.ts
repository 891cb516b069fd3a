import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { multipart } from '../../test/multipart.js';
import { call, logInAs, patientBody, patientOrganisation, type PatientOrganisation } from '../modules/patients/test-support.js';
import { doctorBody } from '../modules/staff/test-support.js';

/**
 * Names and file names are shown to other people, so they must read as what they are: a bidi
 * control ("Eve\u202Eevil", "e\u202Egnp.exe" shown as "eexe.png") or a name of invisible
 * characters is refused with a field error that says so, and nothing is stored; every name is
 * stored in one form (NFC).
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let dataDir: string;
let token: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-safe-names-'));
  app = await createTestApp(testDb.database, { dataDir });
  org = await patientOrganisation(testDb);
  token = await logInAs(app, org.tenant.code, org.admin);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const RLO = '\u202E';

interface Refusal {
  status: number;
  code: string;
  fieldErrors: { field: string; code: string; message: string }[];
}
const refusalOf = (response: { statusCode: number; json: () => unknown }) => ({ status: response.statusCode, ...(response.json() as Omit<Refusal, 'status'>) });

const count = async (sql: string, parameters: unknown[]) => (await asOwner<{ n: number }>(testDb.ownerUrl, sql, parameters))[0]?.n ?? -1;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x20)]);
const upload = (url: string, filename: string, content: Buffer, contentType = 'application/octet-stream') => {
  const body = multipart([{ name: 'file', filename, content, contentType }]);
  return app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers, ...withSession(token) });
};

describe('names with bidi controls or only invisible characters', () => {
  it('refuses a patient named Eve\\u202Eevil with a clear field error, in the caller’s language, and stores nothing', async () => {
    const before = await count('SELECT count(*)::int AS n FROM patients WHERE tenant_id = $1', [org.tenant.id]);
    const body = patientBody(org.centerA.id, { firstName: `Eve${RLO}evil` });
    const refused = refusalOf(await call(app, token, 'POST', '/account/patients', body));
    expect(refused).toMatchObject({ status: 400, code: 'common.invalidParameter' });
    expect(refused.fieldErrors).toEqual([
      {
        field: 'body.firstName',
        code: 'invisibleCharacters',
        message: 'Contains invisible or text-direction characters (such as U+202E) that could disguise it. Please type it again',
      },
    ]);
    const inVietnamese = await app.inject({
      method: 'POST',
      url: '/account/patients',
      payload: patientBody(org.centerA.id, { lastName: `Tr${RLO}an` }),
      headers: { 'accept-language': 'vi' },
      ...withSession(token),
    });
    expect(refusalOf(inVietnamese).fieldErrors[0]).toMatchObject({ field: 'body.lastName', code: 'invisibleCharacters', message: expect.stringContaining('ký tự vô hình') as unknown });
    expect(await count('SELECT count(*)::int AS n FROM patients WHERE tenant_id = $1', [org.tenant.id])).toBe(before);
  });

  it('refuses a staff account named with a bidi control or with invisible characters only, and stores nothing', async () => {
    for (const [name, code] of [
      [`Eve${RLO}evil`, 'invisibleCharacters'],
      ['\u200B\u200B', 'invisibleCharacters'],
      ['\u3164', 'blank'],
    ] as const) {
      const body = doctorBody(org.centerA.id, { lastName: name });
      const refused = refusalOf(await call(app, token, 'POST', '/account/admin/staff', body));
      expect({ name, status: refused.status, errors: refused.fieldErrors.map((error) => [error.field, error.code]) }).toEqual({
        name,
        status: 400,
        errors: [['body.lastName', code]],
      });
      expect(await count('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [body.email])).toBe(0);
    }
  });

  it('refuses the same in role, scope and follower names', async () => {
    const role = await call(app, token, 'POST', '/account/role', { name: `Night${RLO}desk`, baseRole: 'OPERATOR', permissions: ['dashboard.view'] });
    expect(refusalOf(role)).toMatchObject({ status: 400, fieldErrors: [{ field: 'body.name', code: 'invisibleCharacters' }] });
    const scope = await call(app, token, 'POST', '/account/sadmin/mhsc/scope', { name: `West\u2066side` });
    expect(refusalOf(scope)).toMatchObject({ status: 400, fieldErrors: [{ field: 'body.name', code: 'invisibleCharacters' }] });
    const contact = await call(app, token, 'POST', `/account/patients/${org.patientA.id}/contacts`, {
      contactType: 'CARING',
      name: `Mom${RLO}`,
      phone: '0912345678',
      relationship: 'PARENT',
    });
    expect(refusalOf(contact)).toMatchObject({ status: 400, fieldErrors: [{ field: 'body.name', code: 'invisibleCharacters' }] });
    expect(await count('SELECT count(*)::int AS n FROM patient_contacts WHERE patient_id = $1', [org.patientA.id])).toBe(0);
  });
});

describe('names stored composed (NFC)', () => {
  it('stores a decomposed Vietnamese name in its composed form, and accepts it as typed', async () => {
    const decomposed = { firstName: 'Nguye\u0302\u0303n', middleName: 'Thi\u0323', lastName: 'A\u0301nh' };
    const created = await call(app, token, 'POST', '/account/patients', patientBody(org.centerA.id, decomposed));
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ data: { id: string } }>().data;
    const [stored] = await asOwner<{ first_name: string; middle_name: string; last_name: string }>(
      testDb.ownerUrl,
      'SELECT first_name, middle_name, last_name FROM patients WHERE id = $1',
      [id],
    );
    expect(stored).toEqual({ first_name: 'Nguyễn', middle_name: 'Thị', last_name: 'Ánh' });
    expect(stored?.first_name).toBe('Nguyễn'.normalize('NFC'));
    expect(stored?.first_name.length).toBe(6);

    const staff = await call(app, token, 'POST', '/account/admin/staff', doctorBody(org.centerA.id, { firstName: 'Tra\u0302\u0300n', lastName: 'Đức Thắng' }));
    expect(staff.statusCode, staff.body).toBe(200);
    const [user] = await asOwner<{ first_name: string; last_name: string }>(testDb.ownerUrl, 'SELECT first_name, last_name FROM users WHERE id = $1', [
      staff.json<{ data: { id: string } }>().data.id,
    ]);
    expect(user).toEqual({ first_name: 'Trần', last_name: 'Đức Thắng' });
  });
});

describe('uploaded file names', () => {
  let recordId: string | undefined;
  /** The files of one medical record of patient A (made on first use). */
  const filesUrl = async () => {
    if (recordId === undefined) {
      const made = await call(app, token, 'POST', `/account/patients/${org.patientA.id}/records`, { title: 'Scans', type: 'OTHER', examinationDate: '2026-01-05' });
      expect(made.statusCode, made.body).toBe(200);
      recordId = made.json<{ data: { id: string } }>().data.id;
    }
    return `/account/patients/${org.patientA.id}/records/${recordId}/files`;
  };
  const fileCount = () => count('SELECT count(*)::int AS n FROM patient_files WHERE patient_id = $1', [org.patientA.id]);

  it('refuses a patient file named e\\u202Egnp.exe (shown as "eexe.png") and one with an invisible name, storing nothing', async () => {
    const before = await fileCount();
    for (const [filename, code] of [
      [`e${RLO}gnp.exe`, 'invisibleCharacters'],
      [`report\u200B.pdf`, 'invisibleCharacters'],
      ['\u3164\u3164', 'blank'],
    ] as const) {
      const refused = refusalOf(await upload(await filesUrl(), filename, PDF));
      expect({ filename, refused }).toMatchObject({ filename, refused: { status: 400, code: 'common.invalidParameter', fieldErrors: [{ field: 'file', code }] } });
    }
    expect(await fileCount()).toBe(before);
  });

  it('keeps a decomposed file name composed (NFC)', async () => {
    const saved = await upload(await filesUrl(), 'Ke\u0302\u0301t qua\u0309.pdf', PDF);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: { name: string } }>().data.name).toBe('Kết quả.pdf');
    const [stored] = await asOwner<{ name: string }>(testDb.ownerUrl, 'SELECT name FROM patient_files WHERE id = $1', [
      saved.json<{ data: { id: string } }>().data.id,
    ]);
    expect(stored?.name).toBe('Kết quả.pdf'.normalize('NFC'));
  });

  it('refuses an import file whose name hides its real end, and starts no import', async () => {
    const refused = refusalOf(
      await upload('/account/imports/PATIENT', `patients${RLO}xslx.xlsx`, Buffer.from('PK'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    );
    expect(refused).toMatchObject({ status: 400, code: 'common.invalidParameter', fieldErrors: [{ field: 'file', code: 'invisibleCharacters' }] });
    expect(await count('SELECT count(*)::int AS n FROM import_jobs WHERE tenant_id = $1', [org.tenant.id])).toBe(0);
  });
});
