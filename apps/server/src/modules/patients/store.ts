import type { PatientListQuery, PatientListScope, PatientStatus } from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import {
  healthCenters,
  patientCodeSequences,
  patientFiles,
  patients,
  patientStatusChanges,
  sosRecordings,
  tenants,
  users,
  type PatientRow,
  type StoredVital,
} from '../../db/schema.js';

/** A sub-user's holder: the account's name and its own patient record when the caller sees it. */
export interface PatientHolder {
  name: string;
  patientId: string | null;
}

/** A patient with the name of their health center (joins see what the caller sees). */
export interface PatientWithCenter {
  patient: PatientRow;
  centerName: string | null;
  /** A SUB_USER's holder (null for a main account). */
  holder: PatientHolder | null;
}

/** A listed patient: the record and what triage needs (open case and ticket, what crossed, silence). */
export interface ListedPatient extends PatientWithCenter {
  openSosCaseId: string | null;
  openTicketId: string | null;
  missedDoses: number;
  noData: boolean;
  crossed: {
    id: string;
    type: string;
    level: string;
    readings: StoredVital[];
    createdAt: string;
  } | null;
}

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/**
 * A sub-user's holder (subqueries see what the caller sees): the holder's own patient record, and
 * its name from that record or else from the account.
 */
const holderColumn = sql<PatientHolder | null>`CASE WHEN ${patients.holderUserId} IS NULL THEN NULL ELSE (
  SELECT json_build_object('patientId', own.id,
           'name', coalesce(own.first_name || ' ' || own.last_name, account.first_name || ' ' || account.last_name, ''))
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT held.id, held.first_name, held.last_name FROM patients held
                        WHERE held.tenant_id = ${patients.tenantId} AND held.user_id = ${patients.holderUserId}
                        ORDER BY held.created_at LIMIT 1) AS own ON true
    LEFT JOIN users account ON account.tenant_id = ${patients.tenantId} AND account.id = ${patients.holderUserId}) END`;

function selectPatients(tx: TenantTransaction) {
  return tx
    .select({ patient: patients, centerName: healthCenters.name, holder: holderColumn })
    .from(patients)
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
    );
}

/** The list's filters and who asks (the `mine` scope is the caller's care team). */
export type PatientFilter = Omit<PatientListQuery, 'page' | 'size'> & { callerId: string };

/** Patients of these doctors (the care-team links), as a condition. */
const ofDoctors = (doctorIds: SQL) =>
  sql`${patients.id} IN (SELECT link.patient_id FROM patient_doctors link WHERE link.doctor_id IN (${doctorIds}))`;

/**
 * The caller's care team: patients linked to them (a doctor) or to a doctor they assist (an
 * assistant). One rule for every role, so the list and the counts of `mine` cannot differ.
 */
const careTeamOf = (userId: string) =>
  ofDoctors(
    sql`SELECT ${userId}::uuid UNION ALL SELECT assist.doctor_id FROM doctor_assistants assist WHERE assist.assistant_id = ${userId}::uuid`,
  );

/** The list's conditions; deleted accounts (waiting for the purge) are never listed. */
export function conditionsOf(
  filter: Partial<Omit<PatientFilter, 'callerId'>> & { callerId?: string | undefined },
  extra: SQL[] = [],
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(patients.accountState, 'ACTIVE'), ...extra];
  if (filter.scope === 'mine') {
    if (filter.callerId === undefined) throw new Error('the mine scope needs the caller');
    conditions.push(careTeamOf(filter.callerId));
  }
  if (filter.status !== undefined) conditions.push(eq(patients.status, filter.status));
  if (filter.centerId !== undefined) conditions.push(eq(patients.healthCenterId, filter.centerId));
  if (filter.packageCode !== undefined && filter.packageCode !== '')
    conditions.push(eq(patients.packageCode, filter.packageCode));
  if (filter.doctorId !== undefined) conditions.push(ofDoctors(sql`${filter.doctorId}::uuid`));
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(patients.patientCode, pattern),
        ilike(patients.phone, pattern),
        ilike(patients.email, pattern),
        ilike(
          sql`concat_ws(' ', ${patients.firstName}, nullif(${patients.middleName}, ''), ${patients.lastName})`,
          pattern,
        ),
        ilike(sql`${patients.firstName} || ' ' || ${patients.lastName}`, pattern),
        ilike(sql`${patients.lastName} || ' ' || ${patients.firstName}`, pattern),
      ),
    );
  }
  return and(...conditions);
}

