import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { centerAdmins, doctorAssistants, healthCenters, platformStaffTenants, roles, scopes, tenants, userLevels, users } from '../../db/schema.js';
import type { UserRow } from '../auth/store.js';

/** A user with the names of their custom role, center and scope (joins see what the caller sees). */
export interface StaffRow {
  user: UserRow;
  customRoleName: string | null;
  centerName: string | null;
  scopeName: string | null;
}

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

/** A scope and every scope below it, as a subquery of ids. */
export const scopeSubtree = (scopeId: string) => sql`WITH RECURSIVE subtree AS (
    SELECT id FROM scopes WHERE id = ${scopeId}
    UNION ALL
    SELECT child.id FROM scopes child JOIN subtree parent ON child.parent_id = parent.id
  ) SELECT id FROM subtree`;

function selectStaff(tx: TenantTransaction) {
  return tx
    .select({ user: users, customRoleName: roles.name, centerName: healthCenters.name, scopeName: scopes.name })
    .from(users)
    .leftJoin(roles, and(eq(roles.tenantId, users.tenantId), eq(roles.id, users.customRoleId)))
    .leftJoin(healthCenters, and(eq(healthCenters.tenantId, users.tenantId), eq(healthCenters.id, users.healthCenterId)))
    .leftJoin(scopes, and(eq(scopes.tenantId, users.tenantId), eq(scopes.id, users.scopeId)));
}

export interface StaffFilter {
  roles: readonly string[];
  page: number;
  size: number;
  search?: string | undefined;
  status?: string | undefined;
  centerId?: string | undefined;
  scopeId?: string | undefined;
  /** Only the assistants of this doctor. */
  assistantsOf?: string | undefined;
  sortField: 'name' | 'created' | 'status';
  sortType: 'asc' | 'desc';
}

function conditionsOf(filter: StaffFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [isNull(users.deletedAt), inArray(users.role, [...filter.roles])];
  if (filter.status !== undefined) conditions.push(eq(users.status, filter.status));
  if (filter.centerId !== undefined) conditions.push(eq(users.healthCenterId, filter.centerId));
  if (filter.scopeId !== undefined) {
    conditions.push(sql`(${users.scopeId} IN (${scopeSubtree(filter.scopeId)})
      OR ${users.healthCenterId} IN (SELECT center.id FROM health_centers center WHERE center.scope_id IN (${scopeSubtree(filter.scopeId)})))`);
  }
  if (filter.assistantsOf !== undefined) {
    conditions.push(sql`${users.id} IN (SELECT link.assistant_id FROM doctor_assistants link WHERE link.doctor_id = ${filter.assistantsOf})`);
  }
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(users.email, pattern),
        ilike(users.phone, pattern),
        ilike(sql`concat_ws(' ', ${users.firstName}, nullif(${users.middleName}, ''), ${users.lastName})`, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    );
  }
  return and(...conditions);
}

function orderOf(filter: StaffFilter): SQL[] {
  const direction = filter.sortType === 'desc' ? desc : asc;
  const byName = [direction(sql`lower(${users.firstName})`), direction(sql`lower(${users.lastName})`)];
  switch (filter.sortField) {
    case 'name':
      return [...byName, direction(users.id)];
    case 'created':
      return [direction(users.createdAt), direction(users.id)];
    case 'status':
      return [direction(users.status), asc(sql`lower(${users.firstName})`), asc(users.id)];
  }
}

/** One page of staff (of the roles given) and the total, within what the transaction may see. */
export async function listStaff(tx: TenantTransaction, filter: StaffFilter): Promise<{ items: StaffRow[]; total: number }> {
  const where = conditionsOf(filter);
  // One after the other: a transaction is one connection, which runs one query at a time.
  const items = await selectStaff(tx).where(where).orderBy(...orderOf(filter)).limit(filter.size).offset(filter.page * filter.size);
  const totals = await tx.select({ total: count() }).from(users).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A live account (not deleted) of any role, with its names: one's own record for the level switcher. */
export async function findAccount(tx: TenantTransaction, id: string): Promise<StaffRow | undefined> {
  const rows = await selectStaff(tx)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return rows[0];
}

/** A live staff account (not a patient, not deleted), locked for the rest of the transaction when asked. */
export async function findStaff(tx: TenantTransaction, id: string, options: { lock?: boolean } = {}): Promise<StaffRow | undefined> {
  const where = and(eq(users.id, id), isNull(users.deletedAt), notInArray(users.role, ['PATIENT']));
  if (options.lock === true) {
    const locked = await tx.select({ id: users.id }).from(users).where(where).for('update');
    if (locked.length === 0) return undefined;
  }
  const rows = await selectStaff(tx).where(where).limit(1);
  return rows[0];
}

export async function insertUser(tx: TenantTransaction, user: typeof users.$inferInsert): Promise<void> {
  await tx.insert(users).values(user);
}

export type StaffChanges = Partial<
  Pick<UserRow, 'firstName' | 'middleName' | 'lastName' | 'email' | 'phone' | 'role' | 'customRoleId' | 'healthCenterId' | 'scopeId' | 'status' | 'disabledUntil'>
> &
  Partial<Pick<UserRow, 'deactivationRequestedAt' | 'deactivationRequestedUntil' | 'deactivationRequestedIndefinite'>>;

export async function updateStaff(tx: TenantTransaction, id: string, changes: StaffChanges, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, id));
}

