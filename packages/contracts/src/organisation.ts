import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { LIMITS } from './limits.js';
import { ROLE_CODES, type RoleCode } from './roles.js';
import { safeName, safeText } from './text.js';

/**
 * Scopes (a hierarchy of levels 1 to 5) and health centers (mhsc) of a tenant: spec §3, §5, §7.
 * Center forms are sent as multipart form fields, so every field here also accepts its form
 * spelling: numbers as text, a blank text as "not given", a list as repeated fields or one
 * comma-separated field.
 */

/** Roles a health center's admins may hold (spec §6); anyone else is refused as an admin. */
export const CENTER_ADMIN_ROLES = ['MHSC_ADMIN', 'MAIN_ADMIN', 'SUPPORT_ADMIN', 'ADMIN'] as const satisfies readonly RoleCode[];
/** Roles a scope's admins may hold. */
export const SCOPE_ADMIN_ROLES = ['SCOPE_ADMIN', 'ADMIN', 'MHSC_ADMIN', 'MAIN_ADMIN', 'SUPPORT_ADMIN'] as const satisfies readonly RoleCode[];
export const CENTER_ADMIN_KINDS = ['MAIN', 'SUPPORT'] as const;
export const SCOPE_ADMIN_KINDS = ['ADMIN', 'SUPPORT'] as const;
export type CenterAdminKind = (typeof CENTER_ADMIN_KINDS)[number];
export type ScopeAdminKind = (typeof SCOPE_ADMIN_KINDS)[number];

/** The logo of a center: PNG, JPEG or WEBP, at most 1 MB (spec §9: photos under 1 MB). */
export const CENTER_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const CENTER_LOGO_MAX_BYTES = 1024 * 1024;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
/** A blank form field or a JSON null is "not given". */
const blankAsUndefined = (value: unknown) => (isBlank(value) ? undefined : value);
/** A list given as repeated form fields, one comma-separated field, or a JSON array. */
const asList = (value: unknown) => {
  if (isBlank(value)) return undefined;
  if (typeof value === 'string') return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return value;
};

const text = (max: number) => z.string().trim().max(max).default('');
const digits = z
  .string()
  .trim()
  .regex(/^(\d{3,16})?$/, { error: `must be ${LIMITS.phoneMinDigits} to ${LIMITS.phoneMaxDigits} digits` })
  .default('');
const coordinate = (limit: number) => z.preprocess(blankAsUndefined, z.coerce.number().min(-limit).max(limit).optional());
const idList = z.preprocess(asList, z.array(z.uuid()).max(50).default([]));
const optionalId = z.preprocess(blankAsUndefined, z.uuid().optional());
const optionalQueryText = (max: number) => z.preprocess(blankAsUndefined, z.string().trim().max(max).optional());

// Scopes ---------------------------------------------------------------------------------------

export const scopeNameSchema = safeName(100).describe('Unique within its level (any case)');
export const scopeLevelSchema = z.number().int().min(LIMITS.scopeLevelMin).max(LIMITS.scopeLevelMax);

/** POST /account/sadmin/mhsc/scope. */
export const scopeInputSchema = z.object({
  name: scopeNameSchema,
  type: text(50),
  parentId: z.uuid().nullable().default(null).describe('null or absent: a root scope (level 1)'),
  level: scopeLevelSchema.optional().describe('Optional: when given it must be the parent’s level + 1 (1 for a root)'),
});
export type ScopeInput = z.infer<typeof scopeInputSchema>;

/** PUT /account/sadmin/mhsc/scope/{id}: a field left out stays as it is. */
export const scopeUpdateSchema = z.object({
  name: scopeNameSchema,
  type: z.string().trim().max(50).optional(),
  parentId: z.uuid().nullable().optional().describe('Absent: stays under its parent; null: becomes a root (level 1); a scope id: moves there with its subtree'),
  level: scopeLevelSchema.optional().describe('Optional: when given it must be the new parent’s level + 1'),
});
export type ScopeUpdate = z.infer<typeof scopeUpdateSchema>;

/** PUT /account/sadmin/mhsc/scope/name-and-status/{id}. */
export const scopeNameStatusSchema = z.object({ name: scopeNameSchema, enabled: z.boolean() });

