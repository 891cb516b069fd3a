import { and, asc, count, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { roles, userLevels, users } from '../../db/schema.js';

export type RoleRow = typeof roles.$inferSelect;

// Written out in full: Drizzle leaves columns unqualified in a one-table select, which would make
// a correlated subquery compare the inner table with itself.
const userCount = sql<number>`(SELECT count(*)::int FROM users holder
  WHERE holder.tenant_id = roles.tenant_id AND holder.custom_role_id = roles.id AND holder.deleted_at IS NULL)`;

export async function listRoles(tx: TenantTransaction, query: { page: number; size: number; search?: string | undefined }) {
  const where = query.search ? ilike(roles.name, `%${query.search.replace(/[%_\\]/g, '\\$&')}%`) : undefined;
  const [items, totals] = await Promise.all([
    tx.select({ role: roles, userCount }).from(roles).where(where).orderBy(asc(roles.name)).limit(query.size).offset(query.page * query.size),
    tx.select({ total: count() }).from(roles).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function findRole(tx: TenantTransaction, id: string) {
  const rows = await tx.select({ role: roles, userCount }).from(roles).where(eq(roles.id, id)).limit(1);
  return rows[0];
}

export async function insertRole(tx: TenantTransaction, role: typeof roles.$inferInsert): Promise<RoleRow> {
  const [created] = await tx.insert(roles).values(role).returning();
  if (!created) throw new Error('role insert returned no row');
  return created;
}

export async function updateRole(tx: TenantTransaction, id: string, changes: Partial<typeof roles.$inferInsert>) {
  const [updated] = await tx.update(roles).set(changes).where(eq(roles.id, id)).returning();
  return updated;
}

export async function deleteRole(tx: TenantTransaction, id: string): Promise<void> {
  await tx.delete(roles).where(eq(roles.id, id));
}

export async function userIdsWithRole(tx: TenantTransaction, roleId: string): Promise<string[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.customRoleId, roleId));
  return rows.map((row) => row.id);
}

/**
 * Everyone holding a custom role, as their main role or through an extra level (id and main role,
 * for the hierarchy check). Read in the transaction given: the role service reads the whole tenant.
 */
export async function holdersOfRole(tx: TenantTransaction, roleId: string): Promise<{ id: string; role: string }[]> {
  return tx
    .selectDistinct({ id: users.id, role: users.role })
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        or(eq(users.customRoleId, roleId), inArray(users.id, tx.select({ id: userLevels.userId }).from(userLevels).where(eq(userLevels.customRoleId, roleId)))),
      ),
    );
}

export async function findActiveUser(tx: TenantTransaction, id: string) {
  const rows = await tx.select().from(users).where(and(eq(users.id, id), isNull(users.deletedAt))).limit(1);
  return rows[0];
}

export async function setUserRole(tx: TenantTransaction, userId: string, role: string, customRoleId: string | null, now: Date) {
  await tx.update(users).set({ role, customRoleId, updatedAt: now }).where(eq(users.id, userId));
}

/**
 * Users holding one of `roles` (main role and every extra level), besides `excludeUserId`, searched
 * by name, email or phone. `roles` must not be empty.
 */
export async function searchUsers(
  tx: TenantTransaction,
  query: { page: number; size: number; search?: string | undefined; roles: readonly string[]; excludeUserId: string },
) {
  const allowed = sql.join(query.roles.map((role) => sql`${role}`), sql`, `);
  const conditions: SQL[] = [
    isNull(users.deletedAt),
    ne(users.id, query.excludeUserId),
    inArray(users.role, [...query.roles]),
    // Written out in full, like userCount above: the subquery must compare with the outer row.
    sql`NOT EXISTS (SELECT 1 FROM user_levels level
      WHERE level.tenant_id = users.tenant_id AND level.user_id = users.id AND level.role NOT IN (${allowed}))`,
  ];
  if (query.search) {
    const pattern = `%${query.search.replace(/[%_\\]/g, '\\$&')}%`;
    const match = or(ilike(users.email, pattern), ilike(users.phone, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern));
    if (match) conditions.push(match);
  }
  const where = and(...conditions);
  const [items, totals] = await Promise.all([
    tx
      .select({ user: users, customRoleName: roles.name })
      .from(users)
      .leftJoin(roles, and(eq(roles.tenantId, users.tenantId), eq(roles.id, users.customRoleId)))
      .where(where)
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id))
      .limit(query.size)
      .offset(query.page * query.size),
    tx.select({ total: count() }).from(users).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}
