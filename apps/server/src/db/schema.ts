/**
 * Drizzle table definitions mirroring the SQL migrations (migrations/*.sql are the source of
 * truth for DDL, RLS and grants; schema.test.ts fails when the two drift apart).
 */
import {
  boolean,
  customType,
  date,
  doublePrecision,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const timestamps = (name?: string) =>
  name === undefined ? timestamp({ withTimezone: true, mode: 'date' }) : timestamp(name, { withTimezone: true, mode: 'date' });

// Control plane: reached only through the system store.

export const tenants = pgTable('tenants', {
  id: uuid().primaryKey(),
  code: text().notNull(),
  name: text().notNull(),
  officialName: text('official_name').notNull().default(''),
  status: text().notNull().default('ACTIVE'),
  connectionType: text('connection_type').notNull().default('SHARED'),
  isPlatform: boolean('is_platform').notNull().default(false),
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
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const patients = pgTable(
  'patients',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id'),
    patientCode: text('patient_code').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    birthday: date({ mode: 'string' }),
    gender: text(),
    phone: text(),
    email: text(),
    status: text().notNull().default('NORMAL'),
    healthCenterId: uuid('health_center_id'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const devices = pgTable(
  'devices',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    model: text().notNull(),
    serialNumber: text('serial_number').notNull(),
    macAddress: text('mac_address'),
    imei: text(),
    patientId: uuid('patient_id'),
    connectionStatus: smallint('connection_status').notNull().default(-1),
    importedAt: timestamps('imported_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
