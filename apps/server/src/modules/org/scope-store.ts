import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { scopeAdmins, scopes, users } from '../../db/schema.js';

export type ScopeRow = typeof scopes.$inferSelect;

const escapeLike = (value: string) => value.replace(/[%_\\]/g, '\\$&');
const idList = (ids: readonly string[]) => sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `);

/** The columns of a user shown among admins (never the whole row: it holds the password hash). */
export const adminUserColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phone: users.phone,
  role: users.role,
};

export interface ScopeQuery {
  page: number;
  size: number;
  searchValue?: string | undefined;
  type?: string | undefined;
  parentId?: string | undefined;
  /** Only these scopes (a caller's subtree); null: every scope of the tenant. */
  within: readonly string[] | null;
}

export async function listScopes(tx: TenantTransaction, query: ScopeQuery) {
  const conditions: SQL[] = [];
  if (query.within !== null) conditions.push(query.within.length > 0 ? inArray(scopes.id, [...query.within]) : sql`false`);
  if (query.searchValue !== undefined) conditions.push(ilike(scopes.name, `%${escapeLike(query.searchValue)}%`));
  if (query.type !== undefined) conditions.push(eq(scopes.type, query.type));
  if (query.parentId !== undefined) conditions.push(eq(scopes.parentId, query.parentId));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const items = await tx.select().from(scopes).where(where).orderBy(asc(scopes.level), asc(scopes.name), asc(scopes.id)).limit(query.size).offset(query.page * query.size);
  const totals = await tx.select({ total: count() }).from(scopes).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function listAllScopes(tx: TenantTransaction): Promise<ScopeRow[]> {
  return tx.select().from(scopes).orderBy(asc(scopes.level), asc(scopes.name), asc(scopes.id));
}

export async function findScope(tx: TenantTransaction, id: string): Promise<ScopeRow | undefined> {
  const rows = await tx.select().from(scopes).where(eq(scopes.id, id)).limit(1);
  return rows[0];
}

/** The row, locked until the transaction ends (concurrent moves and deletes wait). */
export async function lockScope(tx: TenantTransaction, id: string): Promise<ScopeRow | undefined> {
  const rows = await tx.select().from(scopes).where(eq(scopes.id, id)).limit(1).for('update');
  return rows[0];
}

export async function findScopesByIds(tx: TenantTransaction, ids: readonly string[]): Promise<ScopeRow[]> {
  if (ids.length === 0) return [];
  return tx.select().from(scopes).where(inArray(scopes.id, [...ids])).orderBy(asc(scopes.level), asc(scopes.name));
}

export async function listChildren(tx: TenantTransaction, parentId: string | null): Promise<ScopeRow[]> {
  const where = parentId === null ? sql`${scopes.parentId} IS NULL` : eq(scopes.parentId, parentId);
  return tx.select().from(scopes).where(where).orderBy(asc(scopes.name), asc(scopes.id));
}

export async function insertScope(tx: TenantTransaction, row: typeof scopes.$inferInsert): Promise<ScopeRow> {
  const [created] = await tx.insert(scopes).values(row).returning();
  if (!created) throw new Error('scope insert returned no row');
  return created;
}

export async function updateScope(tx: TenantTransaction, id: string, changes: Partial<typeof scopes.$inferInsert>): Promise<ScopeRow | undefined> {
  const [updated] = await tx.update(scopes).set(changes).where(eq(scopes.id, id)).returning();
  return updated;
}

export async function deleteScope(tx: TenantTransaction, id: string): Promise<void> {
  await tx.delete(scopes).where(eq(scopes.id, id));
}

/** The scopes themselves and every scope below them. */
export async function subtreeIds(tx: TenantTransaction, rootIds: readonly string[]): Promise<string[]> {
  if (rootIds.length === 0) return [];
  const rows = await tx.execute<{ id: string }>(sql`
    WITH RECURSIVE subtree AS (
      SELECT id FROM scopes WHERE id IN (${idList(rootIds)})
      UNION
      SELECT child.id FROM scopes child JOIN subtree parent ON child.parent_id = parent.id
    )
    SELECT id FROM subtree`);
  return rows.rows.map((row) => row.id);
}

/** Ancestor ids of a scope, nearest first (its parent, then the parent's parent, ...). */
export async function ancestorIds(tx: TenantTransaction, id: string): Promise<string[]> {
  const rows = await tx.execute<{ id: string }>(sql`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, 0 AS depth FROM scopes WHERE id = ${id}::uuid
      UNION ALL
      SELECT up.id, up.parent_id, chain.depth + 1 FROM scopes up JOIN chain ON up.id = chain.parent_id WHERE chain.depth < 10
    )
    SELECT id FROM chain WHERE depth > 0 ORDER BY depth`);
  return rows.rows.map((row) => row.id);
}

/** Moves a whole subtree up or down by `delta` levels (a scope moved under another parent). */
export async function shiftLevels(tx: TenantTransaction, ids: readonly string[], delta: number, now: Date): Promise<void> {
  if (ids.length === 0 || delta === 0) return;
  await tx
    .update(scopes)
    .set({ level: sql`${scopes.level} + ${delta}`, updatedAt: now })
    .where(inArray(scopes.id, [...ids]));
}

export interface ScopeUsage {
  children: number;
  enabledChildren: number;
  centers: number;
  enabledCenters: number;
  /** scope_admins rows, users whose level is this scope, and extra levels (user_levels) on it. */
  admins: number;
}

export async function scopeUsage(tx: TenantTransaction, id: string): Promise<ScopeUsage> {
  const rows = await tx.execute<{ children: number; enabled_children: number; centers: number; enabled_centers: number; admins: number }>(sql`
    SELECT
      (SELECT count(*)::int FROM scopes WHERE parent_id = ${id}::uuid) AS children,
      (SELECT count(*)::int FROM scopes WHERE parent_id = ${id}::uuid AND enabled) AS enabled_children,
      (SELECT count(*)::int FROM health_centers WHERE scope_id = ${id}::uuid) AS centers,
      (SELECT count(*)::int FROM health_centers WHERE scope_id = ${id}::uuid AND enabled) AS enabled_centers,
      (SELECT count(*)::int FROM scope_admins WHERE scope_id = ${id}::uuid)
        + (SELECT count(*)::int FROM users WHERE scope_id = ${id}::uuid AND deleted_at IS NULL)
        + (SELECT count(*)::int FROM user_levels WHERE scope_id = ${id}::uuid) AS admins`);
  const row = rows.rows[0];
  return {
    children: row?.children ?? 0,
    enabledChildren: row?.enabled_children ?? 0,
    centers: row?.centers ?? 0,
    enabledCenters: row?.enabled_centers ?? 0,
    admins: row?.admins ?? 0,
  };
}

export async function listScopeAdmins(tx: TenantTransaction, scopeId: string, paging?: { page: number; size: number }) {
  const where = eq(scopeAdmins.scopeId, scopeId);
  const base = tx
    .select({ kind: scopeAdmins.kind, user: adminUserColumns })
    .from(scopeAdmins)
    .innerJoin(users, and(eq(users.tenantId, scopeAdmins.tenantId), eq(users.id, scopeAdmins.userId)))
    .where(where)
    .orderBy(asc(scopeAdmins.kind), asc(users.firstName), asc(users.lastName), asc(users.id));
  if (paging === undefined) {
    const items = await base;
    return { items, total: items.length };
  }
  const items = await base.limit(paging.size).offset(paging.page * paging.size);
  const totals = await tx
    .select({ total: count() })
    .from(scopeAdmins)
    .innerJoin(users, and(eq(users.tenantId, scopeAdmins.tenantId), eq(users.id, scopeAdmins.userId)))
    .where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function replaceScopeAdmins(
  tx: TenantTransaction,
  tenantId: string,
  scopeId: string,
  admins: readonly { userId: string; kind: 'ADMIN' | 'SUPPORT' }[],
): Promise<void> {
  await tx.delete(scopeAdmins).where(eq(scopeAdmins.scopeId, scopeId));
  if (admins.length === 0) return;
  await tx.insert(scopeAdmins).values(admins.map((admin) => ({ tenantId, scopeId, userId: admin.userId, kind: admin.kind })));
}

export async function scopeIdsAdministeredBy(tx: TenantTransaction, userId: string): Promise<string[]> {
  const rows = await tx.select({ scopeId: scopeAdmins.scopeId }).from(scopeAdmins).where(eq(scopeAdmins.userId, userId));
  return rows.map((row) => row.scopeId);
}
