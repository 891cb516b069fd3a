/** Real-time events outbox (migration 0012). Mirrors the SQL; schema.int.test.ts checks drift. */
import { bigint, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const events = pgTable(
  'events',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    type: text().notNull(),
    patientId: uuid('patient_id'),
    healthCenterId: uuid('health_center_id'),
    recipientUserId: uuid('recipient_user_id'),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamps('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/**
 * Video call signalling relayed between server processes (migration 0046; realtime/call-relay.ts
 * writes and reads it with SQL): a control-plane table, no tenant rows.
 */
export const callSignals = pgTable('call_signals', {
  id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
  recipientUserId: uuid('recipient_user_id').notNull(),
  message: jsonb().$type<Record<string, unknown>>().notNull(),
  createdAt: timestamps('created_at').notNull().defaultNow(),
});
