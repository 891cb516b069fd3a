/** Test support for the doctors, care-team and request tests. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { call, logInAs, organisation } from '../staff/test-support.js';

export { call, logInAs };

/** A real 1x1 PNG (one blue pixel). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

/**
 * The staff organisation (tenant, centers A and B, a tenant admin, an MHSC admin and a doctor of
 * each center) plus a second doctor in A, a patient with an account and two more patients in A,
 * and a patient in B.
 */
export async function careOrganisation(testDb: TestDatabase) {
  const org = await organisation(testDb);
  const { database } = testDb;
  const doctorA2 = await createTenantUser(database, org.tenant.id, {
    role: 'DOCTOR',
    healthCenterId: org.centerA.id,
    firstName: 'Second',
    lastName: 'Doctor',
  });
  const patientUser = await createTenantUser(database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    firstName: 'Hung',
    lastName: 'Pham',
  });
  const patientA = await createPatient(database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    userId: patientUser.id,
    firstName: 'Hung',
    lastName: 'Pham',
  });
  const patientA2 = await createPatient(database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    firstName: 'Lan',
    lastName: 'Vu',
  });
  const patientB = await createPatient(database, org.tenant.id, {
    healthCenterId: org.centerB.id,
    firstName: 'Minh',
    lastName: 'Do',
  });
  return { ...org, doctorA2, patientUser, patientA, patientA2, patientB };
}
export type CareOrganisation = Awaited<ReturnType<typeof careOrganisation>>;

/** Adds a license to a doctor directly (as the owner): `days` from today to its last day. */
export async function addLicenseRow(
  ownerUrl: string,
  tenantId: string,
  doctorId: string,
  days: number,
  now = new Date(),
): Promise<string> {
  const id = uuidv7();
  const expiresOn = new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  await asOwner(
    ownerUrl,
    'INSERT INTO doctor_licenses (tenant_id, id, doctor_id, name, expires_on) VALUES ($1, $2, $3, $4, $5)',
    [tenantId, id, doctorId, 'Certificate', expiresOn],
  );
  return id;
}

export async function careTeamRows(
  ownerUrl: string,
  patientId: string,
): Promise<{ doctor_id: string; relation: string }[]> {
  return asOwner(
    ownerUrl,
    'SELECT doctor_id, relation FROM patient_doctors WHERE patient_id = $1 ORDER BY relation, doctor_id',
    [patientId],
  );
}

export async function requestRow(ownerUrl: string, id: string) {
  const [row] = await asOwner<{ status: string; reject_reason: string | null; decided_by: string | null }>(
    ownerUrl,
    'SELECT status, reject_reason, decided_by FROM care_requests WHERE id = $1',
    [id],
  );
  return row;
}

export async function auditCount(ownerUrl: string, action: string, targetId: string): Promise<number> {
  const [row] = await asOwner<{ n: number }>(
    ownerUrl,
    'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND target_id = $2',
    [action, targetId],
  );
  return row?.n ?? 0;
}

export const codeOf = (response: LightMyRequestResponse) => response.json<{ code?: string }>().code;
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
export const dataOf = <T>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;

/** Logs each of the organisation's people in once. */
export async function tokensOf(app: FastifyInstance, org: CareOrganisation) {
  const code = org.tenant.code;
  return {
    admin: await logInAs(app, code, org.admin),
    adminA: await logInAs(app, code, org.adminA),
    adminB: await logInAs(app, code, org.adminB),
    doctorA: await logInAs(app, code, org.doctorA),
    doctorA2: await logInAs(app, code, org.doctorA2),
    doctorB: await logInAs(app, code, org.doctorB),
    patient: await logInAs(app, code, org.patientUser),
  };
}
