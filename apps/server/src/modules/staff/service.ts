import { CREATABLE_PLATFORM_ROLES, type StaffCreate, type StaffDetail } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { assertAcceptablePassword, passwordRuleOf } from '../auth/password-policy.js';
import { hashPassword } from '../auth/passwords.js';
import { accountRoleOf, assertRankBelow } from '../roles/hierarchy.js';
import * as roles from '../roles/service.js';
import { findPlatformTenant, findTenantById } from '../tenants/store.js';
import { detailOf } from './detail.js';
import { checkPlacement, invalidField, isPlatformRole, isSuperRole, resolveRole } from './placement.js';
import * as store from './store.js';

export interface StaffEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

export interface StaffTarget {
  tx: TenantTransaction;
  row: store.StaffRow;
  /** The tenant holding the account (the platform tenant for platform staff). */
  tenantId: string;
  isPlatform: boolean;
}

/**
 * Runs `work` on a staff account the caller may reach, inside that account's tenant: an account of
 * the acting tenant within the caller's visibility (withCaller), or, for platform staff, a platform
 * staff account. Anything else, patients included, is "not found": the same answer as for an id
 * that does not exist, so ids of other tenants and other centers cannot be probed. With `change`
 * the row stays locked until the work is done.
 */
export async function withStaffTarget<T>(
  environment: StaffEnvironment,
  id: string,
  intent: 'read' | 'change',
  work: (target: StaffTarget) => Promise<T>,
): Promise<T> {
  const { database, auth } = environment;
  const lock = intent === 'change';
  const own = await withCaller(database, auth, async (tx) => {
    const row = await store.findStaff(tx, id, { lock });
    if (row === undefined) return undefined;
    const target: StaffTarget = { tx, row, tenantId: auth.tenantId, isPlatform: isPlatformRole(row.user.role) };
    if (lock) await assertMayChange(auth, target);
    return { value: await work(target) };
  });
  if (own !== undefined) return own.value;
  if (!isPlatformRole(auth.role)) throw new AppError('account.notFound');
  const platform = await findPlatformTenant(database.system);
  if (platform.id === auth.tenantId) throw new AppError('account.notFound');
  // Platform staff's own accounts: reached by platform staff only (checked above), never by a
  // customer tenant's caller view, so the platform tenant is entered directly.
  return database.withTenant(platform.id, async (tx) => {
    const row = await store.findStaff(tx, id, { lock });
    if (row === undefined || !isPlatformRole(row.user.role)) throw new AppError('account.notFound');
    const target: StaffTarget = { tx, row, tenantId: platform.id, isPlatform: true };
    if (lock) await assertMayChange(auth, target);
    return work(target);
  });
}

/**
 * Platform staff accounts are changed by ROOT and SUPER_ADMIN only; a ROOT account by ROOT only.
 * Any other account than one's own must rank strictly below the caller (its highest level counts):
 * no one disables, edits or re-places an admin at or above their own rank. One's own account is
 * left to each change's rules (no disabling oneself, no changing one's own role or place).
 */
async function assertMayChange(auth: AuthContext, target: StaffTarget): Promise<void> {
  if (target.isPlatform && (!isSuperRole(auth.role) || (target.row.user.role === 'ROOT' && auth.role !== 'ROOT'))) throw new AppError('auth.permissionDenied');
  if (target.row.user.id === auth.userId) return;
  assertRankBelow(await accountRoleOf(target.tx, target.row.user), auth.role);
}

/**
 * The role module's assignment (grant check, custom role, audit, re-login) run inside `tx`, so an
 * account and its role are written together or not at all.
 */
export async function assignRoleWithin(tx: TenantTransaction, environment: StaffEnvironment, userId: string, role: string): Promise<void> {
  const inTransaction: Database = { ...environment.database, withTenant: (_tenantId, work) => work(tx) };
  await roles.assignRole({ ...environment, database: inTransaction }, userId, role);
}

/** Email and phone are unique per tenant (unique indexes, which see past the caller's centers). */
export function contactConflictOf(error: unknown): AppError | undefined {
  let current: unknown = error;
  while (current instanceof Error) {
    if ('code' in current && current.code === '23505' && 'constraint' in current) {
      if (current.constraint === 'users_email_key') return new AppError('account.emailExists', { cause: error });
      if (current.constraint === 'users_phone_key') return new AppError('account.phoneExists', { cause: error });
    }
    current = current.cause;
  }
  return undefined;
}

export async function rethrowContactConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw contactConflictOf(error) ?? error;
  }
}

/** An assistant's doctors: at least one, each a doctor the caller can see. */
export async function checkDoctors(tx: TenantTransaction, doctorIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(doctorIds)];
  if (wanted.length === 0) throw new AppError('staff.assistantNeedsDoctor');
  const found = await store.findDoctorIds(tx, wanted);
  if (found.length !== wanted.length) throw new AppError('staff.doctorNotFound');
  return wanted;
}

/** A system admin's tenants: at least one, each an active customer tenant. */
export async function checkTenants(tx: TenantTransaction, tenantIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(tenantIds)];
  if (wanted.length === 0) throw new AppError('staff.tenantRequired');
  const found = await store.findAssignableTenantIds(tx, wanted);
  if (found.length !== wanted.length) throw new AppError('staff.couldNotAssignTenant');
  return wanted;
}

