import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { loginFailuresUnknown, loginThrottle, platformStaffTenants, roles, sessions, tenants, users } from '../../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type RevokeReason = NonNullable<SessionRow['revokedReason']>;

/** Whether the two tenants named (a session's acting and account tenants) exist and are ACTIVE. */
const tenantsActiveSql = (tenantId: SQL, accountTenantId: SQL) => sql<boolean>`(
  EXISTS (SELECT 1 FROM ${tenants} WHERE ${tenants.id} IN (${tenantId}, ${accountTenantId}))
  AND NOT EXISTS (SELECT 1 FROM ${tenants} WHERE ${tenants.id} IN (${tenantId}, ${accountTenantId}) AND ${tenants.status} <> 'ACTIVE'))`;

/** What a request's context is built from of the account a session acts for. */
export type SessionAccount = Pick<
  UserRow,
  | 'id'
  | 'tenantId'
  | 'role'
  | 'status'
  | 'deletedAt'
  | 'firstName'
  | 'lastName'
  | 'customRoleId'
  | 'scopeId'
  | 'healthCenterId'
  | 'unitSystem'
  | 'thermalUnit'
  | 'bloodGlucoseUnit'
  | 'uricAcidUnit'
>;

type SessionAccountJson = Omit<SessionAccount, 'deletedAt'> & { deletedAt: string | null };

/**
 * A session by its access token, with whether its tenants are ACTIVE and its account as the
 * platform database holds it (migration 0068's app_session_account: the row read under row level
 * security in the account's tenant; null when there is none here): the reads every request starts
 * with, in one statement. The account is only the account's where its tenant's data lives in this
 * database (contextOf decides).
 */
export async function findSessionAndTenantsByTokenHash(
  system: SystemStore,
  tokenHash: Buffer,
): Promise<{ session: SessionRow; tenantsActive: boolean; account: SessionAccount | null } | undefined> {
  const rows = await system
    .select({
      session: sessions,
      tenantsActive: tenantsActiveSql(sql`${sessions.tenantId}`, sql`${sessions.accountTenantId}`),
      account: sql<SessionAccountJson | null>`app_session_account(${sessions.id})`,
    })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  const found = rows[0];
  if (found === undefined) return undefined;
  const { account } = found;
  return {
    session: found.session,
    tenantsActive: found.tenantsActive,
    account: account === null ? null : { ...account, deletedAt: account.deletedAt === null ? null : new Date(account.deletedAt) },
  };
}

/** Whether a session's tenants are ACTIVE, for a session already in hand (issued or refreshed). */
export async function sessionTenantsActive(system: SystemStore, session: Pick<SessionRow, 'tenantId' | 'accountTenantId'>): Promise<boolean> {
  const rows = await system.execute<{ active: boolean }>(
    sql`SELECT ${tenantsActiveSql(sql`${session.tenantId}::uuid`, sql`${session.accountTenantId}::uuid`)} AS active`,
  );
  return rows.rows[0]?.active === true;
}

export async function findSessionByRefreshHash(system: SystemStore, refreshHash: Buffer): Promise<SessionRow | undefined> {
  const rows = await system.select().from(sessions).where(eq(sessions.refreshHash, refreshHash)).limit(1);
  return rows[0];
}

type NewSession = Omit<typeof sessions.$inferInsert, 'id' | 'familyId'> & { familyId?: string };

/** Creates a session and ends the user's other active sessions of the same app (one per app). */
export async function replaceSessions(system: SystemStore, session: NewSession, now: Date): Promise<SessionRow> {
  return system.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ revokedAt: now, revokedReason: 'replaced' })
      .where(and(eq(sessions.userId, session.userId), eq(sessions.app, session.app ?? 'console'), isNull(sessions.revokedAt)));
    const id = uuidv7();
    const [created] = await tx.insert(sessions).values({ id, familyId: id, createdAt: now, lastSeenAt: now, ...session }).returning();
    if (!created) throw new Error('session insert returned no row');
    return created;
  });
}

/**
 * Rotates a refresh token: the presented row is retired and a new row of the same family is
 * created, atomically. Returns undefined when the row was already retired (a concurrent or
 * repeated use of the same refresh token).
 */
