import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import {
  doctorAssistants,
  doctorLicenses,
  doctorProfiles,
  healthCenters,
  patientDoctors,
  patients,
  users,
} from '../../db/schema.js';

/** Doctor profiles, licenses and care-team links: SQL only, inside the caller's transaction. */

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/** "Today" as the server's clock says, as a date (UTC): a license is valid through its last day. */
export const todayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * VALID (a license not yet expired), EXPIRED (licenses, all expired) or NONE, computed in SQL for
 * the doctor column given.
 */
export const licenseStateSql = (doctorId: SQL | typeof users.id, today: string) => sql<
  'VALID' | 'EXPIRED' | 'NONE'
>`(
  SELECT CASE WHEN count(*) = 0 THEN 'NONE' WHEN bool_or(license.expires_on >= ${today}::date) THEN 'VALID' ELSE 'EXPIRED' END
  FROM doctor_licenses license WHERE license.tenant_id = ${users.tenantId} AND license.doctor_id = ${doctorId})`;

export interface DoctorFilter {
  page: number;
  size: number;
  search?: string | undefined;
  specialty?: string | undefined;
  centerId?: string | undefined;
  kind?: string | undefined;
  licenseState?: string | undefined;
  /** Only accounts in this state (the patient app's search: ACTIVE). */
  status?: string | undefined;
  /** Search the name only, not e-mail or phone (the patient app's search). */
  isNameSearch?: boolean | undefined;
  sortField: 'name' | 'experience' | 'rating' | 'created';
  sortType: 'asc' | 'desc';
  today: string;
}

function selectDoctors(tx: TenantTransaction, today: string) {
  return tx
    .select({
      user: users,
      profile: doctorProfiles,
      centerName: healthCenters.name,
      licenseState: licenseStateSql(users.id, today),
    })
    .from(users)
    .leftJoin(
      doctorProfiles,
      and(eq(doctorProfiles.tenantId, users.tenantId), eq(doctorProfiles.doctorId, users.id)),
    )
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, users.tenantId), eq(healthCenters.id, users.healthCenterId)),
    );
}
export type DoctorRow = Awaited<ReturnType<ReturnType<typeof selectDoctors>['execute']>>[number];

const isDoctor = and(eq(users.role, 'DOCTOR'), isNull(users.deletedAt));

function conditionsOf(filter: DoctorFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [isDoctor];
  if (filter.centerId !== undefined) conditions.push(eq(users.healthCenterId, filter.centerId));
  if (filter.status !== undefined) conditions.push(eq(users.status, filter.status));
  if (filter.specialty !== undefined)
    conditions.push(sql`${doctorProfiles.specialties} @> ARRAY[${filter.specialty}]::text[]`);
  if (filter.kind !== undefined)
    conditions.push(sql`coalesce(${doctorProfiles.kind}, 'SPECIALIST') = ${filter.kind}`);
  if (filter.licenseState !== undefined)
    conditions.push(sql`${licenseStateSql(users.id, filter.today)} = ${filter.licenseState}`);
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        filter.isNameSearch === true ? undefined : ilike(users.email, pattern),
        filter.isNameSearch === true ? undefined : ilike(users.phone, pattern),
        ilike(
          sql`concat_ws(' ', ${users.firstName}, nullif(${users.middleName}, ''), ${users.lastName})`,
          pattern,
        ),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    );
  }
  return and(...conditions);
}