async function hashInitialPassword(database: Database, tenantId: string, password: string | undefined): Promise<string | null> {
  if (password === undefined) return null;
  assertAcceptablePassword(password, await passwordRuleOf(database.system, tenantId), 'body.password');
  return hashPassword(password);
}

/** Reads the detail of an account just written, in the same transaction. */
export async function detailAfterWrite(tx: TenantTransaction, id: string, isPlatform: boolean): Promise<StaffDetail> {
  const row = await store.findStaff(tx, id);
  if (row === undefined) throw new AppError('account.notFound');
  return detailOf(tx, row, isPlatform);
}

export function readStaff(environment: StaffEnvironment, id: string): Promise<StaffDetail> {
  return withStaffTarget(environment, id, 'read', ({ tx, row, isPlatform }) => detailOf(tx, row, isPlatform));
}

/**
 * Creates a staff account, ACTIVE at once. With a password it can log in straight away; without
 * one it has none until the person sets it through forgot password (a code to their email or phone).
 * Platform roles are created in the platform tenant, by ROOT and SUPER_ADMIN only.
 */
export async function createStaff(environment: StaffEnvironment, input: StaffCreate): Promise<StaffDetail> {
  if (input.role === null || input.role === undefined) throw new AppError('role.required');
  if (isPlatformRole(input.role)) return createPlatformStaff(environment, input);
  const { auth, database, clock } = environment;
  const acting = await findTenantById(database.system, auth.tenantId);
  // The platform tenant holds platform staff only.
  if (acting === undefined || acting.isPlatform) throw invalidField('body.role');
  if (input.tenantIds.length > 0) throw invalidField('body.tenantIds');
  const passwordHash = await hashInitialPassword(database, auth.tenantId, input.password);
  const id = uuidv7();
  const role = input.role;
  return rethrowContactConflict(
    withCaller(database, auth, async (tx) => {
      const resolved = await resolveRole(tx, role);
      const placement = await checkPlacement(tx, auth, resolved.baseRole, input);
      if (resolved.baseRole !== 'DOCTOR_ASSISTANT' && input.doctorIds.length > 0) throw invalidField('body.doctorIds');
      const doctorIds = resolved.baseRole === 'DOCTOR_ASSISTANT' ? await checkDoctors(tx, input.doctorIds) : [];
      const now = clock.now();
      await store.insertUser(tx, {
        tenantId: auth.tenantId,
        id,
        firstName: input.firstName,
        middleName: input.middleName,
        lastName: input.lastName,
        email: input.email ?? null,
        phone: input.phone ?? null,
        role: resolved.baseRole,
        healthCenterId: placement.centerId,
        scopeId: placement.scopeId,
        passwordHash,
        passwordChangedAt: passwordHash === null ? null : now,
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      });
      await assignRoleWithin(tx, environment, id, role);
      if (doctorIds.length > 0) await store.replaceVisibleDoctors(tx, auth.tenantId, id, doctorIds);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'STAFF_CREATED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { role: resolved.baseRole, customRoleId: resolved.customRoleId, ...placement, doctorIds, hasPassword: passwordHash !== null },
        at: now,
      });
      return detailAfterWrite(tx, id, false);
    }),
  );
}

async function createPlatformStaff(environment: StaffEnvironment, input: StaffCreate): Promise<StaffDetail> {
  const { auth, database, clock } = environment;
  if (!isSuperRole(auth.role)) throw new AppError('auth.permissionDenied');
  const role = CREATABLE_PLATFORM_ROLES.find((candidate) => candidate === input.role);
  if (role === undefined) throw invalidField('body.role');
  for (const field of ['centerId', 'scopeId'] as const) if (input[field]) throw invalidField(`body.${field}`);
  if (input.doctorIds.length > 0) throw invalidField('body.doctorIds');
  if (role !== 'SYSTEM_ADMIN' && input.tenantIds.length > 0) throw invalidField('body.tenantIds');
  const platform = await findPlatformTenant(database.system);
  const passwordHash = await hashInitialPassword(database, platform.id, input.password);
  const id = uuidv7();
  return rethrowContactConflict(
    database.withTenant(platform.id, async (tx) => {
      const tenantIds = role === 'SYSTEM_ADMIN' ? await checkTenants(tx, input.tenantIds) : [];
      const now = clock.now();
      await store.insertUser(tx, {
        tenantId: platform.id,
        id,
        firstName: input.firstName,
        middleName: input.middleName,
        lastName: input.lastName,
        email: input.email ?? null,
        phone: input.phone ?? null,
        role,
        passwordHash,
        passwordChangedAt: passwordHash === null ? null : now,
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      });
      await store.replaceStaffTenants(tx, id, tenantIds);
      await recordAudit(tx, platform.id, environment.audit, {
        action: 'STAFF_CREATED',
        subjectUserId: id,
        targetType: 'user',
        targetId: id,
        details: { role, tenantIds, hasPassword: passwordHash !== null, actingTenantId: auth.tenantId },
        at: now,
      });
      return detailAfterWrite(tx, id, true);
    }),
  );
}