// Triage columns: one statement per page. The open case joins on its partial unique index (one
// open case per patient); silent watches and open tickets are read once each (hash joins on the
// few NO_SYNC devices and open tickets); what crossed is a lateral probe of alerts_by_patient.
const openCase = sql`open_case`;
const silent = sql`silent`;
const openTicket = sql`open_ticket`;
const crossed = sql`crossed`;
const missed = sql`missed`;

/**
 * Severity rank, worst highest (PATIENT_ATTENTION_LEVELS reversed): open SOS case 5, SOS 4,
 * HIGH_RISK 3, AT_RISK 2, NORMAL with a silent watch (no data) 1, NORMAL 0.
 */
const severityRank = sql`CASE
  WHEN open_case.id IS NOT NULL THEN 5
  WHEN ${patients.status} = 'SOS' THEN 4
  WHEN ${patients.status} = 'HIGH_RISK' THEN 3
  WHEN ${patients.status} = 'AT_RISK' THEN 2
  WHEN silent.patient_id IS NOT NULL THEN 1
  ELSE 0 END`;

/** `now`: the instant "the last 24 hours" of missed doses ends at (the service's clock). */
function selectListed(tx: TenantTransaction, now: Date = new Date()) {
  return tx
    .select({
      patient: patients,
      centerName: healthCenters.name,
      holder: holderColumn,
      openSosCaseId: sql<string | null>`open_case.id`,
      openTicketId: sql<string | null>`open_ticket.id`,
      missedDoses: sql<number>`missed.doses`,
      noData: sql<boolean>`silent.patient_id IS NOT NULL`,
      crossed: sql<ListedPatient['crossed']>`CASE WHEN crossed.id IS NULL THEN NULL ELSE
        json_build_object('id', crossed.id, 'type', crossed.type, 'level', crossed.level,
                          'readings', crossed.measure_values, 'createdAt', crossed.created_at) END`,
    })
    .from(patients)
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
    )
    .leftJoin(
      sql`sos_cases ${openCase}`,
      sql`open_case.tenant_id = ${patients.tenantId} AND open_case.patient_id = ${patients.id} AND open_case.status <> 'CLOSED'`,
    )
    .leftJoin(
      sql`(SELECT DISTINCT device.patient_id FROM devices device
            WHERE device.patient_id IS NOT NULL AND device.app_status = 'NO_SYNC') ${silent}`,
      sql`silent.patient_id = ${patients.id}`,
    )
    .leftJoin(
      sql`(SELECT DISTINCT ON (ticket.patient_id) ticket.patient_id, ticket.id FROM tickets ticket
            WHERE ticket.status NOT IN ('SUCCESS', 'CANCELED')
            ORDER BY ticket.patient_id, ticket.created_at DESC, ticket.id DESC) ${openTicket}`,
      sql`open_ticket.patient_id = ${patients.id}`,
    )
    .leftJoinLateral(
      sql`(SELECT alert.id, alert.type, alert.level, alert.measure_values, alert.created_at FROM alerts alert
            WHERE alert.tenant_id = ${patients.tenantId} AND alert.patient_id = ${patients.id}
              AND alert.status <> 'RESOLVED'
            ORDER BY alert.created_at DESC LIMIT 1) ${crossed}`,
      sql`true`,
    )
    // Doses missed in the last day: a probe of medication_intakes_by_patient_day (two local days).
    .leftJoinLateral(
      sql`(SELECT count(*)::int AS doses FROM medication_intakes intake
            WHERE intake.tenant_id = ${patients.tenantId} AND intake.patient_id = ${patients.id}
              AND intake.local_date >= (${now.toISOString()}::timestamptz - interval '2 days')::date
              AND intake.state = 'UNCONFIRMED'
              AND intake.due_at >= ${now.toISOString()}::timestamptz - interval '24 hours') ${missed}`,
      sql`true`,
    );
}

