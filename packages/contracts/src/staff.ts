import { z } from 'zod';
import { ACCOUNT_STATUSES, DEACTIVATION_DURATIONS, personNameSchema, profileSchema } from './account.js';
import { emailSchema, phoneSchema } from './auth.js';
import { pageQuerySchema } from './envelope.js';
import { ROLE_CODES, type RoleCode } from './roles.js';
import { checkTokenResponseSchema } from './system.js';
import { safeText } from './text.js';

// Staff management (spec §2 employee, admin and doctor lists; §3 "Admin or staff") and the
// level-access selector and switcher.

/**
 * Where a role's holder works, which decides what a staff form asks for: a health center
 * (`center`), a scope (`scope`), the whole tenant (`tenant`: no center nor scope), the whole tenant
 * or one center (`tenantOrCenter`), the platform (platform staff), or nowhere (patients are not staff).
 */
export const ROLE_PLACEMENT = {
  ROOT: 'platform',
  SUPER_ADMIN: 'platform',
  SYSTEM_ADMIN: 'platform',
  ADMIN: 'tenant',
  MAIN_ADMIN: 'center',
  SUPPORT_ADMIN: 'center',
  SCOPE_ADMIN: 'scope',
  MHSC_ADMIN: 'center',
  OPERATOR: 'tenantOrCenter',
  CSKH: 'tenantOrCenter',
  DOCTOR: 'center',
  DOCTOR_ASSISTANT: 'center',
  COACH: 'tenantOrCenter',
  PATIENT: 'none',
} as const satisfies Record<RoleCode, 'platform' | 'tenant' | 'scope' | 'center' | 'tenantOrCenter' | 'none'>;
export type RolePlacement = (typeof ROLE_PLACEMENT)[RoleCode];

/** Roles that are staff of a customer tenant (everyone but patients and platform staff). */
export const TENANT_STAFF_ROLES = ROLE_CODES.filter((role) => ROLE_PLACEMENT[role] !== 'platform' && ROLE_PLACEMENT[role] !== 'none');
/** Platform staff the super admin pages create (ROOT is the developer team's, never created here). */
export const CREATABLE_PLATFORM_ROLES = ['SUPER_ADMIN', 'SYSTEM_ADMIN'] as const satisfies readonly RoleCode[];

/** Which roles each staff list of spec §2 shows. */
export const STAFF_LISTS = {
  /** Employee management: customer care, operators, coaches and managers. */
  employee: ['CSKH', 'OPERATOR', 'COACH', 'ADMIN', 'MAIN_ADMIN', 'SUPPORT_ADMIN'],
  systemAdmin: ['SYSTEM_ADMIN'],
  superAdmin: ['SUPER_ADMIN'],
  scopeAdmin: ['SCOPE_ADMIN'],
  mhscAdmin: ['MHSC_ADMIN'],
  mhscDoctor: ['DOCTOR'],
  doctorAssistant: ['DOCTOR_ASSISTANT'],
} as const satisfies Record<string, readonly RoleCode[]>;
export type StaffList = keyof typeof STAFF_LISTS;

/**
 * The account-state machine of the staff pages (spec §4): which states each action starts from.
 * Disabling a disabled account replaces its end; anything else is refused (staff.invalidTransition).
 */
export const STAFF_STATUS_ACTIONS = {
  disable: { from: ['ACTIVE', 'DISABLED'], to: 'DISABLED' },
  enable: { from: ['DISABLED'], to: 'ACTIVE' },
} as const satisfies Record<string, { from: readonly (typeof ACCOUNT_STATUSES)[number][]; to: (typeof ACCOUNT_STATUSES)[number] }>;

// Lists ---------------------------------------------------------------------------------------

/** PostgreSQL text cannot hold NUL, and no name or search needs control characters. */
function hasNoControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code === 127) return false;
  }
  return true;
}
const controlCharacterIssue = { error: 'must not contain control characters' };
const plainText = (max: number) => z.string().trim().max(max).refine(hasNoControlCharacters, controlCharacterIssue);

export const STAFF_SORT_FIELDS = ['name', 'created', 'status'] as const;
export const staffListQuerySchema = pageQuerySchema.extend({
  search: plainText(80).optional().describe('Part of the name, email or phone number'),
  sortField: z.enum(STAFF_SORT_FIELDS).default('name'),
  sortType: z.enum(['asc', 'desc']).default('asc'),
  status: z.enum(ACCOUNT_STATUSES).optional(),
  centerId: z.uuid().optional().describe('Only staff of this health center'),
  scopeId: z.uuid().optional().describe('Only staff of this scope, its sub-scopes and their health centers'),
  role: z.enum(ROLE_CODES).optional().describe('One of the roles the list shows'),
});
export type StaffListQuery = z.infer<typeof staffListQuerySchema>;

const namedRefSchema = z.object({ id: z.uuid(), name: z.string() });
export const personRefSchema = z.object({ id: z.uuid(), fullName: z.string() });
export const tenantRefSchema = z.object({ id: z.uuid(), code: z.string(), name: z.string() });

export const staffSummarySchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(ROLE_CODES),
  customRole: namedRefSchema.nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  /** End of a temporary disable; null while active or when disabled indefinitely. */
  disabledUntil: z.iso.datetime().nullable(),
  center: namedRefSchema.nullable(),
  scope: namedRefSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type StaffSummary = z.infer<typeof staffSummarySchema>;
