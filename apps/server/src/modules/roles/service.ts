import {
  DEFAULT_ROLE_PERMISSIONS,
  grantRequiresHolding,
  PERMISSIONS,
  PLATFORM_ROLES,
  ROLE_CODES,
  rolesBelow,
  type AssignableUser,
  type CustomRole,
  type Permission,
  type RoleCode,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { asRole } from '../auth/sessions.js';
import { revokeUserSessions } from '../auth/store.js';
import { accountRoleOf, assertRankBelow, assertRankNotAbove } from './hierarchy.js';
import * as store from './store.js';

export interface RoleEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

const isPlatformRole = (role: string) => (PLATFORM_ROLES as readonly string[]).includes(role);
const isDuplicate = (error: unknown) => {
  let current: unknown = error;
  while (current instanceof Error) {
    if ('code' in current && current.code === '23505') return true;
    current = current.cause;
  }
  return false;
};

function toCustomRole(row: store.RoleRow, userCount: number): CustomRole {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    baseRole: asRole(row.baseRole),
    permissions: PERMISSIONS.filter((permission) => row.permissions.includes(permission)),
    userCount,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A role's author may only grant what they hold themselves (no privilege escalation), clinical
 * permissions apart (contracts grantRequiresHolding).
 */
function assertCanGrant(auth: AuthContext, permissions: readonly Permission[]) {
  if (permissions.some((permission) => grantRequiresHolding(permission) && !auth.permissions.has(permission)))
    throw new AppError('role.cannotGrant');
}

function assertTenantBaseRole(baseRole: RoleCode) {
  if (isPlatformRole(baseRole)) {
    throw new AppError('common.invalidParameter', {
      fieldErrors: [{ field: 'body.baseRole', code: 'invalid_value', message: 'validation.invalidValue' }],
    });
  }
}

export function listDefaultRoles() {
  return ROLE_CODES.filter((code) => !isPlatformRole(code)).map((code) => ({ code, permissions: [...DEFAULT_ROLE_PERMISSIONS[code]] }));
}

export async function listCustomRoles(environment: RoleEnvironment, query: { page: number; size: number; search?: string | undefined }) {
  return environment.database.withTenant(environment.auth.tenantId, async (tx) => {
    const { items, total } = await store.listRoles(tx, query);
    return { items: items.map((item) => toCustomRole(item.role, item.userCount)), page: query.page, size: query.size, total };
  });
}

export async function getCustomRole(environment: RoleEnvironment, id: string): Promise<CustomRole> {
  return environment.database.withTenant(environment.auth.tenantId, async (tx) => {
    const found = await store.findRole(tx, id);
    if (found === undefined) throw new AppError('role.notFound');
    return toCustomRole(found.role, found.userCount);
  });
}

export interface RoleInput {
  name: string;
  description: string;
  baseRole: RoleCode;
  permissions: Permission[];
}

/**
 * The role hierarchy for authoring roles: a new role may be based on the author's own rank, never
 * above it (it could be handed out only by someone above the author).
 */
export async function createCustomRole(environment: RoleEnvironment, input: RoleInput): Promise<CustomRole> {
  assertTenantBaseRole(input.baseRole);
  assertCanGrant(environment.auth, input.permissions);
  assertRankNotAbove(input.baseRole, environment.auth.role);
  const { auth, clock } = environment;
  try {
    return await environment.database.withTenant(auth.tenantId, async (tx) => {
      const now = clock.now();
      const role = await store.insertRole(tx, {
        tenantId: auth.tenantId,
        id: uuidv7(),
        name: input.name,
        description: input.description,
        baseRole: input.baseRole,
        permissions: [...new Set(input.permissions)],
        createdAt: now,
        updatedAt: now,
      });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PERMISSION_ROLE_CREATED',
        targetType: 'role',
        targetId: role.id,
        details: { name: role.name, baseRole: role.baseRole, permissions: role.permissions },
        at: now,
      });
      return toCustomRole(role, 0);
    });
  } catch (error) {
    if (isDuplicate(error)) throw new AppError('role.exists', { cause: error });
    throw error;
  }
}

/**
 * Changing a custom role changes what its holders may do, so the hierarchy applies as to assigning
 * it: the role must be based strictly below the caller and every holder (by their main role or an
 * extra level) must rank strictly below the caller, across the whole tenant. The new base role may
 * be the caller's own rank only while no one holds the role (otherwise it would raise its holders).
 */
async function assertMayEditRole(tx: TenantTransaction, auth: AuthContext, existing: store.RoleRow, newBaseRole: RoleCode): Promise<void> {
  assertRankBelow(asRole(existing.baseRole), auth.role);
  const holders = await store.holdersOfRole(tx, existing.id);
  for (const holder of holders) assertRankBelow(await accountRoleOf(tx, holder), auth.role);
  if (holders.length > 0) assertRankBelow(newBaseRole, auth.role);
  else assertRankNotAbove(newBaseRole, auth.role);
}

/**
 * Changes a custom role. When what it grants changes, everyone holding it must log in again
 * (spec §6: a permission change forces re-login), so their sessions end in the same step.
 */
