import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database, SystemStore, TenantTransaction } from '../../db/database.js';
import { purgeVitals } from '../vitals/vitals-database.js';
import {
  patientCodeSequences,
  patientFiles,
  patients,
  patientStatusChanges,
  sosRecordings,
  tenants,
  users,
} from '../../db/schema.js';
import { selectPatients, type PatientWithCenter } from './patient-rows.js';

// The list's reads live in list-queries.ts, the selected patient row in patient-rows.ts; this module
// keeps the writes, the code sequence, the status history and the purge, and answers for all.
export { type PatientHolder, type PatientWithCenter } from './patient-rows.js';
export {
  conditionsOf,
  countByStatus,
  isTotalKept,
  listPatients,
  matchesQuery,
  pageQuery,
  patientBatch,
  patientIdsOf,
  SEARCH_WORK_MEM,
  searchPlanOfSetup,
  searchQuery,
  searchSetupQuery,
  totalQuery,
  type ListedPatient,
  type PatientFilter,
  type StatusCounts,
} from './list-queries.js';

/** A patient the transaction may see (deleted accounts included), locked when asked. */
export async function findPatient(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PatientWithCenter | undefined> {
  if (options.lock === true) {
    const locked = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.id, id))
      .for('update');
    if (locked.length === 0) return undefined;
  }
  const rows = await selectPatients(tx).where(eq(patients.id, id)).limit(1);
  return rows[0];
}

