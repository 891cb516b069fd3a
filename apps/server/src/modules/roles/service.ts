import {
  DEFAULT_ROLE_PERMISSIONS,
  PERMISSIONS,
  PLATFORM_ROLES,
  ROLE_CODES,
  type AssignableUser,
  type CustomRole,
  type Permission,
  type RoleCode,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { asRole } from '../auth/sessions.js';
import { revokeUserSessions } from '../auth/store.js';
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

/** A role's author may only grant what they hold themselves (no privilege escalation). */
function assertCanGrant(auth: AuthContext, permissions: readonly Permission[]) {
  if (permissions.some((permission) => !auth.permissions.has(permission))) throw new AppError('role.cannotGrant');
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

export async function createCustomRole(environment: RoleEnvironment, input: RoleInput): Promise<CustomRole> {
  assertTenantBaseRole(input.baseRole);
  assertCanGrant(environment.auth, input.permissions);
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

/** Gives a user of the acting tenant a default or custom role; their sessions end (re-login). */
export async function assignRole(environment: RoleEnvironment, userId: string, role: string): Promise<AssignableUser> {
  const { auth, clock, database } = environment;
  const assigned = await database.withTenant(auth.tenantId, async (tx) => {
    const user = await store.findActiveUser(tx, userId);
    if (user === undefined) throw new AppError('account.notFound');
    const target = await resolveAssignment(tx, role);
    assertTenantBaseRole(target.baseRole);
    if (isPlatformRole(user.role)) throw new AppError('account.notFound');
    assertCanGrant(auth, target.permissions);
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

export async function listAssignableUsers(environment: RoleEnvironment, query: { page: number; size: number; search?: string | undefined }) {
  return environment.database.withTenant(environment.auth.tenantId, async (tx) => {
    const { items, total } = await store.searchUsers(tx, { ...query, excludeRoles: [...PLATFORM_ROLES] });
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
