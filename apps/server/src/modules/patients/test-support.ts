/** Test support for the patient tests: an organisation with patients, calls, stored state. */
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { doctorAssistants, patientDoctors } from '../../db/schema.js';
import { organisation } from '../staff/test-support.js';

export { call, logInAs } from '../staff/test-support.js';

/**
 * The staff organisation (tenant, centers A and B, a tenant ADMIN, an MHSC admin and a doctor of
 * each center) plus an operator of the tenant, an operator of center A, an assistant of doctor A,
 * and one patient in each center; patient A is doctor A's (FAMILY).
 */
export async function patientOrganisation(testDb: TestDatabase) {
  const { database } = testDb;
  const org = await organisation(testDb);
  const tenantId = org.tenant.id;
  const operator = await createTenantUser(database, tenantId, {
    role: 'OPERATOR',
    firstName: 'Olga',
    lastName: 'Operator',
  });
  const operatorA = await createTenantUser(database, tenantId, {
    role: 'OPERATOR',
    healthCenterId: org.centerA.id,
    firstName: 'Oanh',
    lastName: 'Operator',
  });
  const assistantA = await createTenantUser(database, tenantId, {
    role: 'DOCTOR_ASSISTANT',
    healthCenterId: org.centerA.id,
    firstName: 'Anna',
    lastName: 'Assistant',
  });
  const patientA = await createPatient(database, tenantId, {
    healthCenterId: org.centerA.id,
    firstName: 'Anh',
    lastName: 'Nguyen',
    birthday: '1960-01-01',
    gender: 'MALE',
    status: 'NORMAL',
  });
  const patientB = await createPatient(database, tenantId, {
    healthCenterId: org.centerB.id,
    firstName: 'Binh',
    lastName: 'Tran',
    birthday: '1970-01-01',
    gender: 'FEMALE',
    status: 'AT_RISK',
  });
  await database.withTenant(tenantId, async (tx) => {
    await tx
      .insert(patientDoctors)
      .values({ tenantId, patientId: patientA.id, doctorId: org.doctorA.id, relation: 'FAMILY' });
    await tx
      .insert(doctorAssistants)
      .values({ tenantId, assistantId: assistantA.id, doctorId: org.doctorA.id });
  });
  return { ...org, operator, operatorA, assistantA, patientA, patientB };
}
export type PatientOrganisation = Awaited<ReturnType<typeof patientOrganisation>>;

const unique = () => randomBytes(4).toString('hex');

/** A valid create body; tests change one field at a time. */
export function patientBody(centerId: string | null, overrides: Record<string, unknown> = {}) {
  const suffix = unique();
  return {
    firstName: 'Lan',
    lastName: 'Pham',
    birthday: '1980-05-20',
    gender: 'FEMALE',
    phone: `09${String(parseInt(suffix, 16)).padStart(8, '0').slice(0, 8)}`,
    email: `patient-${suffix}@test.example`,
    heightCm: 160,
    weightKg: 55,
    bloodType: 'A+',
    address: {
      line: '1 Le Loi',
      ward: 'Ben Nghe',
      district: 'District 1',
      province: 'Ho Chi Minh City',
      country: 'Vietnam',
    },
    ...(centerId === null ? {} : { healthCenterId: centerId }),
    ...overrides,
  };
}

export interface StoredPatient {
  id: string;
  patient_code: string;
  first_name: string;
  phone: string | null;
  email: string | null;
  status: string;
  contract_id: string | null;
  health_center_id: string | null;
  account_state: string;
  purge_after: Date | null;
}

/** The patient row as stored (read as the owner, past row level security). */
export async function storedPatient(ownerUrl: string, id: string): Promise<StoredPatient | undefined> {
  const [row] = await asOwner<StoredPatient>(ownerUrl, 'SELECT * FROM patients WHERE id = $1', [id]);
  return row;
}

export async function patientCount(ownerUrl: string, tenantId: string): Promise<number> {
  const [row] = await asOwner<{ n: number }>(
    ownerUrl,
    'SELECT count(*)::int AS n FROM patients WHERE tenant_id = $1',
    [tenantId],
  );
  return row?.n ?? 0;
}

/** Audit rows about a patient (target), oldest first. */
export async function patientAudit(
  ownerUrl: string,
  patientId: string,
): Promise<{ action: string; actor_user_id: string | null; details: Record<string, unknown> }[]> {
  return asOwner(
    ownerUrl,
    `SELECT action, actor_user_id, details FROM audit_log WHERE target_type = 'patient' AND target_id = $1 ORDER BY occurred_at, id`,
    [patientId],
  );
}

export interface ErrorBody {
  code?: string;
  fieldErrors?: { field: string; code: string; message: string }[];
}

/** Status, code and the fields named by an error answer. */
export function outcomeOf(response: { statusCode: number; json: () => unknown }) {
  const body = response.json() as ErrorBody;
  return {
    status: response.statusCode,
    code: body.code,
    fields: (body.fieldErrors ?? []).map((error) => error.field),
  };
}

export type App = FastifyInstance;

/**
 * Patients whose document (patient_search_documents, migration 0070) differs from their rows of
 * patient_search_terms a word of letters can start, in terms or center, in any tenant: none when
 * the triggers keep them.
 */
export async function documentsApartFromTerms(ownerUrl: string): Promise<unknown[]> {
  return asOwner(
    ownerUrl,
    `WITH kept AS (
       SELECT tenant_id, patient_id, (array_agg(health_center_id))[1] AS center, array_agg(term ORDER BY term) AS terms
         FROM patient_search_terms WHERE patient_search_is_documented(term) GROUP BY tenant_id, patient_id)
     SELECT coalesce(kept.patient_id, document.patient_id) AS patient_id, kept.terms AS kept, document.terms AS document
       FROM kept FULL JOIN patient_search_documents document
         ON document.tenant_id = kept.tenant_id AND document.patient_id = kept.patient_id
      WHERE kept.terms IS DISTINCT FROM document.terms OR kept.center IS DISTINCT FROM document.health_center_id`,
  );
}
