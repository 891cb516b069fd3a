import { z } from 'zod';
import { emailSchema, phoneSchema } from './auth.js';
import { pageQuerySchema } from './envelope.js';
import { LANGUAGES, TENANT_SETTING_VALUE_SCHEMAS, tenantSettingSchema, tenantSettingsUpdateSchema } from './tenant-settings.js';
import { safeName, safeText } from './text.js';
import { TENANT_CODE_PATTERN } from './tenant-code.js';

// Identity ----------------------------------------------------------------------------------------

export { TENANT_CODE_PATTERN } from './tenant-code.js';
export const tenantLoginCodeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(TENANT_CODE_PATTERN, { error: 'must be 2 to 40 lower-case letters, digits or hyphens, starting with a letter or digit' })
  .describe('Login code of the tenant');
export const tenantNameSchema = safeName(120).describe('Tenant name (unique, any case)');
export const officialNameSchema = safeText().max(200).describe('Official full name');
export const publicUrlSchema = z
  .string()
  .trim()
  .max(300)
  .refine((value) => value === '' || /^https?:\/\/[^\s/?#]+(?:\/[^\s]*)?$/.test(value), { error: 'must be empty or an http(s) URL' })
  .describe('Public URL of the tenant’s console');

export const TENANT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export const TENANT_CONNECTION_TYPES = ['SHARED', 'DEDICATED'] as const;
export type TenantConnectionType = (typeof TENANT_CONNECTION_TYPES)[number];
export const TENANT_LOGO_KINDS = ['square', 'horizontal', 'qr'] as const;
export type TenantLogoKind = (typeof TENANT_LOGO_KINDS)[number];
/** Spec §3 gives no size; the same limit as profile photos (spec §9: under 1 MB). */
export const TENANT_LOGO_MAX_BYTES = 1024 * 1024;

export const tenantCountsSchema = z.object({
  healthCenters: z.number().int().describe('Branches (health centers)'),
  admins: z.number().int(),
  doctors: z.number().int(),
  patients: z.number().int(),
});
export type TenantCounts = z.infer<typeof tenantCountsSchema>;

export const tenantListItemSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  officialName: z.string(),
  status: z.enum(TENANT_STATUSES),
  connectionType: z.enum(TENANT_CONNECTION_TYPES),
  createdAt: z.iso.datetime(),
  /** Null when the tenant's database could not be reached. */
  counts: tenantCountsSchema.nullable(),
});
export type TenantListItem = z.infer<typeof tenantListItemSchema>;

export const tenantListQuerySchema = pageQuerySchema.extend({
  size: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(100).optional().describe('Part of the name, official name or code'),
  sort: z.enum(['name', 'created']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export const tenantLogosSchema = z.object({
  square: z.string().optional(),
  horizontal: z.string().optional(),
  qr: z.string().optional(),
});

export const tenantDetailSchema = tenantListItemSchema.extend({
  publicUrl: z.string(),
  updatedAt: z.iso.datetime(),
  /** Every key with its value or default; secret keys are masked (last 4 characters). */
  settings: z.array(tenantSettingSchema.extend({ isDefault: z.boolean(), isSecret: z.boolean() })),
  /** URLs of the public logo call for the images that exist. */
  logos: tenantLogosSchema,
});
export type TenantDetail = z.infer<typeof tenantDetailSchema>;

/** The tenant's first ADMIN: created ACTIVE without a password, emailed a set-password code. */
export const firstAdminSchema = z.object({
  email: emailSchema,
  firstName: safeName(60).regex(/^[^\d]*$/, { error: 'must not contain digits' }).default('Admin'),
  lastName: safeText().max(60).regex(/^[^\d]*$/, { error: 'must not contain digits' }).default(''),
  language: z.enum(LANGUAGES).optional().describe('Language of the welcome email (default: the tenant’s LANGUAGE)'),
});

export const tenantCreateSchema = z.object({
  name: tenantNameSchema,
  code: tenantLoginCodeSchema,
  officialName: officialNameSchema.default(''),
  publicUrl: publicUrlSchema.default(''),
  settings: tenantSettingsUpdateSchema.default({}),
  admin: firstAdminSchema.optional(),
});
export type TenantCreate = z.infer<typeof tenantCreateSchema>;

/** PUT /manage/sadmin/tenant/{id}: identity. The login code never changes (people type it). */
export const tenantUpdateSchema = z.object({
  name: tenantNameSchema,
  officialName: officialNameSchema,
  publicUrl: publicUrlSchema,
  status: z.enum(TENANT_STATUSES),
});
export type TenantUpdate = z.infer<typeof tenantUpdateSchema>;

export const tenantLogoQuerySchema = z.object({ kind: z.enum(TENANT_LOGO_KINDS) });

// Connections -------------------------------------------------------------------------------------

export const TENANT_CONNECTION_KINDS = ['primary', 'replica', 'vitals'] as const;
export type TenantConnectionKind = (typeof TENANT_CONNECTION_KINDS)[number];
/** disable: plain TCP (private networks); require: TLS without certificate check; verify-full: TLS, checked. */
export const SSL_MODES = ['disable', 'require', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

const identifier = z.string().trim().min(1).max(63).regex(/^[A-Za-z0-9_$.-]+$/, { error: 'must be letters, digits, _ $ . or -' });
export const tenantConnectionInputSchema = z.object({
  kind: z.string().trim().max(20).describe('primary, replica or vitals'),
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]+\]?)$/, { error: 'must be a host name or an IP address' }),
  port: z.number().int().min(1).max(65535).default(5432),
  database: identifier,
  user: identifier,
  password: z.string().min(1).max(200),
  sslMode: z.enum(SSL_MODES).default('verify-full'),
});
export type TenantConnectionInput = z.infer<typeof tenantConnectionInputSchema>;

