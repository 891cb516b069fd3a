/** Payment attempts and the providers' verified callbacks (migration 0056). Mirrors the SQL; schema.int.test.ts checks drift. */
import { bigint, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    method: text().notNull().$type<'VNPAY' | 'STRIPE' | 'SANDBOX'>(),
    orderId: text('order_id').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text().notNull().$type<'VND' | 'USD' | 'CAD'>(),
    description: text().notNull(),
    returnUrl: text('return_url').notNull(),
    status: text().notNull().$type<'PENDING' | 'SUCCESS' | 'FAILED' | 'REFUNDED'>(),
    result: text(),
    providerCode: text('provider_code'),
    providerReference: text('provider_reference'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    completedAt: timestamps('completed_at'),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type PaymentAttemptRow = typeof paymentAttempts.$inferSelect;

export const paymentCallbacks = pgTable(
  'payment_callbacks',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    attemptId: uuid('attempt_id'),
    method: text().notNull().$type<'VNPAY' | 'STRIPE' | 'SANDBOX'>(),
    eventKey: text('event_key').notNull(),
    status: text().notNull().$type<'PENDING' | 'SUCCESS' | 'FAILED' | 'REFUNDED'>(),
    outcome: text().notNull().$type<'APPLIED' | 'IGNORED' | 'REFUSED'>(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    receivedAt: timestamps('received_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
