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
