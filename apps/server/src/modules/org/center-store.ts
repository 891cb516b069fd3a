import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { centerAdmins, healthCenters, userLevels, users } from '../../db/schema.js';
import { adminUserColumns } from './scope-store.js';

export type CenterRow = typeof healthCenters.$inferSelect;
export type CenterAdminKind = 'MAIN' | 'SUPPORT';

const escapeLike = (value: string) => value.replace(/[%_\\]/g, '\\$&');

export interface CenterQuery {
  page: number;
  size: number;
  searchValue?: string | undefined;
  /** Only centers of these scopes; undefined: any scope (or none). */
  scopeIds?: readonly string[] | undefined;
}

export async function listCenters(tx: TenantTransaction, query: CenterQuery) {
  const conditions: SQL[] = [];
  if (query.searchValue !== undefined) {
    const pattern = `%${escapeLike(query.searchValue)}%`;
    const match = or(ilike(healthCenters.name, pattern), ilike(healthCenters.address, pattern), ilike(healthCenters.email, pattern), ilike(healthCenters.phoneNumber, pattern));
    if (match) conditions.push(match);
  }
  if (query.scopeIds !== undefined) conditions.push(query.scopeIds.length > 0 ? inArray(healthCenters.scopeId, [...query.scopeIds]) : sql`false`);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const items = await tx.select().from(healthCenters).where(where).orderBy(asc(healthCenters.name), asc(healthCenters.id)).limit(query.size).offset(query.page * query.size);
  const totals = await tx.select({ total: count() }).from(healthCenters).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function findCenter(tx: TenantTransaction, id: string): Promise<CenterRow | undefined> {
  const rows = await tx.select().from(healthCenters).where(eq(healthCenters.id, id)).limit(1);
  return rows[0];
}

/** The row, locked until the transaction ends (a concurrent edit or deactivation waits). */
export async function lockCenter(tx: TenantTransaction, id: string): Promise<CenterRow | undefined> {
  const rows = await tx.select().from(healthCenters).where(eq(healthCenters.id, id)).limit(1).for('update');
  return rows[0];
}

export async function findCenterByName(tx: TenantTransaction, name: string): Promise<CenterRow | undefined> {
  const rows = await tx.select().from(healthCenters).where(sql`lower(${healthCenters.name}) = lower(${name})`).limit(1);
  return rows[0];
}

export async function findCentersByIds(tx: TenantTransaction, ids: readonly string[]): Promise<CenterRow[]> {
  if (ids.length === 0) return [];
  return tx.select().from(healthCenters).where(inArray(healthCenters.id, [...ids])).orderBy(asc(healthCenters.name), asc(healthCenters.id));
}

export async function listCentersOfScope(tx: TenantTransaction, scopeId: string): Promise<CenterRow[]> {
  return tx.select().from(healthCenters).where(eq(healthCenters.scopeId, scopeId)).orderBy(asc(healthCenters.name));
}

export async function insertCenter(tx: TenantTransaction, row: typeof healthCenters.$inferInsert): Promise<CenterRow> {
  const [created] = await tx.insert(healthCenters).values(row).returning();
  if (!created) throw new Error('health center insert returned no row');
  return created;
}

export async function updateCenter(tx: TenantTransaction, id: string, changes: Partial<typeof healthCenters.$inferInsert>): Promise<CenterRow | undefined> {
  const [updated] = await tx.update(healthCenters).set(changes).where(eq(healthCenters.id, id)).returning();
  return updated;
}

/** The admins of some centers with the user columns shown (admins the caller cannot see are left out). */
export async function listCenterAdmins(tx: TenantTransaction, centerIds: readonly string[]) {
  if (centerIds.length === 0) return [];
  return tx
    .select({ centerId: centerAdmins.centerId, kind: centerAdmins.kind, user: adminUserColumns })
    .from(centerAdmins)
    .innerJoin(users, and(eq(users.tenantId, centerAdmins.tenantId), eq(users.id, centerAdmins.userId)))
    .where(inArray(centerAdmins.centerId, [...centerIds]))
    .orderBy(asc(centerAdmins.kind), asc(users.firstName), asc(users.lastName), asc(users.id));
}

/** Replaces a center's admins. The MAIN row is written first, so the center is never without one. */
export async function replaceCenterAdmins(tx: TenantTransaction, tenantId: string, centerId: string, mainAdminId: string, supportAdminIds: readonly string[]) {
  await tx.delete(centerAdmins).where(eq(centerAdmins.centerId, centerId));
  await tx.insert(centerAdmins).values([
    { tenantId, centerId, userId: mainAdminId, kind: 'MAIN' },
    ...supportAdminIds.map((userId) => ({ tenantId, centerId, userId, kind: 'SUPPORT' })),
  ]);
}

export async function centerAdminRowsOf(tx: TenantTransaction, centerId: string) {
  return tx.select({ userId: centerAdmins.userId, kind: centerAdmins.kind }).from(centerAdmins).where(eq(centerAdmins.centerId, centerId));
}

/** The centers a user administers (only those the transaction may see). */
export async function centersAdministeredBy(tx: TenantTransaction, userId: string): Promise<{ centerId: string; kind: CenterAdminKind }[]> {
  const rows = await tx.select({ centerId: centerAdmins.centerId, kind: centerAdmins.kind }).from(centerAdmins).where(eq(centerAdmins.userId, userId));
  return rows.map((row) => ({ centerId: row.centerId, kind: row.kind === 'MAIN' ? 'MAIN' : 'SUPPORT' }));
}

/** Staff (users whose level is the center, not deleted) and patients of one center. */
export async function centerUsage(tx: TenantTransaction, id: string): Promise<{ staff: number; patients: number }> {
  const rows = await tx.execute<{ staff: number; patients: number }>(sql`
    SELECT
      (SELECT count(*)::int FROM users WHERE health_center_id = ${id}::uuid AND deleted_at IS NULL AND role <> 'PATIENT') AS staff,
      (SELECT count(*)::int FROM patients WHERE health_center_id = ${id}::uuid) AS patients`);
  return { staff: rows.rows[0]?.staff ?? 0, patients: rows.rows[0]?.patients ?? 0 };
}

/** Active, not deleted users of the tenant among `ids`. */
export async function findActiveUsers(tx: TenantTransaction, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return tx
    .select(adminUserColumns)
    .from(users)
    .where(and(inArray(users.id, [...ids]), isNull(users.deletedAt), eq(users.status, 'ACTIVE')));
}

/** The caller's own centers: their main level's, their extra levels', and those they administer. */
export async function centerIdsOfUser(tx: TenantTransaction, userId: string): Promise<string[]> {
  const own = await tx.select({ centerId: users.healthCenterId }).from(users).where(eq(users.id, userId));
  const levels = await tx.select({ centerId: userLevels.healthCenterId }).from(userLevels).where(eq(userLevels.userId, userId));
  const administered = await tx.select({ centerId: centerAdmins.centerId }).from(centerAdmins).where(eq(centerAdmins.userId, userId));
  const patientOf = await tx.execute<{ center_id: string | null }>(sql`SELECT health_center_id AS center_id FROM patients WHERE user_id = ${userId}::uuid`);
  const ids = [
    ...own.map((row) => row.centerId),
    ...levels.map((row) => row.centerId),
    ...administered.map((row) => row.centerId),
    ...patientOf.rows.map((row) => row.center_id),
  ].filter((id): id is string => id !== null);
  return [...new Set(ids)];
}
