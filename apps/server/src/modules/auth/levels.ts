import { isPatientRole, ROLE_CODES, ROLE_PLACEMENT } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { ALL_CENTERS, type CenterVisibility, type TenantTransaction } from '../../db/database.js';
import { centerAdmins, healthCenters, scopeAdmins, userLevels } from '../../db/schema.js';
import type { UserRow } from './store.js';

/** The level a session acts at: a role, and where (tenant-wide, one scope subtree, one center). */
export interface ActiveLevel {
  levelId: string | null;
  role: string;
  customRoleId: string | null;
  scopeId: string | null;
  centerId: string | null;
}

type LevelUser = Pick<UserRow, 'id' | 'role' | 'customRoleId' | 'scopeId' | 'healthCenterId'>;

/** The level a user's own row gives them. */
export const mainLevelOf = (user: LevelUser): ActiveLevel => ({
  levelId: null,
  role: user.role,
  customRoleId: user.customRoleId,
  scopeId: user.scopeId,
  centerId: user.healthCenterId,
});

/** The user's main level, or one of their extra levels (user_levels). */
export async function levelOf(tx: TenantTransaction, user: LevelUser, levelId: string | null): Promise<ActiveLevel | undefined> {
  if (levelId === null) return mainLevelOf(user);
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

/** Centers a user administers (center_admins) and the centers below the scopes they administer. */
async function administeredCenters(tx: TenantTransaction, userId: string): Promise<string[]> {
  const [centers, scopeRows] = await Promise.all([
    tx.select({ id: centerAdmins.centerId }).from(centerAdmins).where(eq(centerAdmins.userId, userId)),
    tx.select({ id: scopeAdmins.scopeId }).from(scopeAdmins).where(eq(scopeAdmins.userId, userId)),
  ]);
  const below = await Promise.all(scopeRows.map((row) => centersInScope(tx, row.id)));
  return [...centers.map((row) => row.id), ...below.flat()];
}

/**
 * Whether a level sees the whole tenant: platform staff, tenant roles (ADMIN), and roles that may
 * work tenant-wide (operators, customer care, coaches) when placed nowhere. A center or scope role
 * placed nowhere sees only what it administers, never the whole tenant by default.
 */
function isTenantWideLevel(level: ActiveLevel): boolean {
  const role = ROLE_CODES.find((code) => code === level.role);
  const placement = role === undefined ? 'none' : ROLE_PLACEMENT[role];
  if (placement === 'platform' || placement === 'tenant') return true;
  return placement === 'tenantOrCenter' && level.scopeId === null && level.centerId === null;
}

/**
 * visibilityOf's answer where it needs nothing from the database, else undefined: a patient
 * account sees its own records, wherever they are, and no center's (contracts patient-access.ts;
 * the switcher does not apply to it); a tenant-wide level the switcher did not narrow sees every
 * center.
 */
export function visibilityWithoutReads(
  level: ActiveLevel,
  narrowing: { scopeId: string | null; centerId: string | null },
  userId?: string,
): { visibility: CenterVisibility; scopeId: string | null; centerId: string | null } | undefined {
  const role = ROLE_CODES.find((code) => code === level.role);
  if (role !== undefined && isPatientRole(role)) {
    return { visibility: userId === undefined ? { centerIds: [] } : { ownRecordsOf: userId }, scopeId: null, centerId: null };
  }
  if (isTenantWideLevel(level) && narrowing.scopeId === null && narrowing.centerId === null) {
    return { visibility: ALL_CENTERS, scopeId: level.scopeId, centerId: level.centerId };
  }
  return undefined;
}

/**
 * What a caller may see, in the tenant they act in (runs in that tenant's transaction): platform
 * staff and tenant-wide levels see every center; a scope level sees the centers of its subtree; a
 * center level sees its center; the main level adds what the user administers (center and scope
 * admin records). The switcher's narrowing (one scope, one center) only ever shrinks that set.
 */
export async function visibilityOf(
  tx: TenantTransaction,
  level: ActiveLevel,
  narrowing: { scopeId: string | null; centerId: string | null },
  userId?: string,
): Promise<{ visibility: CenterVisibility; scopeId: string | null; centerId: string | null }> {
  const direct = visibilityWithoutReads(level, narrowing, userId);
  if (direct !== undefined) return direct;
  let allowed: string[] | null = null;
  if (!isTenantWideLevel(level)) {
    const own = level.centerId !== null ? [level.centerId] : level.scopeId !== null ? await centersInScope(tx, level.scopeId) : [];
    const administered = level.levelId === null && userId !== undefined ? await administeredCenters(tx, userId) : [];
    allowed = [...new Set([...own, ...administered])];
  }

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
