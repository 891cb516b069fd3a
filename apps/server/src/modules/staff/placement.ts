import { grantRequiresHolding, PLATFORM_ROLES, ROLE_CODES, ROLE_PLACEMENT, type RoleCode } from '@rpm/contracts';
import type { TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { asRole, permissionsOf } from '../auth/sessions.js';
import { assertRankBelow } from '../roles/hierarchy.js';
import { findRole } from '../roles/store.js';
import { findCenter, findScope } from './store.js';

export const isPlatformRole = (role: string) => (PLATFORM_ROLES as readonly string[]).includes(role);
export const isSuperRole = (role: string) => role === 'ROOT' || role === 'SUPER_ADMIN';

/** A 400 naming one field, for input the schema cannot judge alone (it depends on the role). */
export function invalidField(field: string): AppError {
  return new AppError('common.invalidParameter', { fieldErrors: [{ field, code: 'invalid_value', message: 'validation.invalidValue' }] });
}

export interface ResolvedRole {
  baseRole: RoleCode;
  customRoleId: string | null;
}

/** A default role code, or a custom role id of the tenant and the default role it is based on. */
export async function resolveRole(tx: TenantTransaction, role: string | null | undefined): Promise<ResolvedRole> {
  if (role === null || role === undefined) throw new AppError('role.required');
  const code = ROLE_CODES.find((candidate) => candidate === role);
  if (code !== undefined) return { baseRole: code, customRoleId: null };
  const found = await findRole(tx, role);
  if (found === undefined) throw new AppError('role.notFound');
  return { baseRole: asRole(found.role.baseRole), customRoleId: found.role.id };
}

export interface Placement {
  centerId: string | null;
  scopeId: string | null;
}

const seesWholeTenant = (auth: AuthContext) => 'all' in auth.visibility;

/**
 * Where a tenant role's holder works, checked against the role (ROLE_PLACEMENT) and the caller.
 * Runs in the caller's transaction, so a center the caller cannot see is simply not found. Staff
 * placed outside any center (tenant-wide roles, scope admins) can only be placed by callers who see
 * the whole tenant: anyone else could not see the account they had just made.
 */
export async function checkPlacement(
  tx: TenantTransaction,
  auth: AuthContext,
  role: RoleCode,
  requested: { centerId?: string | null | undefined; scopeId?: string | null | undefined },
): Promise<Placement> {
  const centerId = requested.centerId ?? null;
  const scopeId = requested.scopeId ?? null;
  const placement = ROLE_PLACEMENT[role];
  switch (placement) {
    case 'platform':
    case 'none':
      throw invalidField('body.role');
    case 'scope': {
      if (centerId !== null) throw invalidField('body.centerId');
      if (scopeId === null) throw new AppError('staff.scopeRequired');
      if (!seesWholeTenant(auth)) throw new AppError('auth.permissionDenied');
      if ((await findScope(tx, scopeId)) === undefined) throw new AppError('scope.notFound');
      return { centerId: null, scopeId };
    }
    case 'center':
    case 'tenant':
    case 'tenantOrCenter': {
      if (scopeId !== null) throw invalidField('body.scopeId');
      if (placement === 'tenant' && centerId !== null) throw invalidField('body.centerId');
      if (placement === 'center' && centerId === null) throw new AppError('staff.centerRequired');
      if (centerId === null) {
        if (!seesWholeTenant(auth)) throw new AppError('auth.permissionDenied');
        return { centerId: null, scopeId: null };
      }
      if ((await findCenter(tx, centerId)) === undefined) throw new AppError('center.notFound');
      return { centerId, scopeId: null };
    }
  }
}

/**
 * A level's author may only hand out what they hold themselves, and a role ranking strictly below
 * their own (the rules the role module applies to role assignments, applied here to extra levels).
 */
export async function assertCanGrantLevel(tx: TenantTransaction, auth: AuthContext, role: ResolvedRole): Promise<void> {
  const granted = await permissionsOf(tx, { role: role.baseRole, customRoleId: role.customRoleId });
  if ([...granted].some((permission) => grantRequiresHolding(permission) && !auth.permissions.has(permission)))
    throw new AppError('role.cannotGrant');
  assertRankBelow(role.baseRole, auth.role);
}
