/**
 * Drizzle table definitions mirroring the SQL migrations (migrations/*.sql are the source of
 * truth for DDL, RLS and grants; schema.test.ts fails when the two drift apart).
 */
import {
  boolean,
  date,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';

import { bytea, timestamps } from './schema-columns.js';

// Each domain of the patients issue keeps its tables in its own file, re-exported here.
export * from './schema-patients.js';
export * from './schema-care-team.js';
export * from './schema-reviews.js';
export * from './schema-devices.js';
export * from './schema-imports.js';
export * from './schema-realtime.js';
export * from './schema-vitals.js';
export * from './schema-alerts.js';
export * from './schema-app-alerts.js';
export * from './schema-send-quota.js';
export * from './schema-payments.js';
export * from './schema-orders.js';
export * from './schema-care-plan.js';
export * from './schema-schedules.js';
export * from './schema-notifications.js';
export * from './schema-packages.js';

// Control plane: reached only through the system store.

export const tenants = pgTable('tenants', {
  id: uuid().primaryKey(),
  code: text().notNull(),
  name: text().notNull(),
  officialName: text('official_name').notNull().default(''),
  status: text().notNull().default('ACTIVE'),
  connectionType: text('connection_type').notNull().default('SHARED'),
  isPlatform: boolean('is_platform').notNull().default(false),
  publicUrl: text('public_url').notNull().default(''),
  logoSquareFile: text('logo_square_file'),
  logoHorizontalFile: text('logo_horizontal_file'),
  registrationQrFile: text('registration_qr_file'),
  createdAt: timestamps('created_at').notNull().defaultNow(),
  updatedAt: timestamps('updated_at').notNull().defaultNow(),
});

export const tenantSettings = pgTable(
  'tenant_settings',
  {
    tenantId: uuid('tenant_id').notNull(),
    key: text().notNull(),
    value: text().notNull(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.key] })],
);

