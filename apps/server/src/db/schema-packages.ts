/** Service packages, add-ons and subscriptions (migration 0054). Mirrors the SQL; schema.int.test.ts checks drift. */
import { bigint, boolean, date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const servicePackages = pgTable(
  'service_packages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    code: text().notNull(),
    kind: text().notNull(),
    name: text().notNull(),
    level: text(),
    plan: text(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    currency: text().notNull(),
    durationMonths: integer('duration_months').notNull(),
    useLimit: integer('use_limit').notNull().default(-1),
    storageCount: integer('storage_count').notNull().default(-1),
    followerLimit: integer('follower_limit').notNull().default(-1),
    subUserLimit: integer('sub_user_limit').notNull().default(-1),
    userFeatures: text('user_features').array().notNull().default([]),
    relativeFeatures: text('relative_features').array().notNull().default([]),
    icon: text().notNull().default(''),
    description: text().notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    enabled: boolean().notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type ServicePackageRow = typeof servicePackages.$inferSelect;

export const subscriptions = pgTable(
  'subscriptions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    packageId: uuid('package_id').notNull(),
    kind: text().notNull(),
    status: text().notNull(),
    source: text().notNull(),
    startsAt: timestamps('starts_at').notNull(),
    endsAt: timestamps('ends_at'),
    nextExtendAt: timestamps('next_extend_at'),
    remainingTurns: integer('remaining_turns'),
    receiptId: text('receipt_id'),
    endedAt: timestamps('ended_at'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type SubscriptionRow = typeof subscriptions.$inferSelect;

export const codePackages = pgTable(
  'code_packages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    name: text().notNull(),
    type: text().notNull(),
    prefix: text().notNull(),
    totalCodes: integer('total_codes').notNull(),
    availableFrom: date('available_from', { mode: 'string' }).notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    purpose: text().notNull(),
    benefit: text().notNull(),
    packageId: uuid('package_id').notNull(),
    recipientOrganization: text('recipient_organization').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type CodePackageRow = typeof codePackages.$inferSelect;

export const activationCodes = pgTable(
  'activation_codes',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    codePackageId: uuid('code_package_id').notNull(),
    series: text().notNull(),
    codeHash: text('code_hash').notNull(),
    state: text().notNull().default('NOT_PAID'),
    lockedFrom: text('locked_from'),
    purchasedAt: timestamps('purchased_at'),
    activatedAt: timestamps('activated_at'),
    activatedFor: uuid('activated_for'),
    activatedBy: uuid('activated_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type ActivationCodeRow = typeof activationCodes.$inferSelect;

export const activationAttempts = pgTable(
  'activation_attempts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id').notNull(),
    series: text().notNull(),
    succeeded: boolean().notNull(),
    attemptedAt: timestamps('attempted_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
