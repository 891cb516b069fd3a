import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient } from '../../../test/factories.js';
import { withCaller } from '../../db/caller.js';
import type { AuthContext } from '../../http/access.js';
import { systemClock } from '../../lib/clock.js';
import type { ImportCell, ImportContext, NumberedRow } from '../imports/kind.js';
import { insertPatientBatch, parsePatientRow, type PatientImportRow } from './import-kind.js';
import { patientOrganisation, type PatientOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await patientOrganisation(testDb);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const authOf = (userId: string, centerIds: string[] | null): AuthContext =>
  ({
    tenantId: org.tenant.id,
    userId,
    visibility: centerIds === null ? { all: true } : { centerIds },
  }) as unknown as AuthContext;

function rowsOf(cells: ImportCell[][]): NumberedRow<PatientImportRow>[] {
  return cells.map((row, index) => {
    const parsed = parsePatientRow(row, 'en');
    if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
    return { rowNumber: index + 2, value: parsed.value };
  });
}

const cells = (code: string, phone: string, email: string, center: string, contract = ''): ImportCell[] => [
  code,
  'Imported',
  'Person',
  '01/01/1970',
  'FEMALE',
  phone,
  email,
  150,
  50,
  'B+',
  'Somewhere',
  center,
  contract,
];

it('stores valid rows with generated codes from one sequence update, and reports duplicates per row', async () => {
  await createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerB.id,
    phone: '0977000001',
    patientCode: 'TAKEN-1',
  });
  const context: ImportContext = {
    tenantId: org.tenant.id,
    auth: authOf(org.admin.id, null),
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: null,
  };
  const rows = rowsOf([
    cells('', '0977100001', 'one@import.example', 'Center A'),
    cells('', '0977000001', 'two@import.example', 'Center B'),
    cells('TAKEN-1', '0977100003', 'three@import.example', 'center a'),
    cells('', '0977100001', 'four@import.example', 'Center A'),
    cells('', '0977100005', 'five@import.example', 'Nowhere'),
    cells('MY-CODE', '0977100006', 'six@import.example', '', 'CT-9'),
  ]);
  const failures = await withCaller(testDb.database, context.auth, (tx) =>
    insertPatientBatch(tx, rows, context),
  );
  expect(failures).toEqual([
    { rowNumber: 3, reasons: ['Phone number already used by another patient: 0977000001'] },
    { rowNumber: 4, reasons: ['Patient ID already exists: TAKEN-1'] },
    { rowNumber: 5, reasons: ['Phone repeats row 2 of this file'] },
    { rowNumber: 6, reasons: ['Health center not found: Nowhere'] },
    // No health center and no default chosen with the upload: refused, not stored without one.
    { rowNumber: 7, reasons: ['Health center: required'] },
  ]);
  const stored = await asOwner<{
    patient_code: string;
    email: string;
    health_center_id: string | null;
    contract_id: string | null;
  }>(
    testDb.ownerUrl,
    `SELECT patient_code, email, health_center_id, contract_id FROM patients WHERE tenant_id = $1 AND email LIKE '%@import.example' ORDER BY email`,
    [org.tenant.id],
  );
  expect(stored).toEqual([
    {
      patient_code: 'BNCS10001',
      email: 'one@import.example',
      health_center_id: org.centerA.id,
      contract_id: null,
    },
  ]);
  const [sequence] = await asOwner<{ next_value: string }>(
    testDb.ownerUrl,
    'SELECT next_value FROM patient_code_sequences WHERE tenant_id = $1',
    [org.tenant.id],
  );
  expect(Number(sequence?.next_value)).toBe(10002);
});

it('reports a clash with a patient the importer cannot see, and puts rows without a center in the chosen default', async () => {
  await createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerB.id,
    email: 'hidden@import.example',
    patientCode: 'HIDDEN-1',
  });
  const context: ImportContext = {
    tenantId: org.tenant.id,
    auth: authOf(org.adminA.id, [org.centerA.id]),
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: org.centerA.id,
  };
  const rows = rowsOf([
    cells('', '0977200001', 'hidden@import.example', ''),
    cells('', '0977200002', 'mine@import.example', ''),
  ]);
  const failures = await withCaller(testDb.database, context.auth, (tx) =>
    insertPatientBatch(tx, rows, context),
  );
  expect(failures).toHaveLength(1);
  expect(failures[0]?.rowNumber).toBe(2);
  expect(failures[0]?.reasons[0]).toContain('already exists');
  const [mine] = await asOwner<{ health_center_id: string }>(
    testDb.ownerUrl,
    `SELECT health_center_id FROM patients WHERE email = 'mine@import.example'`,
  );
  expect(mine?.health_center_id).toBe(org.centerA.id);
});

