import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { systemClock } from '../../lib/clock.js';
import { resolveSession } from '../auth/sessions.js';
import type { ImportContext } from '../imports/kind.js';
import { deviceImportKind, parseDeviceRow, type DeviceImportRow } from './import-kind.js';
import { deviceOrganisation, insertDevice, logInAs } from './test-support.js';

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

function rowOf(cells: (string | number)[]): DeviceImportRow {
  const parsed = parseDeviceRow(cells, 'en');
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  return parsed.value;
}

it('binds rows to patients by account, stores them in one batch and reports each refused row', async () => {
  const org = await deviceOrganisation(testDb);
  const tenantId = org.tenant.id;
  const phoneAccount = await createTenantUser(testDb.database, tenantId, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    email: null,
    phone: '0981777001',
  });
  const patientByPhone = await createPatient(testDb.database, tenantId, {
    healthCenterId: org.centerA.id,
    userId: phoneAccount.id,
  });
  await insertDevice(testDb, tenantId, {
    macAddress: 'CC:00:00:00:00:09',
    serialNumber: 'TAKEN-1',
    model: 'V19',
  });
  const token = await logInAs(app, org.tenant.code, org.adminA);
  const auth = await resolveSession(testDb.database, systemClock, token);
  const context: ImportContext = {
    tenantId,
    auth,
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: null,
  };

  const rows = [
    { rowNumber: 2, value: rowOf([org.accountA.email ?? '', 'cc:00:00:00:00:01', 'V19', 'S-1']) },
    {
      rowNumber: 3,
      value: rowOf([org.patientA.patientCode.toLowerCase(), 'CC:00:00:00:00:02', 'GT2', 'S-2']),
    },
    { rowNumber: 4, value: rowOf(['0981777001', 'CC:00:00:00:00:03', 'GT5', 'S-3']) },
    // Patient B is in center B, which this center admin cannot see.
    { rowNumber: 5, value: rowOf([org.patientB.patientCode, 'CC:00:00:00:00:04', 'V19', 'S-4']) },
    { rowNumber: 6, value: rowOf(['nobody@test.example', 'CC:00:00:00:00:05', 'V19', 'S-5']) },
    { rowNumber: 7, value: rowOf([org.patientA.patientCode, 'CC:00:00:00:00:09', 'V19', 'S-7']) },
    { rowNumber: 8, value: rowOf([org.patientA.patientCode, 'CC:00:00:00:00:08', 'V19', 'TAKEN-1']) },
    { rowNumber: 9, value: rowOf([org.patientA.patientCode, 'CC:00:00:00:00:01', 'J2025B', 'S-9']) },
    { rowNumber: 10, value: rowOf([org.patientA.patientCode, 'CC:00:00:00:00:10', 'GT2', 'S-2']) },
  ];
  const failures = await testDb.database.withTenant(
    tenantId,
    (tx) => deviceImportKind.insertBatch(tx, rows, context),
    auth.visibility,
  );
  expect(failures).toEqual([
    {
      rowNumber: 5,
      reasons: [
        `Account name: no patient you can see has the account or patient code ${org.patientB.patientCode}`,
      ],
    },
    {
      rowNumber: 6,
      reasons: ['Account name: no patient you can see has the account or patient code nobody@test.example'],
    },
    { rowNumber: 7, reasons: ['MAC: a device with CC:00:00:00:00:09 already exists'] },
    { rowNumber: 8, reasons: ['Serial: a device with V19 TAKEN-1 already exists'] },
    { rowNumber: 9, reasons: ['MAC: the same as row 2 of this file'] },
    { rowNumber: 10, reasons: ['Serial: the same as row 3 of this file'] },
  ]);
  const stored = await asOwner<{
    mac_address: string;
    patient_id: string;
    account_username: string;
    model: string;
  }>(
    testDb.ownerUrl,
    `SELECT mac_address, patient_id, account_username, model FROM devices WHERE tenant_id = $1 AND mac_address LIKE 'CC:00:00:00:00:0%' AND serial_number <> 'TAKEN-1' ORDER BY mac_address`,
    [tenantId],
  );
  expect(stored).toEqual([
    {
      mac_address: 'CC:00:00:00:00:01',
      patient_id: org.patientA.id,
      account_username: org.accountA.email,
      model: 'V19',
    },
    {
      mac_address: 'CC:00:00:00:00:02',
      patient_id: org.patientA.id,
      account_username: org.accountA.email,
      model: 'GT2',
    },
    {
      mac_address: 'CC:00:00:00:00:03',
      patient_id: patientByPhone.id,
      account_username: '0981777001',
      model: 'GT5',
    },
  ]);
});

it('reports a clash with a device the importing user cannot see as existing', async () => {
  const org = await deviceOrganisation(testDb);
  const tenantId = org.tenant.id;
  await insertDevice(testDb, tenantId, { macAddress: 'DD:00:00:00:00:01', patientId: org.patientB.id });
  const token = await logInAs(app, org.tenant.code, org.adminA);
  const auth = await resolveSession(testDb.database, systemClock, token);
  const context: ImportContext = {
    tenantId,
    auth,
    clock: systemClock,
    language: 'vi',
    defaultHealthCenterId: null,
  };
  const failures = await testDb.database.withTenant(
    tenantId,
    (tx) =>
      deviceImportKind.insertBatch(
        tx,
        [{ rowNumber: 2, value: rowOf([org.patientA.patientCode, 'DD:00:00:00:00:01', 'V19', 'HIDDEN-1']) }],
        context,
      ),
    auth.visibility,
  );
  expect(failures).toEqual([{ rowNumber: 2, reasons: ['MAC: đã có thiết bị với DD:00:00:00:00:01'] }]);
  const [count] = await asOwner<{ total: number }>(
    testDb.ownerUrl,
    `SELECT count(*)::int AS total FROM devices WHERE tenant_id = $1`,
    [tenantId],
  );
  expect(count?.total).toBe(1);
});