// Doctors and assistants ------------------------------------------------------------------------

export interface LinkedPerson {
  ownerId: string;
  id: string;
  firstName: string;
  middleName: string;
  lastName: string;
}

/** The doctors of each assistant (only doctors the transaction may see). */
export async function doctorsOfAssistants(tx: TenantTransaction, assistantIds: string[]): Promise<LinkedPerson[]> {
  if (assistantIds.length === 0) return [];
  return tx
    .select({ ownerId: doctorAssistants.assistantId, id: users.id, firstName: users.firstName, middleName: users.middleName, lastName: users.lastName })
    .from(doctorAssistants)
    .innerJoin(users, and(eq(users.tenantId, doctorAssistants.tenantId), eq(users.id, doctorAssistants.doctorId)))
    .where(and(inArray(doctorAssistants.assistantId, assistantIds), isNull(users.deletedAt)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
}

/** Which of the ids are live doctors the transaction may see. */
export async function findDoctorIds(tx: TenantTransaction, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.role, 'DOCTOR'), isNull(users.deletedAt)));
  return rows.map((row) => row.id);
}

/**
 * Makes the assistant's doctors exactly `doctorIds` among the doctors the transaction may see;
 * links to doctors outside the caller's centers are not theirs to remove and stay.
 */
export async function replaceVisibleDoctors(tx: TenantTransaction, tenantId: string, assistantId: string, doctorIds: string[]): Promise<void> {
  await tx.delete(doctorAssistants).where(
    and(
      eq(doctorAssistants.assistantId, assistantId),
      doctorIds.length > 0 ? notInArray(doctorAssistants.doctorId, doctorIds) : undefined,
      sql`${doctorAssistants.doctorId} IN (SELECT visible.id FROM users visible)`,
    ),
  );
  if (doctorIds.length === 0) return;
  await tx
    .insert(doctorAssistants)
    .values(doctorIds.map((doctorId) => ({ tenantId, assistantId, doctorId })))
    .onConflictDoNothing();
}

export async function countDoctorLinks(tx: TenantTransaction, assistantId: string): Promise<number> {
  const rows = await tx.select({ total: count() }).from(doctorAssistants).where(eq(doctorAssistants.assistantId, assistantId));
  return rows[0]?.total ?? 0;
}

/** Assistants for whom `doctorId` is the only doctor (they would be left without one). */
export async function assistantsOnlyWith(tx: TenantTransaction, doctorId: string): Promise<string[]> {
  const rows = await tx.execute<{ assistant_id: string }>(sql`
    SELECT mine.assistant_id FROM doctor_assistants mine
    WHERE mine.doctor_id = ${doctorId}
      AND NOT EXISTS (SELECT 1 FROM doctor_assistants other WHERE other.assistant_id = mine.assistant_id AND other.doctor_id <> ${doctorId})`);
  return rows.rows.map((row) => row.assistant_id);
}

export async function removeDoctorLinks(tx: TenantTransaction, userId: string, side: 'assistant' | 'doctor'): Promise<void> {
  await tx.delete(doctorAssistants).where(eq(side === 'assistant' ? doctorAssistants.assistantId : doctorAssistants.doctorId, userId));
}

// Centers, scopes, admins -------------------------------------------------------------------------

export async function findCenter(tx: TenantTransaction, id: string) {
  const rows = await tx.select({ id: healthCenters.id, name: healthCenters.name, scopeId: healthCenters.scopeId }).from(healthCenters).where(eq(healthCenters.id, id)).limit(1);
  return rows[0];
}

export async function findScope(tx: TenantTransaction, id: string) {
  const rows = await tx.select({ id: scopes.id, name: scopes.name }).from(scopes).where(eq(scopes.id, id)).limit(1);
  return rows[0];
}

