import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { PATIENT_IMPORT_HEADERS } from './import-kind.js';
import { call, logInAs, outcomeOf } from './test-support.js';

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
