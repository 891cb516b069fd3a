import {
  LIMITS,
  SUB_USER_LIMIT,
  type AppProfile,
  type FollowerDataKind,
  type Relationship,
  type SubUser,
  type SubUserInput,
  type TreatedCondition,
  type VitalStatus,
} from '@rpm/contracts';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { patients } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { packageLimit } from '../packages/subscriptions.js';
import { allocatePatientCodes } from '../patients/store.js';

export interface SubUserEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

type PatientRow = typeof patients.$inferSelect;

const fullName = (row: { firstName: string; lastName: string }) => `${row.firstName} ${row.lastName}`.trim();

export function toSubUser(row: PatientRow): SubUser {
  return {
    id: row.id,
    patientCode: row.patientCode,
    firstName: row.firstName,
    lastName: row.lastName,
    gender: (row.gender as SubUser['gender']) ?? null,
    birthday: row.birthday ?? '',
    relation: (row.relation ?? 'OTHER') as Relationship,
    smoking: row.smoking ?? false,
    treatedConditions: row.treatedConditions as TreatedCondition[],
    status: row.status as VitalStatus,
    lastReadingAt: row.lastReadingAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The account's sub-users and profiles are the account's own business: a staff login has no
 * patient record (health.noPatientProfile). The profile header plays no part here.
 */
function asAccountHolder<T>(environment: SubUserEnvironment, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return withCaller(environment.database, environment.auth, work);
}

/** The active sub-users a holder account holds (as the caller's transaction sees them). */
const heldBy = (holderUserId: string) =>
  and(eq(patients.holderUserId, holderUserId), eq(patients.accountKind, 'SUB_USER'), eq(patients.accountState, 'ACTIVE'));

export function selectSubUsers(tx: TenantTransaction, holderUserId: string): Promise<PatientRow[]> {
  return tx.select().from(patients).where(heldBy(holderUserId)).orderBy(asc(patients.createdAt), asc(patients.id));
}

/** One of the caller's active sub-users, locked for the change (subUser.notFound otherwise). */
async function requireSubUser(tx: TenantTransaction, holderUserId: string, id: string): Promise<PatientRow> {
  const [row] = await tx
    .select()
    .from(patients)
    .where(and(eq(patients.id, id), heldBy(holderUserId)))
    .for('update');
  if (row === undefined) throw new AppError('subUser.notFound');
  return row;
}

const columnsOf = (input: SubUserInput) => ({
  firstName: input.firstName,
  lastName: input.lastName,
  gender: input.gender,
  birthday: input.birthday,
  relation: input.relation,
  smoking: input.smoking,
  treatedConditions: input.treatedConditions,
});

/**
 * GET /health/me/sub-users: oldest first. A read of their records and of the holder's (whose
 * relatives they are), audited naming them all.
 */
export function listSubUsers(environment: SubUserEnvironment): Promise<SubUser[]> {
  return asAccountHolder(environment, async (tx) => {
    const rows = await selectSubUsers(tx, environment.auth.userId);
    const holder = await tx.select({ id: patients.id }).from(patients).where(eq(patients.userId, environment.auth.userId));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'SUB_USERS_VIEWED',
      patientIds: [...holder.map((row) => row.id), ...rows.map((row) => row.id)],
      targetType: 'user',
      targetId: environment.auth.userId,
      details: { shown: rows.length },
    });
    return rows.map(toSubUser);
  });
}

/**
 * POST /health/me/sub-users (spec §3 Sub-user): a patient record held by the caller's account,
 * with no login of its own, in the holder's health center, numbered from the tenant's patient
 * code sequence like every patient. At most SUB_USER_LIMIT active ones (subUser.limitReached);
 * the holder's record is locked while counting, so two quick adds cannot both pass the limit.
 */
export function createSubUser(environment: SubUserEnvironment, input: SubUserInput): Promise<SubUser> {
  const { auth, clock } = environment;
  return asAccountHolder(environment, async (tx) => {
    const [holder] = await tx
      .select({ id: patients.id, healthCenterId: patients.healthCenterId })
      .from(patients)
      .where(and(eq(patients.userId, auth.userId), eq(patients.accountState, 'ACTIVE')))
      .limit(1)
      .for('update');
    if (holder === undefined) throw new AppError('health.noPatientProfile');
    const [held] = await tx.select({ total: count() }).from(patients).where(heldBy(auth.userId));
    // The package may allow fewer (package.upgradeRequired past its limit), never more.
    const limit = await packageLimit(tx, holder.id, 'subUserLimit', SUB_USER_LIMIT);
    if ((held?.total ?? 0) >= limit) throw new AppError(limit < SUB_USER_LIMIT ? 'package.upgradeRequired' : 'subUser.limitReached');
    const [patientCode] = await allocatePatientCodes(tx, auth.tenantId, 1);
    if (patientCode === undefined) throw new Error('no patient code allocated');
    const now = clock.now();
    const id = uuidv7();
    const [row] = await tx
      .insert(patients)
      .values({
        tenantId: auth.tenantId,
        id,
        patientCode,
        userId: null,
        holderUserId: auth.userId,
        accountKind: 'SUB_USER',
        healthCenterId: holder.healthCenterId,
        ...columnsOf(input),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (row === undefined) throw new Error('sub-user not stored');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'SUB_USER_CREATED',
      subjectUserId: auth.userId,
      targetType: 'patient',
      targetId: id,
      details: { patientCode, holderPatientId: holder.id, healthCenterId: holder.healthCenterId },
      at: now,
    });
    return toSubUser(row);
  });
}

