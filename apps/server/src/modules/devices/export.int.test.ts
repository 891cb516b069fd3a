import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { call, codeOf, deviceOrganisation, insertDevice, logInAs } from './test-support.js';

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

async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

it('exports the filtered list as xlsx in the caller’s language, escapes formulas, audits, and says when there is nothing', async () => {
  const org = await deviceOrganisation(testDb);
  const tenantId = org.tenant.id;
  await insertDevice(testDb, tenantId, {
    model: 'GT2',
    serialNumber: '=HYPERLINK("http://evil")',
    macAddress: '11:22:33:44:55:01',
    createdAt: new Date('2026-01-01T00:00:00Z'),
  });
  await insertDevice(testDb, tenantId, {
    model: 'V19',
    serialNumber: 'SN-2',
    macAddress: '11:22:33:44:55:02',
    patientId: org.patientA.id,
    accountUsername: '+84 981',
    connectionStatus: 1,
    createdAt: new Date('2026-01-02T00:00:00Z'),
  });
  await insertDevice(testDb, tenantId, {
    model: 'V19',
    serialNumber: 'SN-3',
    macAddress: '11:22:33:44:55:03',
    patientId: org.patientB.id,
    createdAt: new Date('2026-01-03T00:00:00Z'),
  });
  const token = await logInAs(app, org.tenant.code, org.admin);

  const response = await call(app, token, 'GET', '/account/devices/export?sortField=created&sortType=asc');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('spreadsheetml');
  expect(response.headers['content-disposition']).toMatch(
    /attachment; filename="devices-\d{4}-\d{2}-\d{2}\.xlsx"/,
  );
  const rows = await sheetRows(response.rawPayload);
  expect(rows[0]?.slice(0, 6)).toEqual([
    'No.',
    'MAC address',
    'IMEI',
    'Device type',
    'Serial number',
    'Account',
  ]);
  expect(rows).toHaveLength(4);
  expect(rows[1]?.slice(0, 5)).toEqual([
    1,
    '11:22:33:44:55:01',
    undefined,
    'GT2',
    `'=HYPERLINK("http://evil")`,
  ]);
  expect(rows[2]?.slice(0, 9)).toEqual([
    2,
    '11:22:33:44:55:02',
    undefined,
    'V19',
    'SN-2',
    `'+84 981`,
    org.patientA.patientCode,
    'Anh Le',
    'Connected',
  ]);
  expect(rows[3]?.[8]).toBe('Not activated');

  const filtered = await sheetRows(
    (await call(app, token, 'GET', '/account/devices/export?category=GT2')).rawPayload,
  );
  expect(filtered).toHaveLength(2);

  const vietnamese = await app.inject({
    url: '/account/devices/export?status=1',
    cookies: { rpm_session: token },
    headers: { 'accept-language': 'vi' },
  });
  const viRows = await sheetRows(vietnamese.rawPayload);
  expect(viRows[0]?.[0]).toBe('STT');
  expect(viRows[1]?.[8]).toBe('Đã kết nối');

  // A center admin exports only what they see.
  const adminA = await logInAs(app, org.tenant.code, org.adminA);
  expect(
    await sheetRows((await call(app, adminA, 'GET', '/account/devices/export')).rawPayload),
  ).toHaveLength(3);

  const empty = await call(app, token, 'GET', '/account/devices/export?search=nothing-like-this');
  expect(empty.statusCode).toBe(404);
  expect(codeOf(empty)).toBe('export.noData');
  const audits = await asOwner<{ details: { total: number } }>(
    testDb.ownerUrl,
    `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'DEVICE_EXPORTED' ORDER BY occurred_at`,
    [tenantId],
  );
  expect(audits.map((row) => row.details.total)).toEqual([3, 1, 1, 2]);
  expect(
    codeOf(
      await call(app, await logInAs(app, org.tenant.code, org.assistantA), 'GET', '/account/devices/export'),
    ),
  ).toBe('auth.permissionDenied');
});
