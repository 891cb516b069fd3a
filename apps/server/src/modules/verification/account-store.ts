import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { users } from '../../db/schema.js';
import type { UserRow } from '../auth/store.js';

/** The account holding an email in the transaction's tenant (emails are unique case-insensitively). */
export async function findUserByEmail(tx: TenantTransaction, email: string): Promise<UserRow | undefined> {
  const rows = await tx
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0];
}

/** Whether another account than `exceptUserId` holds the phone number. */
export async function isPhoneTaken(tx: TenantTransaction, phone: string, exceptUserId: string | null): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), exceptUserId === null ? undefined : ne(users.id, exceptUserId)))
    .limit(1);
  return rows.length > 0;
}

/** New password after a reset: also ends a lockout and its count of failures. */
export async function setPasswordAfterReset(tx: TenantTransaction, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, failedLogins: 0, lockedUntil: null, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
}

export interface RegistrationValues {
  email: string;
  phone: string | null;
  firstName: string;
  lastName: string;
  birthday: string;
  role: 'PATIENT' | 'DOCTOR';
  passwordHash: string;
  language: string;
  status: 'ACTIVE' | 'UNACTIVATED';
}

export async function insertRegisteredUser(tx: TenantTransaction, tenantId: string, values: RegistrationValues, now: Date): Promise<UserRow> {
  const [created] = await tx
    .insert(users)
    .values({ tenantId, id: uuidv7(), ...values, createdAt: now, updatedAt: now, passwordChangedAt: now })
    .returning();
  if (created === undefined) throw new Error('user insert returned no row');
  return created;
}

/**
 * Rewrites an abandoned registration (never verified) with a new one for the same email: the row
 * keeps its id, so nothing that points at it breaks.
 */
export async function replaceRegistration(tx: TenantTransaction, userId: string, values: RegistrationValues, now: Date): Promise<UserRow> {
  const [updated] = await tx
    .update(users)
    .set({ ...values, failedLogins: 0, lockedUntil: null, updatedAt: now, passwordChangedAt: now })
    .where(eq(users.id, userId))
    .returning();
  if (updated === undefined) throw new Error('registration update returned no row');
  return updated;
}

export async function activateUser(tx: TenantTransaction, userId: string, now: Date): Promise<void> {
  await tx.update(users).set({ status: 'ACTIVE', updatedAt: now }).where(eq(users.id, userId));
}