it('gives rows refused for another reason their clashes with stored patients too, and stores the rest once', async () => {
  await createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    phone: '0977300009',
    patientCode: 'TAKEN-3',
  });
  const context: ImportContext = {
    tenantId: org.tenant.id,
    auth: authOf(org.admin.id, null),
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: null,
  };
  const [before] = await asOwner<{ next_value: string }>(
    testDb.ownerUrl,
    'SELECT next_value FROM patient_code_sequences WHERE tenant_id = $1',
    [org.tenant.id],
  );
  const rows = rowsOf([
    cells('', '0977300001', 'first@refused.example', 'Center A'),
    // Refused for its center, and its phone belongs to a stored patient.
    cells('', '0977300009', 'second@refused.example', 'Nowhere'),
    // Repeats row 2's email, and its code belongs to a stored patient.
    cells('TAKEN-3', '0977300003', 'FIRST@refused.example', 'Center A'),
    cells('', '0977300004', 'fourth@refused.example', 'Center B'),
  ]);
  const failures = await withCaller(testDb.database, context.auth, (tx) =>
    insertPatientBatch(tx, rows, context),
  );
  expect(failures).toEqual([
    {
      rowNumber: 3,
      reasons: [
        'Health center not found: Nowhere',
        'Phone number already used by another patient: 0977300009',
      ],
    },
    { rowNumber: 4, reasons: ['Patient ID already exists: TAKEN-3', 'Email repeats row 2 of this file'] },
  ]);
  const stored = await asOwner<{ email: string; patient_code: string }>(
    testDb.ownerUrl,
    `SELECT email, patient_code FROM patients WHERE tenant_id = $1 AND email LIKE '%@refused.example' ORDER BY email`,
    [org.tenant.id],
  );
  expect(stored.map((row) => row.email)).toEqual(['first@refused.example', 'fourth@refused.example']);
  const [after] = await asOwner<{ next_value: string }>(
    testDb.ownerUrl,
    'SELECT next_value FROM patient_code_sequences WHERE tenant_id = $1',
    [org.tenant.id],
  );
  // Two codes given, from one allocation.
  expect(Number(after?.next_value) - Number(before?.next_value)).toBe(2);
});

it('judges a batch the full way when a row clashes with a stored patient, and allocates its codes once', async () => {
  await createPatient(testDb.database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    email: 'stored@clash.example',
    patientCode: 'TAKEN-4',
  });
  const context: ImportContext = {
    tenantId: org.tenant.id,
    auth: authOf(org.admin.id, null),
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: org.centerA.id,
  };
  const [before] = await asOwner<{ next_value: string }>(
    testDb.ownerUrl,
    'SELECT next_value FROM patient_code_sequences WHERE tenant_id = $1',
    [org.tenant.id],
  );
  const rows = rowsOf([
    cells('', '0977400001', 'STORED@clash.example', ''),
    // Repeats row 2's phone: with row 2 refused, it is not a repeat of an accepted row.
    cells('', '0977400001', 'other@clash.example', ''),
    cells('', '0977400003', 'third@clash.example', ''),
  ]);
  const failures = await withCaller(testDb.database, context.auth, (tx) =>
    insertPatientBatch(tx, rows, context),
  );
  expect(failures).toEqual([
    { rowNumber: 2, reasons: ['Email already used by another patient: stored@clash.example'] },
  ]);
  const stored = await asOwner<{ email: string }>(
    testDb.ownerUrl,
    `SELECT email FROM patients WHERE tenant_id = $1 AND email LIKE '%@clash.example' ORDER BY email`,
    [org.tenant.id],
  );
  expect(stored.map((row) => row.email)).toEqual([
    'other@clash.example',
    'stored@clash.example',
    'third@clash.example',
  ]);
  const [after] = await asOwner<{ next_value: string }>(
    testDb.ownerUrl,
    'SELECT next_value FROM patient_code_sequences WHERE tenant_id = $1',
    [org.tenant.id],
  );
  expect(Number(after?.next_value) - Number(before?.next_value)).toBe(2);
});

it('stores a large batch with multi-row inserts', async () => {
  const context: ImportContext = {
    tenantId: org.tenant.id,
    auth: authOf(org.admin.id, null),
    clock: systemClock,
    language: 'en',
    defaultHealthCenterId: null,
  };
  const rows = rowsOf(
    Array.from({ length: 2500 }, (_, index) =>
      cells('', `0966${String(index).padStart(6, '0')}`, `bulk-${String(index)}@import.example`, 'Center A'),
    ),
  );
  const failures = await withCaller(testDb.database, context.auth, (tx) =>
    insertPatientBatch(tx, rows, context),
  );
  expect(failures).toEqual([]);
  const [count] = await asOwner<{ n: number }>(
    testDb.ownerUrl,
    `SELECT count(*)::int AS n FROM patients WHERE email LIKE 'bulk-%@import.example'`,
  );
  expect(count?.n).toBe(2500);
});
