import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { sessions, users } from '../../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;

export interface LoginCandidate {
  id: string;
  tenantId: string;
  role: string;
  firstName: string;
  lastName: string;
  status: string;
  passwordHash: string | null;
}

export async function findSessionByTokenHash(system: SystemStore, tokenHash: Buffer): Promise<SessionRow | undefined> {
  const rows = await system.select().from(sessions).where(eq(sessions.tokenHash, tokenHash)).limit(1);
  return rows[0];
}

/** Creates a session and ends the user's other active sessions of the same app (one per app). */
export async function replaceSessions(
  system: SystemStore,
  session: Omit<typeof sessions.$inferInsert, 'id'>,
): Promise<SessionRow> {
  return system.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ revokedAt: sql`now()`, revokedReason: 'replaced' })
      .where(and(eq(sessions.userId, session.userId), eq(sessions.app, session.app ?? 'console'), isNull(sessions.revokedAt)));
    const [created] = await tx.insert(sessions).values({ id: uuidv7(), ...session }).returning();
    if (!created) throw new Error('session insert returned no row');
    return created;
  });
}

export async function revokeSession(system: SystemStore, sessionId: string, reason: 'logout' | 'expired'): Promise<void> {
  await system
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function findTenantUserByLogin(tx: TenantTransaction, username: string): Promise<LoginCandidate | undefined> {
  const rows = await tx
    .select()
    .from(users)
    .where(or(sql`lower(${users.email}) = lower(${username})`, eq(users.phone, username)))
    .limit(1);
  return rows[0];
}

export async function findTenantUserById(tx: TenantTransaction, id: string) {
  const rows = await tx.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}
