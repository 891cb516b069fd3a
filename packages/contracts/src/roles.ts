/**
 * Roles of spec §6. Platform roles live in the control plane (they span tenants); every other
 * role belongs to one tenant. `area` is the console path prefix of spec §2.
 */
export const ROLE_DEFINITIONS = {
  ROOT: { plane: 'platform', area: 'root' },
  SUPER_ADMIN: { plane: 'platform', area: 'sadmin' },
  SYSTEM_ADMIN: { plane: 'platform', area: 'admin' },
  ADMIN: { plane: 'tenant', area: 'admin' },
  MAIN_ADMIN: { plane: 'tenant', area: 'smadmin' },
  SUPPORT_ADMIN: { plane: 'tenant', area: 'smadmin' },
  SCOPE_ADMIN: { plane: 'tenant', area: 'smadmin' },
  MHSC_ADMIN: { plane: 'tenant', area: 'smadmin' },
  OPERATOR: { plane: 'tenant', area: 'operator' },
  CSKH: { plane: 'tenant', area: 'cskh' },
  DOCTOR: { plane: 'tenant', area: 'doctor' },
  DOCTOR_ASSISTANT: { plane: 'tenant', area: 'doctor-assistant' },
  COACH: { plane: 'tenant', area: 'coach' },
  PATIENT: { plane: 'tenant', area: 'user' },
} as const satisfies Record<string, { plane: 'platform' | 'tenant'; area: RoleArea }>;

export type RoleArea =
  | 'sadmin'
  | 'smadmin'
  | 'doctor'
  | 'operator'
  | 'doctor-assistant'
  | 'admin'
  | 'root'
  | 'cskh'
  | 'coach'
  | 'user';

export type RoleCode = keyof typeof ROLE_DEFINITIONS;
export const ROLE_CODES = Object.keys(ROLE_DEFINITIONS) as [RoleCode, ...RoleCode[]];
export const PLATFORM_ROLES = ROLE_CODES.filter((role) => ROLE_DEFINITIONS[role].plane === 'platform');
export const TENANT_ROLES = ROLE_CODES.filter((role) => ROLE_DEFINITIONS[role].plane === 'tenant');

export function areaOfRole(role: RoleCode): RoleArea {
  return ROLE_DEFINITIONS[role].area;
}

// Role hierarchy -------------------------------------------------------------------------------

/**
 * The role hierarchy, written once for server and console: root > super admin > system admin >
 * admin > main admin > support, scope and health-center (MHSC) admins (one rank) > staff (operator,
 * customer care, doctor, doctor assistant, coach: one rank) > patient. A higher number outranks a
 * lower one; equal numbers are peers.
 */
export const ROLE_RANK = {
  ROOT: 8,
  SUPER_ADMIN: 7,
  SYSTEM_ADMIN: 6,
  ADMIN: 5,
  MAIN_ADMIN: 4,
  SUPPORT_ADMIN: 3,
  SCOPE_ADMIN: 3,
  MHSC_ADMIN: 3,
  OPERATOR: 2,
  CSKH: 2,
  DOCTOR: 2,
  DOCTOR_ASSISTANT: 2,
  COACH: 2,
  PATIENT: 1,
} as const satisfies Record<RoleCode, number>;

/** A default role, or a custom role, which ranks as the default role it is based on. */
export type RankedRole = RoleCode | { baseRole: RoleCode };

const baseOf = (role: RankedRole): RoleCode => (typeof role === 'string' ? role : role.baseRole);

/** The rank of a role in the hierarchy (a custom role: its base role's). */
export function roleRank(role: RankedRole): number {
  return ROLE_RANK[baseOf(role)];
}

/** `target` ranks strictly below `caller`: the caller may manage holders of `target`, or hand it out. */
export function isRoleBelow(target: RankedRole, caller: RankedRole): boolean {
  return roleRank(target) < roleRank(caller);
}

/** `target` ranks above `caller`: the caller may not even author a role based on it. */
export function isRoleAbove(target: RankedRole, caller: RankedRole): boolean {
  return roleRank(target) > roleRank(caller);
}

/** The highest-ranking of some roles (a person with extra levels ranks as their highest one). */
export function highestRole(first: RoleCode, ...others: readonly RoleCode[]): RoleCode {
  return others.reduce((highest, role) => (roleRank(role) > roleRank(highest) ? role : highest), first);
}

/**
 * Whether `caller` may give an account of `target` a new password. The hierarchy's rule (strictly
 * below), plus spec §6: a super admin's password is set only by a super admin or the developer
 * team (root), so a super admin may also set another super admin's.
 */
export function maySetPasswordOf(target: RankedRole, caller: RankedRole): boolean {
  return (
    isRoleBelow(target, caller) || (baseOf(target) === 'SUPER_ADMIN' && baseOf(caller) === 'SUPER_ADMIN')
  );
}

/** The default roles that rank strictly below `caller`: those it may assign and manage. */
export function rolesBelow(caller: RankedRole): RoleCode[] {
  return ROLE_CODES.filter((role) => isRoleBelow(role, caller));
}

/** The default roles a custom role authored by `caller` may be based on (not above the caller). */
export function rolesNotAbove(caller: RankedRole): RoleCode[] {
  return ROLE_CODES.filter((role) => !isRoleAbove(role, caller));
}
