/** Test support for the vitals tests: an organisation with patients, batches, stored state. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { tenantSettings } from '../../db/schema.js';
import { call, organisation } from '../staff/test-support.js';

export { call, logInAs } from '../staff/test-support.js';

/**
 * Test patients' accounts were opened long before any test clock (some tests fix the clock to a
 * date), so readings are never "before monitoring" (health.beforeMonitoring) unless a test says so.
 */
const ACCOUNTS_OPENED_AT = () => new Date('2020-01-01T00:00:00Z');

/** The staff organisation plus an operator of center A and a patient (with a login) in each center. */
export async function vitalsOrganisation(testDb: TestDatabase) {
  const { database } = testDb;
  const org = await organisation(testDb);
  const tenantId = org.tenant.id;
  const operatorA = await createTenantUser(database, tenantId, {
    role: 'OPERATOR',
    healthCenterId: org.centerA.id,
  });
  const patientUser = await createTenantUser(database, tenantId, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
  });
  const patientA = await createPatient(database, tenantId, {
    healthCenterId: org.centerA.id,
    userId: patientUser.id,
    birthday: '1980-06-15',
    createdAt: ACCOUNTS_OPENED_AT(),
  });
  const patientB = await createPatient(database, tenantId, {
    healthCenterId: org.centerB.id,
    birthday: '1980-06-15',
    createdAt: ACCOUNTS_OPENED_AT(),
  });
  return { ...org, operatorA, patientUser, patientA, patientB };
}

/** A new patient of center A, born in 1980 (age 40+: heart-rate SOS ceiling max(130, 205.8 − 0.685 × age)). */
export function newPatient(
  testDb: TestDatabase,
  tenantId: string,
  centerId: string,
  overrides: Parameters<typeof createPatient>[2] = {},
) {
  return createPatient(testDb.database, tenantId, {
    healthCenterId: centerId,
    birthday: '1980-06-15',
    createdAt: ACCOUNTS_OPENED_AT(),
    ...overrides,
  });
}

export function batchOf(
  patientId: string | undefined,
  readings: unknown[],
  extra: Record<string, unknown> = {},
) {
  return { batchId: uuidv7(), ...(patientId === undefined ? {} : { patientId }), readings, ...extra };
}

export const reading = (measure: string, value: number, measuredAt: Date, source = 'WIRELESS_DEVICE') => ({
  measure,
  value,
  measuredAt: measuredAt.toISOString(),
  source,
});

export interface BatchAnswer {
  data: {
    accepted: number;
    duplicates: number;
    rejected: number;
    problems: { kind: string; index: number; code: string; field: string }[];
    status: string;
    replayed: boolean;
  };
}

export const answerOf = (response: LightMyRequestResponse) => response.json<BatchAnswer>().data;

export function postBatch(app: FastifyInstance, token: string, body: unknown) {
  return call(app, token, 'POST', '/collector/readings', body);
}

export async function storedReadings(ownerUrl: string, patientId: string) {
  return asOwner<{ measure: string; value: number; source: string; measured_at: Date }>(
    ownerUrl,
    'SELECT measure, value, source, measured_at FROM readings WHERE patient_id = $1 ORDER BY measured_at, measure',
    [patientId],
  );
}

export async function patientRow(ownerUrl: string, patientId: string) {
  const [row] = await asOwner<{
    status: string;
    alerts_suppressed_until_normal: boolean;
    last_reading_at: Date | null;
  }>(ownerUrl, 'SELECT status, alerts_suppressed_until_normal, last_reading_at FROM patients WHERE id = $1', [
    patientId,
  ]);
  if (row === undefined) throw new Error('patient missing');
  return row;
}

export async function setTenantSettings(
  testDb: TestDatabase,
  tenantId: string,
  settings: Record<string, string>,
) {
  await testDb.database.system
    .insert(tenantSettings)
    .values(Object.entries(settings).map(([key, value]) => ({ tenantId, key, value })));
}