export const doctorAssistantSummarySchema = staffSummarySchema.extend({ doctors: z.array(personRefSchema) });
export const systemAdminSummarySchema = staffSummarySchema.extend({ tenants: z.array(tenantRefSchema) });

// Detail ----------------------------------------------------------------------------------------

export const staffLevelSchema = z.object({
  id: z.uuid().nullable().describe('null: the main level (the account’s own role and place)'),
  role: z.enum(ROLE_CODES),
  customRole: namedRefSchema.nullable(),
  scope: namedRefSchema.nullable(),
  center: namedRefSchema.nullable(),
});
export type StaffLevel = z.infer<typeof staffLevelSchema>;

export const staffDetailSchema = staffSummarySchema.extend({
  profile: profileSchema,
  isPlatformStaff: z.boolean(),
  /** The main level first, then the extra levels the level switcher offers. */
  levels: z.array(staffLevelSchema),
  /** A doctor assistant's doctors. */
  doctors: z.array(personRefSchema),
  /** The tenants a system admin serves. */
  tenants: z.array(tenantRefSchema),
  /** Health centers this account administers (MAIN is changed on the health-center detail only). */
  centerAdminOf: z.array(z.object({ center: namedRefSchema, kind: z.enum(['MAIN', 'SUPPORT']) })),
});
export type StaffDetail = z.infer<typeof staffDetailSchema>;

// Create and edit -------------------------------------------------------------------------------

/** A default role code or a custom role id of the tenant. */
export const staffRoleSchema = z.union([z.enum(ROLE_CODES), z.uuid()]);
const optionalNameSchema = safeText().max(60).regex(/^[^\d]*$/, { error: 'must not contain digits' });
const nameSchema = personNameSchema.refine(hasNoControlCharacters, controlCharacterIssue);

const staffFieldsSchema = z.object({
  firstName: nameSchema,
  middleName: optionalNameSchema.default(''),
  lastName: nameSchema,
  email: emailSchema.nullish().describe('Email and/or phone: at least one, each unique in the tenant'),
  phone: phoneSchema.nullish(),
  role: staffRoleSchema.nullish().describe('Required: a default role code or a custom role id (role.required when missing)'),
  centerId: z.uuid().nullish().describe('The health center, for center roles (and optionally operators, customer care, coaches)'),
  scopeId: z.uuid().nullish().describe('The scope, for scope admins'),
  doctorIds: z.array(z.uuid()).max(50).default([]).describe('A doctor assistant’s doctors: at least one'),
  tenantIds: z.array(z.uuid()).max(500).default([]).describe('A system admin’s tenants: at least one'),
});

const hasContact = (value: { email?: string | null | undefined; phone?: string | null | undefined }) => Boolean(value.email) || Boolean(value.phone);
const contactIssue = { error: 'an email or a phone number is required', path: ['email'] };

export const staffCreateSchema = staffFieldsSchema
  .extend({
    password: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('Initial password (checked against the tenant’s rule). Without it the person sets one through forgot password'),
  })
  .refine(hasContact, contactIssue);
export type StaffCreate = z.infer<typeof staffCreateSchema>;

/** PUT: the whole record again (passwords change through /manage/system-admin/change-password). */
export const staffUpdateSchema = staffFieldsSchema.refine(hasContact, contactIssue);
export type StaffUpdate = z.infer<typeof staffUpdateSchema>;

export const staffDoctorsSchema = z.object({ doctorIds: z.array(z.uuid()).max(50) });
export const systemAdminTenantsSchema = z.object({ tenantIds: z.array(z.uuid()).max(500) });

export const staffDisableSchema = z.object({
  duration: z.enum(DEACTIVATION_DURATIONS).describe('3 days, 2 weeks, 1 month or indefinitely'),
  reason: plainText(500).optional(),
});

// Level access ------------------------------------------------------------------------------------

export const levelInputSchema = z.object({
  role: staffRoleSchema,
  scopeId: z.uuid().nullish(),
  centerId: z.uuid().nullish(),
});

export const levelOptionsSchema = z.object({
  current: z.object({ levelId: z.uuid().nullable(), tenantId: z.uuid(), scopeId: z.uuid().nullable(), centerId: z.uuid().nullable() }),
  levels: z.array(staffLevelSchema),
  tenants: z.array(tenantRefSchema),
  /** Scopes the active level may narrow to. */
  scopes: z.array(z.object({ id: z.uuid(), name: z.string(), level: z.number().int(), parentId: z.uuid().nullable() })),
  /** Health centers the active level may narrow to. */
  centers: z.array(z.object({ id: z.uuid(), name: z.string(), scopeId: z.uuid().nullable() })),
});
export type LevelOptions = z.infer<typeof levelOptionsSchema>;

export const levelSwitchSchema = z.object({
  levelId: z.uuid().nullable().default(null).describe('An extra level of the caller; null for the main one'),
  tenantId: z.uuid().optional().describe('Platform staff only: the tenant to act in'),
  scopeId: z.uuid().nullable().default(null),
  centerId: z.uuid().nullable().default(null),
});
export type LevelSwitch = z.infer<typeof levelSwitchSchema>;

/** The session after a switch: what check-token answers, plus where it acts and what it may do. */
export const levelContextSchema = checkTokenResponseSchema.extend({
  levelId: z.uuid().nullable(),
  scopeId: z.uuid().nullable(),
  centerId: z.uuid().nullable(),
  permissions: z.array(z.string()),
});
export type LevelContext = z.infer<typeof levelContextSchema>;