/** PUT /account/sadmin/mhsc/scope/{id}/admins: the whole list of a scope's admins. */
export const scopeAdminsInputSchema = z
  .object({ adminIds: idList, supportAdminIds: idList })
  .refine((input) => !input.adminIds.some((id) => input.supportAdminIds.includes(id)), {
    path: ['supportAdminIds'],
    error: 'a user is either an admin or a support admin',
  });

export const scopeListQuerySchema = pageQuerySchema.extend({
  searchValue: optionalQueryText(100),
  type: optionalQueryText(50),
  parentId: optionalId,
});
export const scopeChildrenQuerySchema = z.object({ scopeId: optionalId.describe('Absent: the root scopes') });
export const scopeHierarchyQuerySchema = z.object({
  scopeId: optionalId.describe('Absent: every tree the caller may see'),
  isFetchParent: z.stringbool().default(false).describe('Include the ancestors up to the root'),
  isFetchChildren: z.stringbool().default(true).describe('Include the whole subtree below the scope'),
});
export const scopeAdminListQuerySchema = pageQuerySchema.extend({ scopeId: z.uuid() });

export const scopeSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.string(),
  level: z.number().int(),
  parentId: z.uuid().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Scope = z.infer<typeof scopeSchema>;
export const scopeRefSchema = z.object({ id: z.uuid(), name: z.string(), level: z.number().int() });

/** A user as shown among a scope's or center's admins. */
export const orgUserSchema = z.object({
  userId: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(ROLE_CODES),
});
export type OrgUser = z.infer<typeof orgUserSchema>;
export const scopeAdminSchema = orgUserSchema.extend({ kind: z.enum(SCOPE_ADMIN_KINDS) });
export type ScopeAdmin = z.infer<typeof scopeAdminSchema>;

export const centerRefSchema = z.object({ id: z.uuid(), name: z.string(), enabled: z.boolean() });

export const scopeDetailSchema = scopeSchema.extend({
  parent: scopeRefSchema.nullable(),
  childrenCount: z.number().int(),
  centers: z.array(centerRefSchema),
  admins: z.array(scopeAdminSchema),
});
export type ScopeDetail = z.infer<typeof scopeDetailSchema>;

export interface ScopeNode extends Scope {
  children: ScopeNode[];
}
/**
 * One scope of a hierarchy answer with the scopes below it. Written out to the deepest possible
 * tree (5 levels) rather than as a recursive schema, so the OpenAPI document describes it whole.
 */
function scopeNodeOfDepth(depth: number): z.ZodType<ScopeNode> {
  return scopeSchema.extend({ children: depth <= 1 ? z.array(z.never()) : z.array(scopeNodeOfDepth(depth - 1)) });
}
export const scopeNodeSchema = scopeNodeOfDepth(LIMITS.scopeLevelMax);

// Health centers -------------------------------------------------------------------------------

export const centerNameSchema = safeName(200).describe('Unique in the tenant (any case)');

/** The fields of spec §3 a center's own admin may also change (PUT /account/smadmin/mhsc/{id}). */
const centerDetailsShape = {
  name: centerNameSchema,
  type: text(100),
  representative: safeText().max(200).default('').describe('The person who represents the center'),
  phonePrefix: z.string().trim().regex(/^(\+?\d{1,4})?$/, { error: 'must be a dialling code such as +84' }).default(''),
  phoneNumber: digits,
  hotline: digits,
  email: z.string().trim().toLowerCase().pipe(z.union([z.literal(''), z.email()])).default(''),
  website: z.string().trim().max(300).pipe(z.union([z.literal(''), z.url({ protocol: /^https?$/ })])).default(''),
  address: text(500),
  lat: coordinate(90).describe('Latitude, -90 to 90'),
  lng: coordinate(180).describe('Longitude, -180 to 180'),
};
const mainAdminOutsideSupport = (input: { mainAdminId?: string | undefined; supportAdminIds: string[] }) =>
  input.mainAdminId === undefined || !input.supportAdminIds.includes(input.mainAdminId);
const mainAdminOutsideSupportError = { path: ['supportAdminIds'], error: 'the main admin is not also a support admin' };

export const centerDetailsInputSchema = z.object(centerDetailsShape);
export type CenterDetailsInput = z.infer<typeof centerDetailsInputSchema>;