export const sessions = pgTable('sessions', {
  id: uuid().primaryKey(),
  tokenHash: bytea('token_hash').notNull(),
  userId: uuid('user_id').notNull(),
  accountTenantId: uuid('account_tenant_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  role: text().notNull(),
  app: text().notNull().default('console'),
  createdAt: timestamps('created_at').notNull().defaultNow(),
  lastSeenAt: timestamps('last_seen_at').notNull().defaultNow(),
  expiresAt: timestamps('expires_at').notNull(),
  revokedAt: timestamps('revoked_at'),
  revokedReason: text('revoked_reason'),
  familyId: uuid('family_id').notNull(),
  refreshHash: bytea('refresh_hash'),
  refreshExpiresAt: timestamps('refresh_expires_at'),
  rememberMe: boolean('remember_me').notNull().default(false),
  levelId: uuid('level_id'),
  filterScopeId: uuid('filter_scope_id'),
  filterCenterId: uuid('filter_center_id'),
});

export const loginThrottle = pgTable('login_throttle', {
  key: text().primaryKey(),
  windowStartedAt: timestamps('window_started_at').notNull(),
  failures: integer().notNull().default(0),
});

// Data plane: tenant_id first, row level security on app.tenant_id.

export const scopes = pgTable(
  'scopes',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    name: text().notNull(),
    type: text().notNull().default(''),
    level: smallint().notNull(),
    parentId: uuid('parent_id'),
    enabled: boolean().notNull().default(true),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const healthCenters = pgTable(
  'health_centers',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    scopeId: uuid('scope_id'),
    name: text().notNull(),
    type: text().notNull().default(''),
    enabled: boolean().notNull().default(true),
    representative: text().notNull().default(''),
    phonePrefix: text('phone_prefix').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    hotline: text().notNull().default(''),
    email: text().notNull().default(''),
    website: text().notNull().default(''),
    address: text().notNull().default(''),
    lat: doublePrecision(),
    lng: doublePrecision(),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    logoFile: text('logo_file'),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const users = pgTable(
  'users',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    email: text(),
    phone: text(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: text().notNull(),
    healthCenterId: uuid('health_center_id'),
    scopeId: uuid('scope_id'),
    passwordHash: text('password_hash'),
    status: text().notNull().default('ACTIVE'),
    language: text().notNull().default('en'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    middleName: text('middle_name').notNull().default(''),
    nickName: text('nick_name').notNull().default(''),
    gender: text(),
    birthday: date({ mode: 'string' }),
    bloodType: text('blood_type'),
    skinColor: text('skin_color').notNull().default(''),
    heightCm: numeric('height_cm', { precision: 5, scale: 1, mode: 'number' }),
    weightKg: numeric('weight_kg', { precision: 5, scale: 1, mode: 'number' }),
    country: text().notNull().default(''),
    province: text().notNull().default(''),
    district: text().notNull().default(''),
    ward: text().notNull().default(''),
    addressLine: text('address_line').notNull().default(''),
    medicalNotes: text('medical_notes').notNull().default(''),
    avatarFile: text('avatar_file'),
    timeZone: text('time_zone').notNull().default('Asia/Ho_Chi_Minh'),
    customRoleId: uuid('custom_role_id'),
    failedLogins: smallint('failed_logins').notNull().default(0),
    lockedUntil: timestamps('locked_until'),
    disabledUntil: timestamps('disabled_until'),
    deletedAt: timestamps('deleted_at'),
    passwordChangedAt: timestamps('password_changed_at'),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    unitSystem: text('unit_system'),
    thermalUnit: text('thermal_unit'),
    bloodGlucoseUnit: text('blood_glucose_unit'),
    uricAcidUnit: text('uric_acid_unit'),
    deactivationRequestedAt: timestamps('deactivation_requested_at'),
    deactivationRequestedUntil: timestamps('deactivation_requested_until'),
    /** When the account became DISABLED (migration 0029 trigger); a deactivated doctor may be restored within 30 days of it. */
    deactivatedAt: timestamps('deactivated_at'),
    deactivationRequestedIndefinite: boolean('deactivation_requested_indefinite').notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const roles = pgTable(
  'roles',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    baseRole: text('base_role').notNull(),
    permissions: text().array().notNull().default([]),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const otpChallenges = pgTable(
  'otp_challenges',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    purpose: text().notNull(),
    channel: text().notNull(),
    destination: text().notNull(),
    userId: uuid('user_id'),
    codeHash: bytea('code_hash').notNull(),
    attempts: smallint().notNull().default(0),
    createdAt: timestamps('created_at').notNull(),
    expiresAt: timestamps('expires_at').notNull(),
    consumedAt: timestamps('consumed_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** Failed logins for names that match no account, counted like users.failed_logins (no oracle). */
export const loginFailuresUnknown = pgTable(
  'login_failures_unknown',
  {
    tenantId: uuid('tenant_id').notNull(),
    identifierHash: bytea('identifier_hash').notNull(),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamps('locked_until'),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.identifierHash] })],
);

export const outboxMessages = pgTable(
  'outbox_messages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    channel: text().notNull(),
    recipient: text().notNull(),
    subject: text().notNull().default(''),
    body: text().notNull(),
    purpose: text().notNull(),
    status: text().notNull().default('PENDING'),
    attempts: smallint().notNull().default(0),
    nextAttemptAt: timestamps('next_attempt_at').notNull().defaultNow(),
    provider: text(),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    sentAt: timestamps('sent_at'),
    /** Migration 0052: when the gateway reported the SMS delivered (or undelivered). */
    deliveredAt: timestamps('delivered_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const auditLog = pgTable(
  'audit_log',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    occurredAt: timestamps('occurred_at').notNull().defaultNow(),
    action: text().notNull(),
    actorUserId: uuid('actor_user_id'),
    actorTenantId: uuid('actor_tenant_id'),
    subjectUserId: uuid('subject_user_id'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ip: text(),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

// Organisation (migration 0004) ----------------------------------------------------------------

/** Migration 0052: a tenant's SMS or voice gateway, credentials sealed (messaging/gateways). */
export const tenantMessageGateways = pgTable(
  'tenant_message_gateways',
  {
    tenantId: uuid('tenant_id').notNull(),
    channel: text().notNull().$type<'SMS' | 'CALL'>(),
    provider: text().notNull().$type<'local' | 'twilio' | 'esms'>(),
    sender: text().notNull().default(''),
    credentialsCiphertext: text('credentials_ciphertext').notNull().default(''),
    callbackKey: text('callback_key').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
    updatedBy: uuid('updated_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.channel] })],
);
export type TenantMessageGatewayRow = typeof tenantMessageGateways.$inferSelect;

/** Migration 0056: a tenant's payment configuration, provider keys sealed (modules/payments). */
export const tenantPaymentConfigs = pgTable('tenant_payment_configs', {
  tenantId: uuid('tenant_id').primaryKey(),
  partnerStatus: text('partner_status').notNull().$type<'VERIFIED' | 'NOT_VERIFIED'>().default('NOT_VERIFIED'),
  partnerId: text('partner_id'),
  partnerVerifiedAt: timestamps('partner_verified_at'),
  method: text().$type<'VNPAY' | 'STRIPE' | 'SANDBOX'>(),
  credentialsCiphertext: text('credentials_ciphertext').notNull().default(''),
  publishableKey: text('publishable_key').notNull().default(''),
  callbackKey: text('callback_key'),
  methodVerifiedAt: timestamps('method_verified_at'),
  taxRate: integer('tax_rate'),
  updatedAt: timestamps('updated_at').notNull(),
  updatedBy: uuid('updated_by'),
});
export type TenantPaymentConfigRow = typeof tenantPaymentConfigs.$inferSelect;

export const tenantConnections = pgTable(
  'tenant_connections',
  {
    tenantId: uuid('tenant_id').notNull(),
    kind: text().notNull(),
    host: text().notNull(),
    port: integer().notNull(),
    databaseName: text('database_name').notNull(),
    username: text().notNull(),
    passwordCiphertext: text('password_ciphertext').notNull(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    /** Migration 0006. */
    sslMode: text('ssl_mode').notNull().default('disable'),
    /** Migration 0019: '<system identifier>:<database oid>' of the database reached (connection-guard.ts). */
    targetIdentity: text('target_identity'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.kind] })],
);

export const tenantEmailTemplates = pgTable(
  'tenant_email_templates',
  {
    tenantId: uuid('tenant_id').notNull(),
    key: text().notNull(),
    language: text().notNull(),
    subject: text().notNull(),
    body: text().notNull(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.key, table.language] })],
);

export const tenantRequests = pgTable('tenant_requests', {
  id: uuid().primaryKey(),
  type: text().notNull().default('TRIAL'),
  status: text().notNull().default('NEW'),
  organizationName: text('organization_name').notNull(),
  officialName: text('official_name').notNull().default(''),
  requestedCode: text('requested_code').notNull(),
  requesterName: text('requester_name').notNull(),
  email: text().notNull(),
  phone: text().notNull().default(''),
  primaryColor: text('primary_color').notNull().default(''),
  message: text().notNull().default(''),
  logoSquareFile: text('logo_square_file').notNull(),
  logoHorizontalFile: text('logo_horizontal_file').notNull(),
  language: text().notNull().default('en'),
  rejectionReason: text('rejection_reason'),
  createdAt: timestamps('created_at').notNull().defaultNow(),
  decidedAt: timestamps('decided_at'),
  decidedBy: uuid('decided_by'),
  createdTenantId: uuid('created_tenant_id'),
});

export const platformStaffTenants = pgTable(
  'platform_staff_tenants',
  { userId: uuid('user_id').notNull(), tenantId: uuid('tenant_id').notNull() },
  (table) => [primaryKey({ columns: [table.userId, table.tenantId] })],
);

export const centerAdmins = pgTable(
  'center_admins',
  { tenantId: uuid('tenant_id').notNull(), centerId: uuid('center_id').notNull(), userId: uuid('user_id').notNull(), kind: text().notNull() },
  (table) => [primaryKey({ columns: [table.tenantId, table.centerId, table.userId] })],
);

export const scopeAdmins = pgTable(
  'scope_admins',
  { tenantId: uuid('tenant_id').notNull(), scopeId: uuid('scope_id').notNull(), userId: uuid('user_id').notNull(), kind: text().notNull() },
  (table) => [primaryKey({ columns: [table.tenantId, table.scopeId, table.userId] })],
);

export const doctorAssistants = pgTable(
  'doctor_assistants',
  { tenantId: uuid('tenant_id').notNull(), assistantId: uuid('assistant_id').notNull(), doctorId: uuid('doctor_id').notNull() },
  (table) => [primaryKey({ columns: [table.tenantId, table.assistantId, table.doctorId] })],
);

export const userLevels = pgTable(
  'user_levels',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id').notNull(),
    role: text().notNull(),
    customRoleId: uuid('custom_role_id'),
    scopeId: uuid('scope_id'),
    healthCenterId: uuid('health_center_id'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export * from './schema-feedback.js';