export async function insertPatients(
  tx: TenantTransaction,
  rows: (typeof patients.$inferInsert)[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(patients).values(rows);
}

/**
 * Bulk insert for imports: one statement over `unnest`ed column arrays (a few parameters whatever
 * the row count); the tenant and the creation time, the same for every row, are sent once.
 * `onClash` 'skip' leaves out rows that clash with a unique key (ON CONFLICT DO NOTHING) and
 * returns the ids really stored; 'fail' lets such a clash fail the statement (a unique violation,
 * 23505), which spares PostgreSQL the checks ahead of each row that ON CONFLICT makes (about a
 * sixth of the insert's cost) when no clash is expected.
 */
export async function insertImportedPatients(
  tx: TenantTransaction,
  batch: { tenantId: string; createdAt: Date },
  rows: readonly Omit<typeof patients.$inferInsert, 'tenantId' | 'createdAt' | 'updatedAt'>[],
  onClash: 'skip' | 'fail' = 'skip',
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const column = <T>(pick: (row: (typeof rows)[number]) => T) => sql.param(rows.map(pick));
  const createdAt = batch.createdAt.toISOString();
  const result = await tx.execute<{ id: string }>(sql`
    INSERT INTO patients (tenant_id, id, patient_code, first_name, middle_name, last_name, birthday, gender, phone, email,
                          height_cm, weight_kg, blood_type, address_line, health_center_id, contract_id, created_at, updated_at)
    SELECT ${batch.tenantId}::uuid, imported.*, ${createdAt}::timestamptz, ${createdAt}::timestamptz FROM unnest(
      ${column((row) => row.id)}::uuid[], ${column((row) => row.patientCode)}::text[],
      ${column((row) => row.firstName)}::text[], ${column((row) => row.middleName ?? '')}::text[], ${column((row) => row.lastName)}::text[],
      ${column((row) => row.birthday ?? null)}::date[], ${column((row) => row.gender ?? null)}::text[],
      ${column((row) => row.phone ?? null)}::text[], ${column((row) => row.email ?? null)}::text[],
      ${column((row) => row.heightCm ?? null)}::float8[], ${column((row) => row.weightKg ?? null)}::float8[],
      ${column((row) => row.bloodType ?? null)}::text[], ${column((row) => row.addressLine ?? '')}::text[],
      ${column((row) => row.healthCenterId ?? null)}::uuid[], ${column((row) => row.contractId ?? null)}::text[]) AS imported
    ${onClash === 'skip' ? sql`ON CONFLICT DO NOTHING RETURNING id` : sql``}`);
  if (onClash === 'fail') return new Set(rows.map((row) => row.id));
  return new Set(result.rows.map((row) => row.id));
}

export async function updatePatient(
  tx: TenantTransaction,
  id: string,
  changes: Partial<typeof patients.$inferInsert>,
  now: Date,
): Promise<void> {
  await tx
    .update(patients)
    .set({ ...changes, updatedAt: now })
    .where(eq(patients.id, id));
}

/**
 * Deletes with their holder's account the active sub-users it holds (they have no login of their
 * own): the same state and purge time. Returns their ids.
 */
export async function disableSubUsersOf(
  tx: TenantTransaction,
  holderUserId: string,
  deletion: { deletionRequestedAt: Date; purgeAfter: Date },
): Promise<string[]> {
  const rows = await tx
    .update(patients)
    .set({ accountState: 'DISABLED', ...deletion, updatedAt: deletion.deletionRequestedAt })
    .where(and(eq(patients.holderUserId, holderUserId), eq(patients.accountState, 'ACTIVE')))
    .returning({ id: patients.id });
  return rows.map((row) => row.id);
}

// Codes -----------------------------------------------------------------------------------------

/**
 * Takes `count` consecutive numbers of the tenant's patient-code sequence in one statement (the
 * row lock serialises concurrent callers) and returns the codes. The row is created on first use.
 */
export async function allocatePatientCodes(
  tx: TenantTransaction,
  tenantId: string,
  howMany: number,
): Promise<string[]> {
  if (howMany <= 0) return [];
  const rows = await tx
    .insert(patientCodeSequences)
    .values({ tenantId, nextValue: 10001 + howMany })
    .onConflictDoUpdate({
      target: patientCodeSequences.tenantId,
      set: { nextValue: sql`${patientCodeSequences.nextValue} + ${howMany}` },
    })
    .returning({ prefix: patientCodeSequences.prefix, nextValue: patientCodeSequences.nextValue });
  const row = rows[0];
  if (row === undefined) throw new Error('patient code sequence not allocated');
  const first = row.nextValue - howMany;
  return Array.from({ length: howMany }, (_, index) => `${row.prefix}${String(first + index)}`);
}

/**
 * Keeps the sequence ahead of codes given by hand that look like its own (prefix + digits), so a
 * later generated code never collides with them.
 */
export async function advancePatientCodesPast(
  tx: TenantTransaction,
  tenantId: string,
  givenCodes: readonly string[],
): Promise<void> {
  const numbers = givenCodes
    .map((code) => /^([A-Z]+)(\d{1,15})$/.exec(code))
    .filter((match) => match !== null);
  if (numbers.length === 0) return;
  const rows = await tx
    .select({ prefix: patientCodeSequences.prefix })
    .from(patientCodeSequences)
    .where(eq(patientCodeSequences.tenantId, tenantId));
  const prefix = rows[0]?.prefix ?? 'BNCS';
  const highest = Math.max(
    0,
    ...numbers.filter((match) => match[1] === prefix).map((match) => Number(match[2])),
  );
  if (highest === 0) return;
  await tx
    .insert(patientCodeSequences)
    .values({ tenantId, nextValue: Math.max(10001, highest + 1) })
    .onConflictDoUpdate({
      target: patientCodeSequences.tenantId,
      set: { nextValue: sql`greatest(${patientCodeSequences.nextValue}, ${highest + 1})` },
    });
}

/**
 * Which of these values already belong to a patient of the tenant (unique indexes see past centers).
 * Emails are given lower-cased and compared with email_lower (migration 0061).
 *
 * Each value is looked up on its own through its unique index (a LATERAL … LIMIT 1 per value), so
 * the plan does not depend on what the planner believes of the tenant's size: with `= ANY (…)` and
 * statistics that lag behind a large import, PostgreSQL chose to read every patient of the tenant
 * once per batch (about 80 ms a batch at 100,000 patients) instead of 1,000 index lookups (3 ms).
 */
export async function existingIdentifiers(
  tx: TenantTransaction,
  values: { codes: string[]; phones: string[]; emails: string[]; contractIds: string[] },
) {
  const distinct = (list: string[]) => sql.param([...new Set(list)]);
  const found = await tx.execute<{ kind: string; value: string }>(sql`
    SELECT 'code' AS kind, found.value FROM unnest(${distinct(values.codes)}::text[]) AS wanted (value)
      CROSS JOIN LATERAL (SELECT patient_code AS value FROM patients WHERE patient_code = wanted.value LIMIT 1) AS found
    UNION ALL SELECT 'phone', found.value FROM unnest(${distinct(values.phones)}::text[]) AS wanted (value)
      CROSS JOIN LATERAL (SELECT phone AS value FROM patients WHERE phone = wanted.value LIMIT 1) AS found
    UNION ALL SELECT 'email', found.value FROM unnest(${distinct(values.emails)}::text[]) AS wanted (value)
      CROSS JOIN LATERAL (SELECT email_lower AS value FROM patients WHERE email_lower = wanted.value LIMIT 1) AS found
    UNION ALL SELECT 'contract', found.value FROM unnest(${distinct(values.contractIds)}::text[]) AS wanted (value)
      CROSS JOIN LATERAL (SELECT contract_id AS value FROM patients WHERE contract_id = wanted.value LIMIT 1) AS found`);
  return found.rows;
}

// Status history ----------------------------------------------------------------------------------

export async function insertStatusChange(
  tx: TenantTransaction,
  row: typeof patientStatusChanges.$inferInsert,
): Promise<void> {
  await tx.insert(patientStatusChanges).values(row);
}

export async function statusHistory(tx: TenantTransaction, patientId: string) {
  return tx
    .select({
      change: patientStatusChanges,
      firstName: users.firstName,
      middleName: users.middleName,
      lastName: users.lastName,
    })
    .from(patientStatusChanges)
    .leftJoin(
      users,
      and(eq(users.tenantId, patientStatusChanges.tenantId), eq(users.id, patientStatusChanges.changedBy)),
    )
    .where(eq(patientStatusChanges.patientId, patientId))
    .orderBy(desc(patientStatusChanges.changedAt), desc(patientStatusChanges.id))
    .limit(500);
}

// Purge ---------------------------------------------------------------------------------------------

/** Tenants the purge job visits: every active customer tenant. */
export async function activeCustomerTenantIds(system: SystemStore): Promise<string[]> {
  const rows = await system
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(eq(tenants.status, 'ACTIVE'), eq(tenants.isPlatform, false)))
    .orderBy(asc(tenants.id));
  return rows.map((row) => row.id);
}

