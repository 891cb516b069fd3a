/** Coupons, orders, their items and the daily CDR files (migration 0057). Mirrors the SQL; schema.int.test.ts checks drift. */
import type { Currency, FulfilmentState, OrderStatus, OrderType, PaymentMethod, PurchaseChannel, RetailChannel } from '@rpm/contracts';
import { bigint, boolean, date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, timestamps } from './schema-columns.js';

export const coupons = pgTable(
  'coupons',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    code: text().notNull(),
    kind: text().notNull().$type<'PERCENT' | 'AMOUNT'>(),
    value: bigint({ mode: 'number' }).notNull(),
    currency: text().$type<Currency>(),
    validFrom: timestamps('valid_from').notNull(),
    validTo: timestamps('valid_to').notNull(),
    maxUses: integer('max_uses').notNull(),
    usedCount: integer('used_count').notNull().default(0),
    enabled: boolean().notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type CouponRow = typeof coupons.$inferSelect;

export const orders = pgTable(
  'orders',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    code: text().notNull(),
    patientId: uuid('patient_id').notNull(),
    customerName: text('customer_name').notNull(),
    customerPhone: text('customer_phone').notNull().default(''),
    packageName: text('package_name').notNull(),
    type: text().notNull().$type<OrderType>(),
    status: text().notNull().$type<OrderStatus>(),
    currency: text().notNull().$type<Currency>(),
    subtotalMinor: bigint('subtotal_minor', { mode: 'number' }).notNull(),
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull(),
    taxRate: integer('tax_rate').notNull(),
    taxMinor: bigint('tax_minor', { mode: 'number' }).notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    couponId: uuid('coupon_id'),
    couponCode: text('coupon_code'),
    method: text().$type<PaymentMethod>(),
    purchaseChannel: text('purchase_channel').notNull().$type<PurchaseChannel>(),
    retailChannel: text('retail_channel').notNull().$type<RetailChannel>(),
    providerReference: text('provider_reference'),
    result: text(),
    fulfilment: text().notNull().default('PENDING').$type<FulfilmentState>(),
    fulfilmentError: text('fulfilment_error'),
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    refundReason: text('refund_reason'),
    refundedAt: timestamps('refunded_at'),
    refundedBy: uuid('refunded_by'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    expiresAt: timestamps('expires_at').notNull(),
    completedAt: timestamps('completed_at'),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type OrderRow = typeof orders.$inferSelect;

export const orderItems = pgTable(
  'order_items',
  {
    tenantId: uuid('tenant_id').notNull(),
    orderId: uuid('order_id').notNull(),
    line: integer().notNull(),
    packageId: uuid('package_id'),
    productId: text('product_id').notNull(),
    name: text().notNull(),
    category: text().notNull().$type<'PACKAGE' | 'ADDON'>(),
    unitMinor: bigint('unit_minor', { mode: 'number' }).notNull(),
    quantity: integer().notNull(),
    discountMinor: bigint('discount_minor', { mode: 'number' }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.orderId, table.line] })],
);
export type OrderItemRow = typeof orderItems.$inferSelect;

export const cdrFiles = pgTable(
  'cdr_files',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    day: date().notNull(),
    fileName: text('file_name').notNull(),
    rows: integer().notNull(),
    content: bytea().notNull(),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
