import { PLATFORM_ROLES } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { ALL_CENTERS, type CenterVisibility, type TenantTransaction } from '../../db/database.js';
import { healthCenters, userLevels } from '../../db/schema.js';
import type { UserRow } from './store.js';

/** The level a session acts at: a role, and where (tenant-wide, one scope subtree, one center). */
export interface ActiveLevel {
  levelId: string | null;
  role: string;
  customRoleId: string | null;
  scopeId: string | null;
  centerId: string | null;
}

/** The user's main level, or one of their extra levels (user_levels). */
export async function levelOf(tx: TenantTransaction, user: UserRow, levelId: string | null): Promise<ActiveLevel | undefined> {
  const main: ActiveLevel = { levelId: null, role: user.role, customRoleId: user.customRoleId, scopeId: user.scopeId, centerId: user.healthCenterId };
  if (levelId === null) return main;
  const rows = await tx.select().from(userLevels).where(and(eq(userLevels.id, levelId), eq(userLevels.userId, user.id))).limit(1);
  const level = rows[0];
  return level && { levelId: level.id, role: level.role, customRoleId: level.customRoleId, scopeId: level.scopeId, centerId: level.healthCenterId };
}

/** Centers inside a scope and every scope below it. */
export async function centersInScope(tx: TenantTransaction, scopeId: string): Promise<string[]> {
  const rows = await tx.execute<{ id: string }>(sql`
    WITH RECURSIVE subtree AS (
      SELECT id FROM scopes WHERE id = ${scopeId}
      UNION ALL
      SELECT child.id FROM scopes child JOIN subtree parent ON child.parent_id = parent.id
    )
    SELECT id FROM health_centers WHERE scope_id IN (SELECT id FROM subtree)`);
  return rows.rows.map((row) => row.id);
}

async function centerExists(tx: TenantTransaction, centerId: string): Promise<boolean> {
  const rows = await tx.select({ id: healthCenters.id }).from(healthCenters).where(eq(healthCenters.id, centerId)).limit(1);
  return rows.length > 0;
}

/**
 * What a caller may see, in the tenant they act in (runs in that tenant's transaction): platform
 * staff and tenant-wide levels see every center; a scope level sees the centers of its subtree; a
 * center level sees its center. The switcher's narrowing (one scope, one center) only ever
 * shrinks that set.
 */
export async function visibilityOf(
  tx: TenantTransaction,
  level: ActiveLevel,
  narrowing: { scopeId: string | null; centerId: string | null },
): Promise<{ visibility: CenterVisibility; scopeId: string | null; centerId: string | null }> {
  const isTenantWide = (PLATFORM_ROLES as readonly string[]).includes(level.role) || (level.scopeId === null && level.centerId === null);
  let allowed: string[] | null;
  if (isTenantWide) allowed = null;
  else if (level.centerId !== null) allowed = [level.centerId];
  else allowed = await centersInScope(tx, level.scopeId ?? '');

  let scopeId = level.scopeId;
  let centerId = level.centerId;
  let chosen: string[] | null = null;
  if (narrowing.centerId !== null && (await centerExists(tx, narrowing.centerId))) {
    chosen = [narrowing.centerId];
    centerId = narrowing.centerId;
  } else if (narrowing.scopeId !== null) {
    chosen = await centersInScope(tx, narrowing.scopeId);
    scopeId = narrowing.scopeId;
  }
  if (allowed === null && chosen === null) return { visibility: ALL_CENTERS, scopeId, centerId };
  const centerIds = allowed === null ? (chosen ?? []) : chosen === null ? allowed : allowed.filter((id) => chosen.includes(id));
  return { visibility: { centerIds }, scopeId, centerId };
}
