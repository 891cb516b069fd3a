import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { healthCenters, platformStaffTenants, scopes, sessions, tenants, userLevels } from '../../db/schema.js';
import { scopeSubtree } from '../staff/store.js';

export type LevelRow = typeof userLevels.$inferSelect;
type SessionLevel = Pick<typeof sessions.$inferInsert, 'levelId' | 'filterScopeId' | 'filterCenterId' | 'tenantId' | 'role'>;

/**
 * Moves the caller's current session to another level, narrowing or tenant. Refresh rotation
 * copies these columns, so the choice lasts the session. False when the session has ended.
 */
export async function updateSessionLevel(system: SystemStore, sessionId: string, level: SessionLevel, now: Date): Promise<boolean> {
  const updated = await system
    .update(sessions)
    .set({ ...level, lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return updated.length > 0;
}

/** The active tenants a system admin is assigned to. */
export function assignedActiveTenants(system: SystemStore, userId: string) {
  return system
    .select({ id: tenants.id, code: tenants.code, name: tenants.name })
    .from(platformStaffTenants)
    .innerJoin(tenants, eq(tenants.id, platformStaffTenants.tenantId))
    .where(and(eq(platformStaffTenants.userId, userId), eq(tenants.status, 'ACTIVE')))
    .orderBy(asc(tenants.name));
}

export interface ScopeOption {
  id: string;
  name: string;
  level: number;
  parentId: string | null;
}

export interface CenterOption {
  id: string;
  name: string;
  scopeId: string | null;
}

/** Every scope of the tenant, or only `scopeId` and the scopes below it. */
export function scopeOptions(tx: TenantTransaction, scopeId?: string): Promise<ScopeOption[]> {
  return tx
    .select({ id: scopes.id, name: scopes.name, level: scopes.level, parentId: scopes.parentId })
    .from(scopes)
    .where(scopeId === undefined ? undefined : sql`${scopes.id} IN (${scopeSubtree(scopeId)})`)
    .orderBy(asc(scopes.level), asc(scopes.name));
}

/** Every health center of the tenant, those of a scope subtree, or the listed ones. */
export function centerOptions(tx: TenantTransaction, within: { scopeId?: string; centerIds?: string[] } = {}): Promise<CenterOption[]> {
  const where =
    within.scopeId !== undefined
      ? sql`${healthCenters.scopeId} IN (${scopeSubtree(within.scopeId)})`
      : within.centerIds !== undefined
        ? inArray(healthCenters.id, within.centerIds)
        : undefined;
  return tx
    .select({ id: healthCenters.id, name: healthCenters.name, scopeId: healthCenters.scopeId })
    .from(healthCenters)
    .where(where)
    .orderBy(asc(healthCenters.name));
}

export async function findLevel(tx: TenantTransaction, userId: string, levelId: string): Promise<LevelRow | undefined> {
  const rows = await tx
    .select()
    .from(userLevels)
    .where(and(eq(userLevels.id, levelId), eq(userLevels.userId, userId)))
    .limit(1);
  return rows[0];
}

export async function insertLevel(tx: TenantTransaction, level: typeof userLevels.$inferInsert): Promise<void> {
  await tx.insert(userLevels).values(level);
}

export async function deleteLevel(tx: TenantTransaction, levelId: string): Promise<void> {
  await tx.delete(userLevels).where(eq(userLevels.id, levelId));
}