/** POST /account/sadmin/mhsc: a center needs its main admin (spec §5); support admins are optional. */
export const centerFormSchema = z
  .object({
    ...centerDetailsShape,
    scopeId: optionalId,
    mainAdminId: z.uuid(),
    supportAdminIds: idList,
  })
  .refine(mainAdminOutsideSupport, mainAdminOutsideSupportError);
export type CenterForm = z.infer<typeof centerFormSchema>;

/** PUT /account/sadmin/mhsc/{id}: every field replaced; the admins only when mainAdminId is sent. */
export const centerUpdateFormSchema = z
  .object({
    ...centerDetailsShape,
    scopeId: optionalId,
    mainAdminId: optionalId.describe('Absent: the admins stay as they are'),
    supportAdminIds: z.preprocess(asList, z.array(z.uuid()).max(50).optional()),
  })
  .refine((input) => input.supportAdminIds === undefined || input.mainAdminId !== undefined, {
    path: ['mainAdminId'],
    error: 'required when the support admins are sent',
  })
  .refine((input) => mainAdminOutsideSupport({ mainAdminId: input.mainAdminId, supportAdminIds: input.supportAdminIds ?? [] }), mainAdminOutsideSupportError);
export type CenterUpdateForm = z.infer<typeof centerUpdateFormSchema>;

/** PUT /account/sadmin/mhsc/{id}/admins: the only way to change a center's MAIN admin. */
export const centerAdminsInputSchema = z
  .object({ mainAdminId: z.uuid(), supportAdminIds: idList })
  .refine(mainAdminOutsideSupport, mainAdminOutsideSupportError);
export type CenterAdminsInput = z.infer<typeof centerAdminsInputSchema>;

export const centerListQuerySchema = pageQuerySchema.extend({
  searchValue: optionalQueryText(100),
  scopeId: optionalId.describe('The centers of this scope and every scope below it'),
});
export const centerEnabledQuerySchema = z.object({ enabled: z.stringbool() });

export const centerSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  scope: scopeRefSchema.nullable(),
  phonePrefix: z.string(),
  phoneNumber: z.string(),
  hotline: z.string(),
  email: z.string(),
  address: z.string(),
  hasLogo: z.boolean(),
  mainAdmin: orgUserSchema.nullable(),
});
export type CenterSummary = z.infer<typeof centerSummarySchema>;

export const centerDetailSchema = centerSummarySchema.extend({
  representative: z.string(),
  website: z.string(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  supportAdmins: z.array(orgUserSchema),
  staffCount: z.number().int(),
  patientCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CenterDetail = z.infer<typeof centerDetailSchema>;

/** GET /account/smadmin/mhsc/me: with the caller's admin kind (null: their level's center). */
export const myCenterSchema = centerSummarySchema.extend({ adminKind: z.enum(CENTER_ADMIN_KINDS).nullable() });
export type MyCenter = z.infer<typeof myCenterSchema>;

/** GET /account/smadmin/check-mhsc-and-scope. */
export const mhscAndScopeCheckSchema = z.object({
  hasScope: z.boolean(),
  hasCenter: z.boolean(),
  scopeIds: z.array(z.uuid()),
  centerIds: z.array(z.uuid()),
});
export type MhscAndScopeCheck = z.infer<typeof mhscAndScopeCheckSchema>;

// Manage (super admin; the tenant is named, and must be the one they act in) --------------------

const tenantNameSchema = safeName(200).describe('Name of the tenant the caller acts in');

/** POST /manage/sadmin/center. */
export const manageCenterCreateSchema = z
  .object({
    ...centerDetailsShape,
    tenantName: tenantNameSchema,
    scope: z.uuid().nullable().default(null).describe('Scope id, or null'),
    mainAdminId: z.uuid(),
    supportAdminIds: idList,
  })
  .refine(mainAdminOutsideSupport, mainAdminOutsideSupportError);
export type ManageCenterCreate = z.infer<typeof manageCenterCreateSchema>;

/** PUT /manage/sadmin/center: moves the center named `name` to `scope`. */
export const manageCenterUpdateSchema = z.object({
  tenantName: tenantNameSchema,
  name: centerNameSchema.describe('The center, found by name (any case)'),
  scope: z.uuid().nullable().describe('Scope id, or null'),
});
export const manageCenterQuerySchema = z.object({ tenantName: tenantNameSchema, name: centerNameSchema });
