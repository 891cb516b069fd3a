import type { ProfileKind } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';

/** The patient record a patient session's self call works on, and how the session relates to it. */
export interface ResolvedProfile {
  patientId: string;
  /** OWN: the account's record; SUB_USER: one it holds; FOLLOWED: one it follows (read only). */
  kind: ProfileKind;
}

interface ProfileRow extends Record<string, unknown> {
  id: string;
  user_id: string | null;
  holder_user_id: string | null;
  account_state: string;
}

/**
 * The one resolution of "whose record is this self call about" for a patient session, run in the
 * caller's transaction (withCaller), so the database's access rule decides what the header may
 * name: the own record, a sub-user the account holds, or a patient it follows. Anything else,
 * and a sub-user or followed patient no longer active, is profile.notFound (404). Without the
 * header, the account's own record (undefined when it has none: the caller's own "no profile"
 * error applies). The kind is returned so each service decides what the profile may do.
 */
export async function resolveProfile(
  tx: TenantTransaction,
  auth: AuthContext,
): Promise<ResolvedProfile | undefined> {
  const named = auth.profilePatientId;
  if (named === undefined) {
    // Any state: deleted accounts still read their data; writers check account_state themselves.
    const own = await tx.execute<{ id: string }>(
      sql`SELECT id FROM patients WHERE user_id = ${auth.userId}::uuid ORDER BY (account_state = 'ACTIVE') DESC, created_at LIMIT 1`,
    );
    const id = own.rows[0]?.id;
    return id === undefined ? undefined : { patientId: id, kind: 'OWN' };
  }
  const result = await tx.execute<ProfileRow>(
    sql`SELECT id, user_id, holder_user_id, account_state FROM patients WHERE id = ${named}::uuid`,
  );
  const row = result.rows[0];
  if (row === undefined) throw new AppError('profile.notFound');
  if (row.user_id === auth.userId) return { patientId: row.id, kind: 'OWN' };
  if (row.account_state !== 'ACTIVE') throw new AppError('profile.notFound');
  return { patientId: row.id, kind: row.holder_user_id === auth.userId ? 'SUB_USER' : 'FOLLOWED' };
}

/** resolveProfile for calls that need a record: an account without one is health.noPatientProfile. */
export async function requireProfile(tx: TenantTransaction, auth: AuthContext): Promise<ResolvedProfile> {
  const profile = await resolveProfile(tx, auth);
  if (profile === undefined) throw new AppError('health.noPatientProfile');
  return profile;
}

/** A change through a profile: a followed patient's record is read only (403 profile.readOnly). */
export function assertProfileWritable(profile: ResolvedProfile): void {
  if (profile.kind === 'FOLLOWED') throw new AppError('profile.readOnly');
}

/**
 * SOS from the app (the SOS button, a fall, "call followers"): the account's own record only. A
 * sub-user never raises SOS (sosCase.subUser); a followed patient's record is read only.
 */
export function assertProfileMayRaiseSos(profile: ResolvedProfile): void {
  assertProfileWritable(profile);
  if (profile.kind === 'SUB_USER') throw new AppError('sosCase.subUser');
}