export async function rotateSession(
  system: SystemStore,
  previous: SessionRow,
  next: Pick<SessionRow, 'tokenHash' | 'refreshHash' | 'expiresAt'>,
  now: Date,
): Promise<SessionRow | undefined> {
  return system.transaction(async (tx) => {
    const retired = await tx
      .update(sessions)
      .set({ revokedAt: now, revokedReason: 'rotated' })
      .where(and(eq(sessions.id, previous.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (retired.length === 0) return undefined;
    const [created] = await tx
      .insert(sessions)
      .values({
        id: uuidv7(),
        familyId: previous.familyId,
        userId: previous.userId,
        accountTenantId: previous.accountTenantId,
        tenantId: previous.tenantId,
        role: previous.role,
        app: previous.app,
        rememberMe: previous.rememberMe,
        refreshExpiresAt: previous.refreshExpiresAt,
        levelId: previous.levelId,
        filterScopeId: previous.filterScopeId,
        filterCenterId: previous.filterCenterId,
        createdAt: now,
        lastSeenAt: now,
        ...next,
      })
      .returning();
    return created;
  });
}

export async function revokeSession(system: SystemStore, sessionId: string, reason: RevokeReason, now: Date): Promise<void> {
  await system
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeFamily(system: SystemStore, familyId: string, reason: RevokeReason, now: Date): Promise<void> {
  await system
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)));
}

/** Ends every active session of the given users (role change, disable, lock, delete…). */
export async function revokeUserSessions(system: SystemStore, userIds: string[], reason: RevokeReason, now: Date): Promise<number> {
  if (userIds.length === 0) return 0;
  const revoked = await system
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(inArray(sessions.userId, userIds), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length;
}

export async function findUserByLogin(tx: TenantTransaction, username: string): Promise<UserRow | undefined> {
  const rows = await tx
    .select()
    .from(users)
    .where(and(or(sql`lower(${users.email}) = lower(${username})`, eq(users.phone, username)), isNull(users.deletedAt)))
    .limit(1);
  return rows[0];
}

export async function findUserById(tx: TenantTransaction, id: string): Promise<UserRow | undefined> {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

export async function findCustomRolePermissions(tx: TenantTransaction, roleId: string): Promise<string[] | undefined> {
  const rows = await tx.select({ permissions: roles.permissions }).from(roles).where(eq(roles.id, roleId)).limit(1);
  return rows[0]?.permissions;
}

/**
 * Counts one failed password atomically (parallel attempts cannot slip past the limit). A lock
 * that has run out starts a new count. Returns the count and the lock, if this failure set one.
 */
export async function recordFailedLogin(
  tx: TenantTransaction,
  userId: string,
  now: Date,
  options: { limit: number; lockMilliseconds: number },
): Promise<{ failedLogins: number; lockedUntil: Date | null }> {
  const lockUntil = new Date(now.getTime() + options.lockMilliseconds);
  const [row] = await tx
    .update(users)
    .set({
      failedLogins: sql`CASE WHEN ${users.lockedUntil} IS NOT NULL AND ${users.lockedUntil} <= ${now} THEN 1 ELSE ${users.failedLogins} + 1 END`,
      lockedUntil: sql`CASE
        WHEN ${users.lockedUntil} IS NOT NULL AND ${users.lockedUntil} > ${now} THEN ${users.lockedUntil}
        WHEN (CASE WHEN ${users.lockedUntil} IS NOT NULL AND ${users.lockedUntil} <= ${now} THEN 1 ELSE ${users.failedLogins} + 1 END) >= ${options.limit} THEN ${lockUntil}::timestamptz
        ELSE NULL END`,
    })
    .where(eq(users.id, userId))
    .returning({ failedLogins: users.failedLogins, lockedUntil: users.lockedUntil });
  return { failedLogins: row?.failedLogins ?? 0, lockedUntil: row?.lockedUntil ?? null };
}

export type UnknownLoginRow = typeof loginFailuresUnknown.$inferSelect;

/** The failure count of a login name that matches no account, in the transaction's tenant. */
export async function findUnknownLoginFailures(tx: TenantTransaction, identifierHash: Buffer): Promise<UnknownLoginRow | undefined> {
  const rows = await tx.select().from(loginFailuresUnknown).where(eq(loginFailuresUnknown.identifierHash, identifierHash)).limit(1);
  return rows[0];
}

/**
 * recordFailedLogin for a login name that matches no account: the same count and the same lock,
 * by one atomic upsert. Rows whose lock has run out are deleted on the way (a lapsed lock counts
 * like no row: the next failure starts again at 1).
 */
export async function recordUnknownFailedLogin(
  tx: TenantTransaction,
  tenantId: string,
  identifierHash: Buffer,
  now: Date,
  options: { limit: number; lockMilliseconds: number },
): Promise<{ failedLogins: number; lockedUntil: Date | null }> {
  await tx.delete(loginFailuresUnknown).where(sql`${loginFailuresUnknown.lockedUntil} <= ${now}`);
  const lockUntil = new Date(now.getTime() + options.lockMilliseconds);
  const table = loginFailuresUnknown;
  const nextCount = sql`CASE WHEN ${table.lockedUntil} IS NOT NULL AND ${table.lockedUntil} <= ${now} THEN 1 ELSE ${table.failedLogins} + 1 END`;
  const [row] = await tx
    .insert(table)
    .values({ tenantId, identifierHash, failedLogins: 1, lockedUntil: options.limit <= 1 ? lockUntil : null, updatedAt: now })
    .onConflictDoUpdate({
      target: [table.tenantId, table.identifierHash],
      set: {
        failedLogins: nextCount,
        lockedUntil: sql`CASE
          WHEN ${table.lockedUntil} IS NOT NULL AND ${table.lockedUntil} > ${now} THEN ${table.lockedUntil}
          WHEN (${nextCount}) >= ${options.limit} THEN ${lockUntil}::timestamptz
          ELSE NULL END`,
        updatedAt: now,
      },
    })
    .returning({ failedLogins: table.failedLogins, lockedUntil: table.lockedUntil });
  return { failedLogins: row?.failedLogins ?? 0, lockedUntil: row?.lockedUntil ?? null };
}

export async function reactivateUser(tx: TenantTransaction, userId: string, now: Date): Promise<void> {
  await tx.update(users).set({ status: 'ACTIVE', disabledUntil: null, updatedAt: now }).where(and(eq(users.id, userId), eq(users.status, 'DISABLED')));
}

export async function clearFailedLogins(tx: TenantTransaction, userId: string): Promise<void> {
  await tx.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, userId));
}

/** Failures from one address within the window (shared by every server process). */
export async function countThrottleFailure(system: SystemStore, key: string, now: Date, windowMilliseconds: number): Promise<number> {
  const windowStart = new Date(now.getTime() - windowMilliseconds);
  const [row] = await system
    .insert(loginThrottle)
    .values({ key, windowStartedAt: now, failures: 1 })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`CASE WHEN ${loginThrottle.windowStartedAt} < ${windowStart} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${loginThrottle.windowStartedAt} < ${windowStart} THEN ${now}::timestamptz ELSE ${loginThrottle.windowStartedAt} END`,
      },
    })
    .returning({ failures: loginThrottle.failures });
  return row?.failures ?? 0;
}

export async function readThrottle(system: SystemStore, key: string, now: Date, windowMilliseconds: number): Promise<number> {
  const rows = await system.select().from(loginThrottle).where(eq(loginThrottle.key, key)).limit(1);
  const row = rows[0];
  if (!row || row.windowStartedAt.getTime() < now.getTime() - windowMilliseconds) return 0;
  return row.failures;
}

/** Whether a system admin serves a tenant (platform_staff_tenants). */
export async function isAssignedToTenant(system: SystemStore, userId: string, tenantId: string): Promise<boolean> {
  const rows = await system
    .select({ userId: platformStaffTenants.userId })
    .from(platformStaffTenants)
    .where(and(eq(platformStaffTenants.userId, userId), eq(platformStaffTenants.tenantId, tenantId)))
    .limit(1);
  return rows.length > 0;
}