/** PUT /health/me/sub-users/:id: the whole profile. Another account's: subUser.notFound. */
export function updateSubUser(environment: SubUserEnvironment, id: string, input: SubUserInput): Promise<SubUser> {
  const { auth, clock } = environment;
  return asAccountHolder(environment, async (tx) => {
    const before = await requireSubUser(tx, auth.userId, id);
    const now = clock.now();
    const changes = columnsOf(input);
    const [row] = await tx
      .update(patients)
      .set({ ...changes, updatedAt: now })
      .where(eq(patients.id, id))
      .returning();
    if (row === undefined) throw new AppError('subUser.notFound');
    const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(row[key]),
    );
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'SUB_USER_UPDATED',
      subjectUserId: auth.userId,
      targetType: 'patient',
      targetId: id,
      details: { changed },
      at: now,
    });
    return toSubUser(row);
  });
}

/**
 * DELETE /health/me/sub-users/:id: deleted the way a patient account is (spec §4, §9): disabled at
 * once (it leaves the list and every profile) and its data purged LIMITS.accountDeletionDays
 * later by the purge job.
 */
export function deleteSubUser(environment: SubUserEnvironment, id: string): Promise<void> {
  const { auth, clock } = environment;
  return asAccountHolder(environment, async (tx) => {
    const row = await requireSubUser(tx, auth.userId, id);
    const now = clock.now();
    const purgeAfter = new Date(now.getTime() + LIMITS.accountDeletionDays * DAY);
    await tx
      .update(patients)
      .set({ accountState: 'DISABLED', deletionRequestedAt: now, purgeAfter, updatedAt: now })
      .where(eq(patients.id, id));
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'SUB_USER_DELETED',
      subjectUserId: auth.userId,
      targetType: 'patient',
      targetId: id,
      details: { patientCode: row.patientCode, purgeAfter: purgeAfter.toISOString() },
      at: now,
    });
  });
}

/**
 * GET /account/patients/:patientId/sub-users (console): the sub-users held by the patient's
 * account, as the caller sees them. A patient the caller does not see is patient.notFound; one
 * without a login of its own holds none. A read of them all, audited.
 */
export function listPatientSubUsers(environment: SubUserEnvironment, patientId: string): Promise<SubUser[]> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const [patient] = await tx
      .select({ id: patients.id, userId: patients.userId })
      .from(patients)
      .where(eq(patients.id, patientId))
      .limit(1);
    if (patient === undefined) throw new AppError('patient.notFound');
    const rows = patient.userId === null ? [] : await selectSubUsers(tx, patient.userId);
    await recordPatientReads(tx, auth.tenantId, environment.audit, {
      action: 'SUB_USERS_VIEWED',
      patientIds: [patient.id, ...rows.map((row) => row.id)],
      subjectUserId: patient.userId,
      targetId: patient.id,
      details: { shown: rows.length },
    });
    return rows.map(toSubUser);
  });
}

interface FollowedRow extends Record<string, unknown> {
  id: string;
  first_name: string;
  last_name: string;
  status: VitalStatus;
  hidden_kinds: FollowerDataKind[];
}

/**
 * GET /health/me/profiles: whose data the app can show, the account's own record first, then its
 * sub-users (oldest first), then the patients it follows (by name). What each profile may do
 * comes with it. The names and statuses of others' records are a read of them, audited.
 */
export function listProfiles(environment: SubUserEnvironment): Promise<AppProfile[]> {
  const { auth } = environment;
  return asAccountHolder(environment, async (tx) => {
    const own = await tx
      .select()
      .from(patients)
      .where(and(eq(patients.userId, auth.userId), eq(patients.accountState, 'ACTIVE'), isNull(patients.holderUserId)))
      .orderBy(asc(patients.createdAt))
      .limit(1);
    const held = await selectSubUsers(tx, auth.userId);
    // The grants made to this account (the access rule shows a patient subject only its own).
    const followed = await tx.execute<FollowedRow>(sql`
      SELECT p.id, p.first_name, p.last_name, p.status, g.hidden_kinds
        FROM follower_grants g
        JOIN patients p ON p.tenant_id = g.tenant_id AND p.id = g.patient_id
       WHERE g.follower_user_id = ${auth.userId}::uuid AND p.account_state = 'ACTIVE'
       ORDER BY p.first_name, p.last_name, p.id`);
    const profiles: AppProfile[] = [
      ...own.map((row) => ({
        patientId: row.id,
        kind: 'OWN' as const,
        name: fullName(row),
        status: row.status as VitalStatus,
        readOnly: false,
        canRaiseSos: true,
        hiddenKinds: [],
      })),
      ...held.map((row) => ({
        patientId: row.id,
        kind: 'SUB_USER' as const,
        name: fullName(row),
        status: row.status as VitalStatus,
        readOnly: false,
        canRaiseSos: false,
        hiddenKinds: [],
      })),
      ...followed.rows.map((row) => ({
        patientId: row.id,
        kind: 'FOLLOWED' as const,
        name: fullName({ firstName: row.first_name, lastName: row.last_name }),
        status: row.status,
        readOnly: true,
        canRaiseSos: false,
        hiddenKinds: row.hidden_kinds,
      })),
    ];
    await recordPatientReads(tx, auth.tenantId, environment.audit, {
      action: 'APP_PROFILES_VIEWED',
      patientIds: profiles.map((profile) => profile.patientId),
      targetType: 'user',
      targetId: auth.userId,
      details: { shown: profiles.length },
    });
    return profiles;
  });
}