/**
 * Body of the connection test and save calls. The type and the set are checked by the server
 * (tenant.invalidConnectionType): SHARED takes no connections; DEDICATED exactly one of each kind.
 */
export const tenantConnectionsInputSchema = z.object({
  connectionType: z.string().trim().max(20).describe('SHARED or DEDICATED'),
  connections: z.array(tenantConnectionInputSchema).max(10).default([]),
});
export type TenantConnectionsInput = z.infer<typeof tenantConnectionsInputSchema>;

/** A stored connection as shown to platform staff: never the password. */
export const tenantConnectionSchema = z.object({
  kind: z.enum(TENANT_CONNECTION_KINDS),
  host: z.string(),
  port: z.number().int(),
  database: z.string(),
  user: z.string(),
  sslMode: z.enum(SSL_MODES),
  hasPassword: z.boolean(),
  updatedAt: z.iso.datetime(),
});
export const tenantConnectionsSchema = z.object({
  connectionType: z.enum(TENANT_CONNECTION_TYPES),
  connections: z.array(tenantConnectionSchema),
});
export type TenantConnections = z.infer<typeof tenantConnectionsSchema>;

/** Answer of a successful test: every connection answered SELECT 1. */
export const tenantConnectionTestSchema = z.object({
  connections: z.array(z.object({ kind: z.enum(TENANT_CONNECTION_KINDS), isReachable: z.boolean(), milliseconds: z.number().int() })),
});

// Email templates ----------------------------------------------------------------------------------

/**
 * Templates a tenant may word itself. WELCOME is sent to a tenant's first admin; the code
 * templates mirror the built-in one-time-code messages.
 */
export const EMAIL_TEMPLATE_KEYS = ['WELCOME', 'PASSWORD_RESET', 'LOGIN_CODE', 'VERIFY_EMAIL'] as const;
export type EmailTemplateKey = (typeof EMAIL_TEMPLATE_KEYS)[number];
/** Placeholders a template may use, written {{name}}. */
export const EMAIL_TEMPLATE_PLACEHOLDERS = ['name', 'email', 'tenant', 'tenantCode', 'link', 'code', 'minutes'] as const;
export type EmailTemplatePlaceholder = (typeof EMAIL_TEMPLATE_PLACEHOLDERS)[number];

