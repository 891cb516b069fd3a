import type { OtpPurpose } from '@rpm/contracts';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { otpChallenges } from '../../db/schema.js';

export type OtpChallengeRow = typeof otpChallenges.$inferSelect;
export type OtpChannel = 'SMS' | 'EMAIL';

/** Where a code goes and what it is for: the unit of "latest code", cooldown and guess budget. */
export interface OtpAddress {
  purpose: OtpPurpose;
  channel: OtpChannel;
  /** A lower-case email or a phone number as stored on accounts. */
  destination: string;
}

const sameAddress = (address: OtpAddress) =>
  and(
    eq(otpChallenges.purpose, address.purpose),
    eq(otpChallenges.channel, address.channel),
    eq(otpChallenges.destination, address.destination),
  );

/**
 * Serializes code issuing for one address until the transaction ends, across processes: two
 * parallel requests cannot both pass the cooldown check.
 */
export async function lockAddress(tx: TenantTransaction, tenantId: string, address: OtpAddress): Promise<void> {
  const key = `otp:${tenantId}:${address.purpose}:${address.channel}:${address.destination}`;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * The address's most recent challenge: the only one that can still be used (a new code replaces
 * the earlier ones). With `forUpdate`, parallel verifications of it wait for each other.
 */
export async function findLatestChallenge(
  tx: TenantTransaction,
  address: OtpAddress,
  options: { forUpdate: boolean },
): Promise<OtpChallengeRow | undefined> {
  const query = tx
    .select()
    .from(otpChallenges)
    .where(sameAddress(address))
    .orderBy(desc(otpChallenges.createdAt), desc(otpChallenges.id))
    .limit(1);
  const rows = options.forUpdate ? await query.for('update') : await query;
  return rows[0];
}

/** Wrong codes entered for the address since `since`, over all its challenges. */
export async function countWrongCodesSince(tx: TenantTransaction, address: OtpAddress, since: Date): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${otpChallenges.attempts}), 0)::int` })
    .from(otpChallenges)
    .where(and(sameAddress(address), gt(otpChallenges.createdAt, since)));
  return row?.total ?? 0;
}

export async function insertChallenge(tx: TenantTransaction, challenge: typeof otpChallenges.$inferInsert): Promise<void> {
  await tx.insert(otpChallenges).values(challenge);
}

/** Counts one wrong code atomically and returns the new count. */
export async function countWrongCode(tx: TenantTransaction, id: string): Promise<number> {
  const [row] = await tx
    .update(otpChallenges)
    .set({ attempts: sql`${otpChallenges.attempts} + 1` })
    .where(eq(otpChallenges.id, id))
    .returning({ attempts: otpChallenges.attempts });
  return row?.attempts ?? 0;
}

/** Marks a challenge used; false when it already was (a parallel use won). */
export async function consumeChallenge(tx: TenantTransaction, id: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(otpChallenges)
    .set({ consumedAt: now })
    .where(and(eq(otpChallenges.id, id), sql`${otpChallenges.consumedAt} IS NULL`))
    .returning({ id: otpChallenges.id });
  return rows.length > 0;
}

/** Links a used registration code to the account it created (the record that the email was proven). */
export async function attachChallengeToUser(tx: TenantTransaction, id: string, userId: string): Promise<void> {
  await tx.update(otpChallenges).set({ userId }).where(eq(otpChallenges.id, id));
}

export type RegistrationProgress = 'none' | 'codeLive' | 'abandoned' | 'verified';

/**
 * Where a self-registered account stands, read from its REGISTER challenges: `verified` once a
 * code sent to its email was used, `codeLive` while a code can still be used, `abandoned` when
 * every code ran out unused, `none` for accounts that never registered themselves (created by
 * staff or by a one-step registration before this record existed).
 */
export async function registrationProgressOf(
  tx: TenantTransaction,
  user: { id: string; email: string | null },
  rules: { now: Date; maxAttempts: number },
): Promise<RegistrationProgress> {
  if (user.email === null) return 'none';
  const [row] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      verified: sql<boolean>`coalesce(bool_or(${otpChallenges.consumedAt} IS NOT NULL), false)`,
      live: sql<boolean>`coalesce(bool_or(${otpChallenges.consumedAt} IS NULL AND ${otpChallenges.expiresAt} > ${rules.now} AND ${otpChallenges.attempts} < ${rules.maxAttempts}), false)`,
    })
    .from(otpChallenges)
    .where(
      and(
        eq(otpChallenges.userId, user.id),
        eq(otpChallenges.purpose, 'REGISTER'),
        eq(otpChallenges.channel, 'EMAIL'),
        eq(otpChallenges.destination, user.email.toLowerCase()),
      ),
    );
  if (row === undefined || row.total === 0) return 'none';
  if (row.verified) return 'verified';
  return row.live ? 'codeLive' : 'abandoned';
}