export async function updateCustomRole(environment: RoleEnvironment, id: string, input: RoleInput): Promise<CustomRole> {
  assertTenantBaseRole(input.baseRole);
  assertCanGrant(environment.auth, input.permissions);
  const { auth, clock, database } = environment;
  try {
    const { role, affectedUsers } = await database.withTenant(auth.tenantId, async (tx) => {
      const existing = await store.findRole(tx, id);
      if (existing === undefined) throw new AppError('role.notFound');
      await assertMayEditRole(tx, auth, existing.role, input.baseRole);
      const now = clock.now();
      const permissions = [...new Set(input.permissions)];
      const isGrantChanged =
        existing.role.baseRole !== input.baseRole ||
        permissions.length !== existing.role.permissions.length ||
        permissions.some((permission) => !existing.role.permissions.includes(permission));
      const updated = await store.updateRole(tx, id, { name: input.name, description: input.description, baseRole: input.baseRole, permissions, updatedAt: now });
      if (updated === undefined) throw new AppError('role.notFound');
      const holders = await store.userIdsWithRole(tx, id);
      if (isGrantChanged) {
        for (const userId of holders) await store.setUserRole(tx, userId, input.baseRole, id, now);
      }
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'PERMISSION_ROLE_UPDATED',
        targetType: 'role',
        targetId: id,
        details: { name: updated.name, baseRole: updated.baseRole, permissions: updated.permissions, before: existing.role.permissions, sessionsEnded: isGrantChanged },
        at: now,
      });
      return { role: toCustomRole(updated, existing.userCount), affectedUsers: isGrantChanged ? holders : [] };
    });
    await revokeUserSessions(database.system, affectedUsers, 'permission_changed', clock.now());
    return role;
  } catch (error) {
    if (isDuplicate(error)) throw new AppError('role.exists', { cause: error });
    throw error;
  }
}

export async function deleteCustomRole(environment: RoleEnvironment, id: string): Promise<void> {
  const { auth, clock } = environment;
  await environment.database.withTenant(auth.tenantId, async (tx) => {
    const existing = await store.findRole(tx, id);
    if (existing === undefined) throw new AppError('role.notFound');
    // A role one could not have authored is not one's to delete.
    assertRankNotAbove(asRole(existing.role.baseRole), auth.role);
    if (existing.userCount > 0) throw new AppError('role.inUse');
    await store.deleteRole(tx, id);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PERMISSION_ROLE_DELETED',
      targetType: 'role',
      targetId: id,
      details: { name: existing.role.name },
      at: clock.now(),
    });
  });
}

async function resolveAssignment(tx: TenantTransaction, role: string): Promise<{ baseRole: RoleCode; customRoleId: string | null; permissions: Permission[] }> {
  const code = ROLE_CODES.find((candidate) => candidate === role);
  if (code !== undefined) return { baseRole: code, customRoleId: null, permissions: [...DEFAULT_ROLE_PERMISSIONS[code]] };
  const found = await store.findRole(tx, role);
  if (found === undefined) throw new AppError('role.notFound');
  return {
    baseRole: asRole(found.role.baseRole),
    customRoleId: found.role.id,
    permissions: PERMISSIONS.filter((permission) => found.role.permissions.includes(permission)),
  };
}

/**
 * Gives a user of the acting tenant a default or custom role; their sessions end (re-login). The
 * user must be one the caller sees (anyone else is "not found", exactly like an unknown id), not the
 * caller, and both the role they hold (their highest level counts) and the new one must rank
 * strictly below the caller's (contracts roles.ts).
 */
export async function assignRole(environment: RoleEnvironment, userId: string, role: string): Promise<AssignableUser> {
  const { auth, clock, database } = environment;
  const assigned = await withCaller(database, auth, async (tx) => {
    const user = await store.findActiveUser(tx, userId);
    if (user === undefined || isPlatformRole(user.role)) throw new AppError('common.notFound');
    // One's own role is another admin's to change.
    if (user.id === auth.userId) throw new AppError('auth.permissionDenied');
    const target = await resolveAssignment(tx, role);
    assertTenantBaseRole(target.baseRole);
    assertCanGrant(auth, target.permissions);
    assertRankBelow(await accountRoleOf(tx, user), auth.role);
    assertRankBelow(target.baseRole, auth.role);
    const now = clock.now();
    await store.setUserRole(tx, user.id, target.baseRole, target.customRoleId, now);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'PERMISSION_ROLE_ASSIGNED',
      subjectUserId: user.id,
      targetType: 'user',
      targetId: user.id,
      details: { from: { role: user.role, customRoleId: user.customRoleId }, to: { role: target.baseRole, customRoleId: target.customRoleId } },
      at: now,
    });
    const customRole = target.customRoleId === null ? null : await store.findRole(tx, target.customRoleId);
    return {
      id: user.id,
      fullName: `${user.firstName} ${user.lastName}`.trim(),
      email: user.email,
      phone: user.phone,
      role: target.baseRole,
      customRole: customRole ? { id: customRole.role.id, name: customRole.role.name } : null,
    };
  });
  await revokeUserSessions(database.system, [userId], 'permission_changed', clock.now());
  return assigned;
}

/**
 * Users the caller may assign a role to: those they see (withCaller), other than themselves, whose
 * role and extra levels all rank strictly below the caller's.
 */
export async function listAssignableUsers(environment: RoleEnvironment, query: { page: number; size: number; search?: string | undefined }) {
  const { auth } = environment;
  const roles = rolesBelow(auth.role).filter((code) => !isPlatformRole(code));
  if (roles.length === 0) return { items: [], page: query.page, size: query.size, total: 0 };
  return withCaller(environment.database, auth, async (tx) => {
    const { items, total } = await store.searchUsers(tx, { ...query, roles, excludeUserId: auth.userId });
    return {
      items: items.map(({ user, customRoleName }): AssignableUser => ({
        id: user.id,
        fullName: `${user.firstName} ${user.lastName}`.trim(),
        email: user.email,
        phone: user.phone,
        role: asRole(user.role),
        customRole: user.customRoleId !== null && customRoleName !== null ? { id: user.customRoleId, name: customRoleName } : null,
      })),
      page: query.page,
      size: query.size,
      total,
    };
  });
}
