import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { roles, sessions, users } from '../../db/schema.js';
import type { RevokeReason, UserRow } from '../auth/store.js';

export interface ProfileRow {
  user: UserRow;
  customRole: { id: string; name: string } | null;
}

/** A user with the name of their custom role, if any (deleted accounts are not found). */
export async function findProfileRow(tx: TenantTransaction, userId: string): Promise<ProfileRow | undefined> {
  const rows = await tx
    .select({ user: users, roleId: roles.id, roleName: roles.name })
    .from(users)
    .leftJoin(roles, and(eq(roles.tenantId, users.tenantId), eq(roles.id, users.customRoleId)))
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  const row = rows[0];
  if (row === undefined) return undefined;
  return { user: row.user, customRole: row.roleId !== null && row.roleName !== null ? { id: row.roleId, name: row.roleName } : null };
}

/**
 * Reads a live (not deleted) user and locks the row until the transaction ends, so concurrent
 * changes to the same account (two avatar uploads, two password changes) apply one after another.
 */
export async function lockUser(tx: TenantTransaction, userId: string): Promise<UserRow | undefined> {
  const rows = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1)
    .for('update');
  return rows[0];
}

export type UserChanges = Partial<
  Pick<
    UserRow,
    | 'firstName'
    | 'middleName'
    | 'lastName'
    | 'nickName'
    | 'gender'
    | 'birthday'
    | 'bloodType'
    | 'skinColor'
    | 'heightCm'
    | 'weightKg'
    | 'country'
    | 'province'
    | 'district'
    | 'ward'
    | 'addressLine'
    | 'medicalNotes'
    | 'language'
    | 'timeZone'
    | 'avatarFile'
  >
>;

export async function updateUser(tx: TenantTransaction, userId: string, changes: UserChanges, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function storePasswordHash(tx: TenantTransaction, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx.update(users).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(users.id, userId));
}

/** Clears the failed-login count and lock; a LOCKED status becomes ACTIVE, other states stay. */
export async function unlockUser(tx: TenantTransaction, userId: string, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({
      failedLogins: 0,
      lockedUntil: null,
      status: sql`CASE WHEN ${users.status} = 'LOCKED' THEN 'ACTIVE' ELSE ${users.status} END`,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
}

/**
 * Ends the user's active sessions except those of one login (its family: the access token in use
 * and the refresh rotations that follow it), e.g. every other device after a password change.
 */
export async function revokeOtherSessions(system: SystemStore, userId: string, keepFamilyId: string, reason: RevokeReason, now: Date): Promise<number> {
  const revoked = await system
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(sessions.userId, userId), ne(sessions.familyId, keepFamilyId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.length;
}