function orderOf(filter: Pick<PatientFilter, 'sortField' | 'sortType'>): SQL[] {
  const direction = filter.sortType === 'desc' ? desc : asc;
  switch (filter.sortField) {
    case 'severity':
      // Worst first; at the same severity the newest open case (the emergency just raised is
      // the one nobody has looked at yet), then the freshest reading (no reading last); asc is
      // the exact reverse.
      return filter.sortType === 'desc'
        ? [
            sql`${severityRank} DESC`,
            sql`open_case.opened_at DESC NULLS LAST`,
            sql`${patients.lastReadingAt} DESC NULLS LAST`,
            asc(patients.id),
          ]
        : [
            sql`${severityRank} ASC`,
            sql`open_case.opened_at ASC NULLS FIRST`,
            sql`${patients.lastReadingAt} ASC NULLS FIRST`,
            desc(patients.id),
          ];
    case 'name':
      return [
        direction(sql`lower(${patients.firstName})`),
        direction(sql`lower(${patients.lastName})`),
        direction(patients.id),
      ];
    case 'code':
      return [direction(patients.patientCode), direction(patients.id)];
    case 'status':
      // By severity (SOS worst), not alphabetically.
      return [
        direction(
          sql`CASE ${patients.status} WHEN 'NORMAL' THEN 0 WHEN 'AT_RISK' THEN 1 WHEN 'HIGH_RISK' THEN 2 ELSE 3 END`,
        ),
        asc(sql`lower(${patients.firstName})`),
        asc(patients.id),
      ];
    case 'created':
      return [direction(patients.createdAt), direction(patients.id)];
    case 'birthday':
      return [direction(patients.birthday), direction(patients.id)];
  }
}

/** The statement of one page (exported for EXPLAIN in tools). */
export function pageQuery(
  tx: TenantTransaction,
  filter: PatientFilter,
  page: { page: number; size: number },
  now?: Date,
) {
  return selectListed(tx, now)
    .where(conditionsOf(filter))
    .orderBy(...orderOf(filter))
    .limit(page.size)
    .offset(page.page * page.size);
}

/** One page of patients and the total, within what the transaction may see. */
export async function listPatients(
  tx: TenantTransaction,
  filter: PatientFilter,
  page: { page: number; size: number },
  now?: Date,
) {
  const where = conditionsOf(filter);
  // One after the other: a transaction is one connection, which runs one query at a time.
  const items: ListedPatient[] = await pageQuery(tx, filter, page, now);
  const totals = await tx.select({ total: count() }).from(patients).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** One batch of the export, in the list's order. */
export async function patientBatch(
  tx: TenantTransaction,
  filter: PatientFilter,
  offset: number,
  limit: number,
): Promise<PatientWithCenter[]> {
  return selectListed(tx)
    .where(conditionsOf(filter))
    .orderBy(...orderOf(filter))
    .limit(limit)
    .offset(offset);
}

/** The ids of every patient the export writes, in its order (the export's audit row names them). */
export async function patientIdsOf(tx: TenantTransaction, filter: PatientFilter): Promise<string[]> {
  const rows = await selectListed(tx)
    .where(conditionsOf(filter))
    .orderBy(...orderOf(filter));
  return rows.map((row) => row.patient.id);
}

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
 * the row count), skipping rows that clash with a unique key. Returns the ids really stored.
 */
