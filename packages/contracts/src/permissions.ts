import { type RoleCode } from './roles.js';

/**
 * The permission catalogue: `group.action`, groups from spec §3. The server checks these names on
 * every protected route; the console gates menus, routes and buttons with the same names.
 * Each permission's label is the i18n key `permissions.<group>.<action>`.
 */
export const PERMISSION_GROUPS = {
  account: ['view', 'update'],
  /** schedule: request one's own working schedules (doctors); approve: decide on doctors' schedules (center admins). */
  appointment: ['view', 'create', 'update', 'cancel', 'schedule', 'approve'],
  dashboard: ['view'],
  device: ['view', 'create', 'update', 'delete', 'import'],
  /** prescribe: write and deactivate prescriptions (doctors); remind: care reminders (doctors, assistants). */
  health: ['view', 'update', 'threshold', 'sos', 'prescribe', 'remind'],
  notification: ['view', 'send', 'announce'],
  relative: ['view', 'update'],
  staff: ['view', 'create', 'update', 'disable'],
  /** scope and center: managing the scope hierarchy and health centers of a tenant. */
  tenant: ['view', 'create', 'update', 'request', 'scope', 'center'],
  /** manage: service packages, add-ons and activation codes (tenant admins). */
  transaction: ['view', 'export', 'manage'],
  /** feedback: work through the feedback people send (customer care, admins): list, status, reply. */
  user: ['view', 'create', 'update', 'delete', 'import', 'assign', 'feedback'],
  permission: ['view', 'update'],
} as const;

export type PermissionGroup = keyof typeof PERMISSION_GROUPS;
export type Permission = {
  [G in PermissionGroup]: `${G}.${(typeof PERMISSION_GROUPS)[G][number]}`;
}[PermissionGroup];

export const PERMISSIONS: readonly Permission[] = (
  Object.entries(PERMISSION_GROUPS) as [PermissionGroup, readonly string[]][]
).flatMap(([group, actions]) => actions.map((action) => `${group}.${action}` as Permission));

export function permissionLabelKey(permission: Permission): string {
  return `permissions.${permission}`;
}

/**
 * Clinical acts (spec §6: doctors write prescriptions and reminders, assistants create and delete
 * reminders) belong to the clinical roles only: no administrator role holds them by default, so
 * raising an admin's rights never makes it a prescriber. A tenant may still grant them in a custom role.
 */
export const CLINICAL_PERMISSIONS: readonly Permission[] = ['health.prescribe', 'health.remind', 'appointment.schedule'];
const ALL = PERMISSIONS.filter((permission) => !CLINICAL_PERMISSIONS.includes(permission));

/**
 * Whether a grantor must hold a permission to hand it out (in a role, an assignment or a level):
 * every permission but the clinical ones, which administrators give to clinicians without holding
 * them (an admin who places a doctor does not prescribe). The rank rules still apply.
 */
export function grantRequiresHolding(permission: Permission): boolean {
  return !CLINICAL_PERMISSIONS.includes(permission);
}

const without = (...excluded: string[]): Permission[] =>
  ALL.filter((permission) => !excluded.some((prefix) => permission.startsWith(prefix)));

/** Default roles (spec §6) as data. Custom roles per tenant come later and reuse the catalogue. */
export const DEFAULT_ROLE_PERMISSIONS: Record<RoleCode, readonly Permission[]> = {
  ROOT: ALL,
  SUPER_ADMIN: ALL,
  SYSTEM_ADMIN: without('tenant.create'),
  ADMIN: [...without('tenant.'), 'tenant.scope', 'tenant.center'],
  MAIN_ADMIN: [...without('tenant.', 'transaction.'), 'tenant.center'],
  SUPPORT_ADMIN: [...without('tenant.', 'transaction.', 'permission.update'), 'tenant.center'],
  SCOPE_ADMIN: [...without('tenant.', 'transaction.', 'permission.update'), 'tenant.scope', 'tenant.center'],
  MHSC_ADMIN: [...without('tenant.', 'transaction.', 'permission.update'), 'tenant.center'],
  OPERATOR: [
    'account.view', 'account.update', 'dashboard.view', 'user.view', 'health.view', 'device.view',
    'appointment.view', 'appointment.create', 'appointment.update', 'appointment.cancel', 'notification.view', 'relative.view',
    'health.sos',
  ],
  CSKH: [
    'account.view', 'account.update', 'dashboard.view', 'user.view', 'device.view', 'notification.view',
    'transaction.view', 'relative.view', 'health.sos', 'user.feedback',
  ],
  DOCTOR: [
    'account.view', 'account.update', 'dashboard.view', 'user.view', 'user.update', 'health.view',
    'health.update', 'health.threshold', 'health.prescribe', 'health.remind', 'appointment.view', 'appointment.create', 'appointment.update',
    'appointment.cancel', 'appointment.schedule', 'notification.view', 'relative.view', 'device.view',
  ],
  DOCTOR_ASSISTANT: [
    'account.view', 'account.update', 'dashboard.view', 'user.view', 'health.view', 'health.remind', 'appointment.view',
    'notification.view', 'relative.view',
  ],
  COACH: ['account.view', 'account.update', 'user.view', 'health.view', 'notification.view'],
  PATIENT: ['account.view', 'account.update', 'health.view', 'notification.view', 'relative.view', 'relative.update'],
};
