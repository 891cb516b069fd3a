import { and, asc, count, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { healthCenters, users } from '../../db/schema.js';

/**
 * Doctors waiting for an admin (spec §4, §5), read from where the account features record them:
 * a registration is a DOCTOR account left UNACTIVATED after its email was proven (a consumed
 * REGISTER code); a deactivation request is users.deactivation_requested_at (migration 0003).
 */

const registrationWaiting = sql`(${users.status} = 'UNACTIVATED' AND EXISTS (
  SELECT 1 FROM otp_challenges code WHERE code.tenant_id = ${users.tenantId} AND code.user_id = ${users.id}
    AND code.purpose = 'REGISTER' AND code.consumed_at IS NOT NULL))`;
const deactivationWaiting = and(isNotNull(users.deactivationRequestedAt), eq(users.status, 'ACTIVE'));

export const kindSql = sql<
  'REGISTRATION' | 'DEACTIVATION'
>`CASE WHEN ${registrationWaiting} THEN 'REGISTRATION' ELSE 'DEACTIVATION' END`;

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

function conditionsOf(filter: { kind?: string | undefined; search?: string | undefined }): SQL | undefined {
  const waiting =
    filter.kind === 'REGISTRATION'
      ? registrationWaiting
      : filter.kind === 'DEACTIVATION'
        ? deactivationWaiting
        : or(registrationWaiting, deactivationWaiting);
  const conditions: (SQL | undefined)[] = [eq(users.role, 'DOCTOR'), isNull(users.deletedAt), waiting];
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(users.email, pattern),
        ilike(users.phone, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    );
  }
  return and(...conditions);
}

function selectWaiting(tx: TenantTransaction) {
  return tx
    .select({ user: users, centerName: healthCenters.name, kind: kindSql })
    .from(users)
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, users.tenantId), eq(healthCenters.id, users.healthCenterId)),
    );
}
export type WaitingDoctorRow = Awaited<ReturnType<ReturnType<typeof selectWaiting>['execute']>>[number];

export async function listWaitingDoctors(
  tx: TenantTransaction,
  filter: { kind?: string | undefined; search?: string | undefined; page: number; size: number },
) {
  const where = conditionsOf(filter);
  const items = await selectWaiting(tx)
    .where(where)
    .orderBy(asc(sql`coalesce(${users.deactivationRequestedAt}, ${users.createdAt})`), asc(users.id))
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const totals = await tx.select({ total: count() }).from(users).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A waiting doctor the transaction may see, locked for the decision. */
export async function findWaitingDoctor(
  tx: TenantTransaction,
  id: string,
): Promise<WaitingDoctorRow | undefined> {
  const where = and(eq(users.id, id), conditionsOf({}));
  const locked = await tx.select({ id: users.id }).from(users).where(where).for('update');
  if (locked.length === 0) return undefined;
  const rows = await selectWaiting(tx).where(where).limit(1);
  return rows[0];
}

export async function updateDoctorAccount(
  tx: TenantTransaction,
  id: string,
  changes: Partial<typeof users.$inferInsert>,
  now: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, id));
}

export async function findCenter(tx: TenantTransaction, id: string) {
  const rows = await tx
    .select({ id: healthCenters.id })
    .from(healthCenters)
    .where(eq(healthCenters.id, id))
    .limit(1);
  return rows[0];
}

// Deactivated doctors -----------------------------------------------------------------------------

/** users.deactivated_at (migration 0029): set by the database when the status becomes DISABLED. */
const deactivatedAtSql = sql<Date | null>`${users}.deactivated_at`.mapWith((value: string | Date | null) =>
  value === null ? null : new Date(value),
);
const isDeactivatedDoctor = and(
  eq(users.role, 'DOCTOR'),
  isNull(users.deletedAt),
  eq(users.status, 'DISABLED'),
);

function selectDeactivated(tx: TenantTransaction) {
  return tx
    .select({ user: users, centerName: healthCenters.name, deactivatedAt: deactivatedAtSql })
    .from(users)
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, users.tenantId), eq(healthCenters.id, users.healthCenterId)),
    );
}
export type DeactivatedDoctorRow = Awaited<
  ReturnType<ReturnType<typeof selectDeactivated>['execute']>
>[number];

/** Deactivated doctors the transaction may see, the most recently deactivated first. */
export async function listDeactivatedDoctors(
  tx: TenantTransaction,
  filter: { search?: string | undefined; page: number; size: number },
) {
  const conditions: (SQL | undefined)[] = [isDeactivatedDoctor];
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(users.email, pattern),
        ilike(users.phone, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const items = await selectDeactivated(tx)
    .where(where)
    .orderBy(sql`${deactivatedAtSql} DESC NULLS LAST`, asc(users.id))
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const totals = await tx.select({ total: count() }).from(users).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** A deactivated doctor the transaction may see, locked for the restore. */
export async function findDeactivatedDoctor(tx: TenantTransaction, id: string) {
  const where = and(eq(users.id, id), eq(users.role, 'DOCTOR'), isNull(users.deletedAt));
  const locked = await tx.select({ id: users.id }).from(users).where(where).for('update');
  if (locked.length === 0) return undefined;
  const rows = await selectDeactivated(tx).where(where).limit(1);
  return rows[0];
}