const placeholdersKnown = (value: string) =>
  [...value.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].every((match) => (EMAIL_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(match[1] ?? ''));
const templateText = (max: number) =>
  z
    .string()
    .max(max)
    .refine(placeholdersKnown, { error: `only these placeholders: ${EMAIL_TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(' ')}` });

export const emailTemplateParamsSchema = z.object({ id: z.uuid(), key: z.enum(EMAIL_TEMPLATE_KEYS) });
export const emailTemplateQuerySchema = z.object({ language: z.enum(LANGUAGES).default('en') });
export const emailTemplateInputSchema = z.object({
  subject: templateText(200).refine((value) => value.trim() !== '' && !/[\r\n]/.test(value), { error: 'must be one non-empty line' }),
  body: templateText(10_000).refine((value) => value.trim() !== '', { error: 'must not be empty' }),
});
export const emailTemplateSchema = emailTemplateInputSchema.extend({
  key: z.enum(EMAIL_TEMPLATE_KEYS),
  language: z.enum(LANGUAGES),
  isDefault: z.boolean(),
  placeholders: z.array(z.enum(EMAIL_TEMPLATE_PLACEHOLDERS)),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;
/** Preview: the given text (or the stored one) filled with sample values. */
export const emailTemplatePreviewInputSchema = emailTemplateInputSchema.partial();
export const emailTemplatePreviewSchema = z.object({
  subject: z.string(),
  /** Exactly what is sent (emails go out as plain text). */
  text: z.string(),
  /** The same, HTML-escaped with line breaks, safe to show in a page. */
  html: z.string(),
});

// Trial requests (spec §4: NEW -> APPROVED | REJECTED) --------------------------------------------

export const TENANT_REQUEST_STATUSES = ['NEW', 'APPROVED', 'REJECTED'] as const;
export type TenantRequestStatus = (typeof TENANT_REQUEST_STATUSES)[number];
/** What may follow each status, and what a decision needs (a reason for a rejection). */
export const TENANT_REQUEST_TRANSITIONS = {
  NEW: ['APPROVED', 'REJECTED'],
  APPROVED: [],
  REJECTED: [],
} as const satisfies Record<TenantRequestStatus, readonly TenantRequestStatus[]>;

/** The text fields of the public trial request form (multipart, with logoSquare and logoHorizontal). */
export const tenantRequestFormSchema = z.object({
  organizationName: tenantNameSchema,
  officialName: officialNameSchema.default(''),
  requestedCode: tenantLoginCodeSchema,
  requesterName: safeName(120),
  email: emailSchema,
  phone: z.union([z.literal(''), phoneSchema]).default(''),
  primaryColor: z.union([z.literal(''), TENANT_SETTING_VALUE_SCHEMAS.COLOR]).default(''),
  message: z.string().trim().max(2000).default(''),
  language: z.enum(LANGUAGES).default('en'),
});
export type TenantRequestForm = z.infer<typeof tenantRequestFormSchema>;
export const TENANT_REQUEST_LOGO_FIELDS = ['logoSquare', 'logoHorizontal'] as const;

export const tenantRequestSchema = z.object({
  id: z.uuid(),
  type: z.literal('TRIAL'),
  status: z.enum(TENANT_REQUEST_STATUSES),
  organizationName: z.string(),
  officialName: z.string(),
  requestedCode: z.string(),
  requesterName: z.string(),
  email: z.string(),
  phone: z.string(),
  primaryColor: z.string(),
  message: z.string(),
  language: z.string(),
  rejectionReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedBy: z.uuid().nullable(),
  createdTenantId: z.uuid().nullable(),
  /** URLs of the two logos (platform staff only). */
  logos: z.object({ square: z.string(), horizontal: z.string() }),
});
export type TenantRequest = z.infer<typeof tenantRequestSchema>;

export const tenantRequestListQuerySchema = pageQuerySchema.extend({
  size: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(TENANT_REQUEST_STATUSES).optional(),
  search: z.string().trim().max(100).optional().describe('Part of the organization, requester, email or code'),
});
export const tenantRequestSubmittedSchema = z.object({ id: z.uuid(), status: z.literal('NEW') });
/** Approval may correct the name or code when the requested ones are taken. */
export const tenantRequestApproveSchema = z.object({ name: tenantNameSchema.optional(), code: tenantLoginCodeSchema.optional() }).default({});
export const tenantRequestRejectSchema = z.object({ reason: z.string().trim().min(1).max(1000) });
export const tenantRequestLogoQuerySchema = z.object({ kind: z.enum(['square', 'horizontal']) });