/**
 * Deleted accounts whose purge time has passed, locked; rows another process holds are skipped
 * (SKIP LOCKED), so two servers never purge (and audit) one patient twice.
 */
export async function lockPurgeDue(tx: TenantTransaction, now: Date, limit = 200) {
  return tx
    .select({
      id: patients.id,
      patientCode: patients.patientCode,
      userId: patients.userId,
      avatarFile: patients.avatarFile,
      deletionRequestedAt: patients.deletionRequestedAt,
    })
    .from(patients)
    .where(and(eq(patients.accountState, 'DISABLED'), lte(patients.purgeAfter, now)))
    .orderBy(asc(patients.purgeAfter))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Removes patients and everything that points at them; returns the storage keys of their files. */
export async function purgePatients(database: Database, tenantId: string, tx: TenantTransaction, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const files = await tx
    .select({ key: patientFiles.storageKey })
    .from(patientFiles)
    .where(inArray(patientFiles.patientId, ids));
  // SOS voice messages are stored like files: their bytes go too (rows by cascade).
  const recordings = await tx
    .select({ key: sosRecordings.storageKey })
    .from(sosRecordings)
    .where(inArray(sosRecordings.patientId, ids));
  // Devices outlive their wearer: they are unbound, not deleted.
  await tx.execute(
    sql`UPDATE devices SET patient_id = NULL WHERE patient_id = ANY (${sql.param(ids)}::uuid[])`,
  );
  // Readings and rollups have no foreign key (ingest speed, migration 0016; a DEDICATED tenant's
  // vitals database holds no patients, 0060): removed first, explicitly, where they live.
  await purgeVitals(database, tx, tenantId, ids);
  // Status history, files, care-team links and the other vitals go with the row (ON DELETE CASCADE).
  await tx.delete(patients).where(inArray(patients.id, ids));
  return [...files, ...recordings].map((file) => file.key);
}