function orderOf(filter: DoctorFilter): SQL[] {
  const direction = filter.sortType === 'desc' ? desc : asc;
  const byName = [asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.lastName})`), asc(users.id)];
  const nullsLast = filter.sortType === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  switch (filter.sortField) {
    case 'name':
      return [
        direction(sql`lower(${users.firstName})`),
        direction(sql`lower(${users.lastName})`),
        direction(users.id),
      ];
    case 'experience':
      return [sql`${doctorProfiles.yearsOfExperience} ${nullsLast}`, ...byName];
    case 'rating':
      return [
        sql`${doctorProfiles.ratingAverage} ${nullsLast}`,
        sql`${doctorProfiles.ratingCount} ${nullsLast}`,
        ...byName,
      ];
    case 'created':
      return [direction(users.createdAt), direction(users.id)];
  }
}

/** One page of the doctors the transaction may see, and their total. */
export async function listDoctors(
  tx: TenantTransaction,
  filter: DoctorFilter,
): Promise<{ items: DoctorRow[]; total: number }> {
  const where = conditionsOf(filter);
  const items = await selectDoctors(tx, filter.today)
    .where(where)
    .orderBy(...orderOf(filter))
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const totals = await tx
    .select({ total: count() })
    .from(users)
    .leftJoin(
      doctorProfiles,
      and(eq(doctorProfiles.tenantId, users.tenantId), eq(doctorProfiles.doctorId, users.id)),
    )
    .where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A doctor (any account state, not deleted) the transaction may see; locked when asked. */
export async function findDoctor(
  tx: TenantTransaction,
  id: string,
  today: string,
  options: { lock?: boolean } = {},
): Promise<DoctorRow | undefined> {
  const where = and(eq(users.id, id), isDoctor);
  if (options.lock === true) {
    const locked = await tx.select({ id: users.id }).from(users).where(where).for('update');
    if (locked.length === 0) return undefined;
  }
  const rows = await selectDoctors(tx, today).where(where).limit(1);
  return rows[0];
}

export async function doctorsByIds(
  tx: TenantTransaction,
  ids: string[],
  today: string,
): Promise<DoctorRow[]> {
  if (ids.length === 0) return [];
  return selectDoctors(tx, today).where(and(inArray(users.id, ids), isDoctor));
}

export type ProfileValues = Omit<
  typeof doctorProfiles.$inferInsert,
  'tenantId' | 'doctorId' | 'ratingAverage' | 'ratingCount' | 'updatedAt'
>;

/** Creates or replaces a doctor's profile (ratings are kept: they come from reviews). */
export async function saveProfile(
  tx: TenantTransaction,
  tenantId: string,
  doctorId: string,
  values: ProfileValues,
  now: Date,
): Promise<void> {
  await tx
    .insert(doctorProfiles)
    .values({ tenantId, doctorId, ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: [doctorProfiles.tenantId, doctorProfiles.doctorId],
      set: { ...values, updatedAt: now },
    });
}

export async function licensesOf(tx: TenantTransaction, doctorId: string) {
  return tx
    .select()
    .from(doctorLicenses)
    .where(eq(doctorLicenses.doctorId, doctorId))
    .orderBy(desc(doctorLicenses.expiresOn), asc(doctorLicenses.id));
}

export async function findLicense(tx: TenantTransaction, doctorId: string, licenseId: string) {
  const rows = await tx
    .select()
    .from(doctorLicenses)
    .where(and(eq(doctorLicenses.doctorId, doctorId), eq(doctorLicenses.id, licenseId)))
    .limit(1);
  return rows[0];
}

export async function insertLicense(
  tx: TenantTransaction,
  values: typeof doctorLicenses.$inferInsert,
): Promise<void> {
  await tx.insert(doctorLicenses).values(values);
}

export async function deleteLicense(tx: TenantTransaction, licenseId: string): Promise<void> {
  await tx.delete(doctorLicenses).where(eq(doctorLicenses.id, licenseId));
}

export async function countPatientsOf(tx: TenantTransaction, doctorId: string): Promise<number> {
  const rows = await tx
    .select({ total: count() })
    .from(patientDoctors)
    .where(eq(patientDoctors.doctorId, doctorId));
  return rows[0]?.total ?? 0;
}

export async function assistantsOf(tx: TenantTransaction, doctorId: string) {
  return tx
    .select({
      id: users.id,
      firstName: users.firstName,
      middleName: users.middleName,
      lastName: users.lastName,
    })
    .from(doctorAssistants)
    .innerJoin(
      users,
      and(eq(users.tenantId, doctorAssistants.tenantId), eq(users.id, doctorAssistants.assistantId)),
    )
    .where(and(eq(doctorAssistants.doctorId, doctorId), isNull(users.deletedAt)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}

// Patients and care teams -----------------------------------------------------------------------------

/** A patient the transaction may see, locked for the rest of the transaction when asked. */
export async function findPatient(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}) {
  const query = tx
    .select({
      id: patients.id,
      userId: patients.userId,
      holderUserId: patients.holderUserId,
      patientCode: patients.patientCode,
      firstName: patients.firstName,
      middleName: patients.middleName,
      lastName: patients.lastName,
      accountState: patients.accountState,
    })
    .from(patients)
    .where(eq(patients.id, id))
    .limit(1);
  const rows = options.lock === true ? await query.for('update') : await query;
  return rows[0];
}

export async function patientOfUser(tx: TenantTransaction, userId: string) {
  const rows = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.userId, userId))
    .limit(1);
  return rows[0];
}

export async function careTeamOf(tx: TenantTransaction, patientId: string) {
  return tx
    .select({
      link: patientDoctors,
      assignedByFirst: users.firstName,
      assignedByMiddle: users.middleName,
      assignedByLast: users.lastName,
    })
    .from(patientDoctors)
    .leftJoin(
      users,
      and(eq(users.tenantId, patientDoctors.tenantId), eq(users.id, patientDoctors.assignedBy)),
    )
    .where(eq(patientDoctors.patientId, patientId));
}

export async function findLink(tx: TenantTransaction, patientId: string, doctorId: string) {
  const rows = await tx
    .select()
    .from(patientDoctors)
    .where(and(eq(patientDoctors.patientId, patientId), eq(patientDoctors.doctorId, doctorId)))
    .limit(1);
  return rows[0];
}

export async function findFamilyLink(tx: TenantTransaction, patientId: string) {
  const rows = await tx
    .select()
    .from(patientDoctors)
    .where(and(eq(patientDoctors.patientId, patientId), eq(patientDoctors.relation, 'FAMILY')))
    .limit(1);
  return rows[0];
}

export async function insertLink(
  tx: TenantTransaction,
  values: typeof patientDoctors.$inferInsert,
): Promise<void> {
  await tx.insert(patientDoctors).values(values);
}

export async function deleteLink(
  tx: TenantTransaction,
  patientId: string,
  doctorId: string,
): Promise<boolean> {
  const removed = await tx
    .delete(patientDoctors)
    .where(and(eq(patientDoctors.patientId, patientId), eq(patientDoctors.doctorId, doctorId)))
    .returning({ doctorId: patientDoctors.doctorId });
  return removed.length > 0;
}
