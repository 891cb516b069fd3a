import { highestRole, isRoleAbove, isRoleBelow, maySetPasswordOf, type RankedRole, type RoleCode } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { userLevels } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { asRole } from '../auth/sessions.js';

/**
 * The server's use of the role hierarchy (contracts roles.ts): who may act on whom. A refusal for
 * an account the caller can see is 403 `role.rankTooHigh`; accounts the caller cannot see are
 * "not found" before any of these checks runs.
 */

/** The account (or role) must rank strictly below the caller. */
export function assertRankBelow(target: RankedRole, caller: RankedRole): void {
  if (!isRoleBelow(target, caller)) throw new AppError('role.rankTooHigh');
}

/** A role authored by the caller may be based on their own rank, never above it. */
export function assertRankNotAbove(target: RankedRole, caller: RankedRole): void {
  if (isRoleAbove(target, caller)) throw new AppError('role.rankTooHigh');
}

/** Giving an account a new password: strictly below, or a super admin's by a super admin (spec §6). */
export function assertMaySetPasswordOf(target: RankedRole, caller: RankedRole): void {
  if (!maySetPasswordOf(target, caller)) throw new AppError('role.rankTooHigh');
}

/**
 * The rank an account holds: its main role or the highest of its extra levels (it may switch to
 * any of them), so a doctor who is also a center's main admin elsewhere ranks as a main admin.
 * Levels are read in `tx`; they carry no visibility of their own.
 */
export async function accountRoleOf(tx: TenantTransaction, user: { id: string; role: string }): Promise<RoleCode> {
  const levels = await tx.select({ role: userLevels.role }).from(userLevels).where(eq(userLevels.userId, user.id));
  return highestRole(asRole(user.role), ...levels.map((level) => asRole(level.role)));
}