/** Health centers the user administers, with the kind (MAIN or SUPPORT). */
export async function centerAdminRoles(tx: TenantTransaction, userId: string) {
  return tx
    .select({ centerId: centerAdmins.centerId, kind: centerAdmins.kind, centerName: healthCenters.name })
    .from(centerAdmins)
    .innerJoin(healthCenters, and(eq(healthCenters.tenantId, centerAdmins.tenantId), eq(healthCenters.id, centerAdmins.centerId)))
    .where(eq(centerAdmins.userId, userId))
    .orderBy(asc(healthCenters.name));
}

/** Centers whose MAIN admin the user is (of the centers the transaction may see). */
export async function mainAdminCenters(tx: TenantTransaction, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ centerId: centerAdmins.centerId })
    .from(centerAdmins)
    .where(and(eq(centerAdmins.userId, userId), eq(centerAdmins.kind, 'MAIN')));
  return rows.map((row) => row.centerId);
}

/** The user's extra levels with the names of their custom role, scope and center. */
export async function levelsOf(tx: TenantTransaction, userId: string) {
  return tx
    .select({ level: userLevels, customRoleName: roles.name, scopeName: scopes.name, centerName: healthCenters.name })
    .from(userLevels)
    .leftJoin(roles, and(eq(roles.tenantId, userLevels.tenantId), eq(roles.id, userLevels.customRoleId)))
    .leftJoin(scopes, and(eq(scopes.tenantId, userLevels.tenantId), eq(scopes.id, userLevels.scopeId)))
    .leftJoin(healthCenters, and(eq(healthCenters.tenantId, userLevels.tenantId), eq(healthCenters.id, userLevels.healthCenterId)))
    .where(eq(userLevels.userId, userId))
    .orderBy(asc(userLevels.createdAt), asc(userLevels.id));
}

// Platform staff's tenants ------------------------------------------------------------------------
// platform_staff_tenants is control plane, like the platform tenant's users it describes: both live
// in the platform database, so these run in the platform tenant's transaction and commit with it.

export async function tenantsOfStaff(tx: TenantTransaction | SystemStore, userIds: string[]) {
  if (userIds.length === 0) return [];
  return tx
    .select({ ownerId: platformStaffTenants.userId, id: tenants.id, code: tenants.code, name: tenants.name })
    .from(platformStaffTenants)
    .innerJoin(tenants, eq(tenants.id, platformStaffTenants.tenantId))
    .where(inArray(platformStaffTenants.userId, userIds))
    .orderBy(asc(tenants.name));
}

/** Which of the ids are active customer tenants (the platform tenant is never assigned). */
export async function findAssignableTenantIds(tx: TenantTransaction | SystemStore, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: tenants.id })
    .from(tenants)
    .where(and(inArray(tenants.id, ids), eq(tenants.status, 'ACTIVE'), eq(tenants.isPlatform, false)));
  return rows.map((row) => row.id);
}

/** Sets a system admin's tenants; returns the ones taken away. */
export async function replaceStaffTenants(tx: TenantTransaction, userId: string, tenantIds: string[]): Promise<string[]> {
  const removed = await tx
    .delete(platformStaffTenants)
    .where(and(eq(platformStaffTenants.userId, userId), tenantIds.length > 0 ? notInArray(platformStaffTenants.tenantId, tenantIds) : undefined))
    .returning({ tenantId: platformStaffTenants.tenantId });
  if (tenantIds.length > 0) {
    await tx
      .insert(platformStaffTenants)
      .values(tenantIds.map((tenantId) => ({ userId, tenantId })))
      .onConflictDoNothing();
  }
  return removed.map((row) => row.tenantId);
}

// The re-enable job -------------------------------------------------------------------------------

/** Tenants whose accounts the job looks at: every active one, the platform tenant included. */
export async function activeTenantIds(system: SystemStore): Promise<string[]> {
  const rows = await system.select({ id: tenants.id }).from(tenants).where(eq(tenants.status, 'ACTIVE')).orderBy(asc(tenants.id));
  return rows.map((row) => row.id);
}

/**
 * Turns temporary disables that have run out back to ACTIVE and returns who and until when. Rows
 * another process is handling are skipped (SKIP LOCKED), so two servers never audit one twice.
 */
export async function reenableDue(tx: TenantTransaction, now: Date): Promise<{ id: string; disabledUntil: Date | null }[]> {
  const due = await tx
    .select({ id: users.id, disabledUntil: users.disabledUntil })
    .from(users)
    .where(and(eq(users.status, 'DISABLED'), isNotNull(users.disabledUntil), lte(users.disabledUntil, now), isNull(users.deletedAt)))
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  await tx
    .update(users)
    .set({ status: 'ACTIVE', disabledUntil: null, updatedAt: now })
    .where(inArray(users.id, due.map((row) => row.id)));
  return due;
}