export async function insertImportedPatients(
  tx: TenantTransaction,
  rows: readonly (typeof patients.$inferInsert)[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const column = <T>(pick: (row: typeof patients.$inferInsert) => T) => sql.param(rows.map(pick));
  const result = await tx.execute<{ id: string }>(sql`
    INSERT INTO patients (tenant_id, id, patient_code, first_name, middle_name, last_name, birthday, gender, phone, email,
                          height_cm, weight_kg, blood_type, address_line, health_center_id, contract_id, created_at, updated_at)
    SELECT * FROM unnest(
      ${column((row) => row.tenantId)}::uuid[], ${column((row) => row.id)}::uuid[], ${column((row) => row.patientCode)}::text[],
      ${column((row) => row.firstName)}::text[], ${column((row) => row.middleName ?? '')}::text[], ${column((row) => row.lastName)}::text[],
      ${column((row) => row.birthday ?? null)}::date[], ${column((row) => row.gender ?? null)}::text[],
      ${column((row) => row.phone ?? null)}::text[], ${column((row) => row.email ?? null)}::text[],
      ${column((row) => row.heightCm ?? null)}::float8[], ${column((row) => row.weightKg ?? null)}::float8[],
      ${column((row) => row.bloodType ?? null)}::text[], ${column((row) => row.addressLine ?? '')}::text[],
      ${column((row) => row.healthCenterId ?? null)}::uuid[], ${column((row) => row.contractId ?? null)}::text[],
      ${column((row) => row.createdAt?.toISOString() ?? null)}::timestamptz[], ${column((row) => row.updatedAt?.toISOString() ?? null)}::timestamptz[])
    ON CONFLICT DO NOTHING
    RETURNING id`);
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

/** Which of these values already belong to a patient of the tenant (unique indexes see past centers). */
export async function existingIdentifiers(
  tx: TenantTransaction,
  values: { codes: string[]; phones: string[]; emails: string[]; contractIds: string[] },
) {
  const found = await tx.execute<{ kind: string; value: string }>(sql`
    SELECT 'code' AS kind, patient_code AS value FROM patients WHERE patient_code = ANY (${sql.param(values.codes)}::text[])
    UNION ALL SELECT 'phone', phone FROM patients WHERE phone = ANY (${sql.param(values.phones)}::text[])
    UNION ALL SELECT 'email', lower(email) FROM patients WHERE lower(email) = ANY (${sql.param(values.emails)}::text[])
    UNION ALL SELECT 'contract', contract_id FROM patients WHERE contract_id = ANY (${sql.param(values.contractIds)}::text[])`);
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

// Dashboard counts ----------------------------------------------------------------------------------

export type StatusCounts = Record<PatientStatus, number>;

/**
 * Live patients by status, within what the transaction sees: the list's conditions for the same
 * scope and center, so the counts always add up to the list's totals.
 */
export async function countByStatus(
  tx: TenantTransaction,
  filter: { scope: PatientListScope; centerId?: string | undefined; callerId: string },
): Promise<StatusCounts> {
  const rows = await tx
    .select({ status: patients.status, total: count() })
    .from(patients)
    .where(conditionsOf(filter))
    .groupBy(patients.status);
  const counts: StatusCounts = { NORMAL: 0, AT_RISK: 0, HIGH_RISK: 0, SOS: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as PatientStatus] = row.total;
  return counts;
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
export async function purgePatients(tx: TenantTransaction, ids: string[]): Promise<string[]> {
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
  // Readings have no foreign key (ingest speed, migration 0016): removed first, explicitly.
  await tx.execute(sql`SELECT purge_patient_readings(${sql.param(ids)}::uuid[])`);
  // Status history, files, care-team links and the other vitals go with the row (ON DELETE CASCADE).
  await tx.delete(patients).where(inArray(patients.id, ids));
  return [...files, ...recordings].map((file) => file.key);
}
