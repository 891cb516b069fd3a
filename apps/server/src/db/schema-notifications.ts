/** The notification centre (migration 0047). Mirrors the SQL; schema.int.test.ts checks drift. */
import { boolean, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const notifications = pgTable(
  'notifications',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    recipientId: uuid('recipient_id').notNull(),
    type: text().notNull(),
    kind: text().notNull(),
    params: jsonb().$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    title: text(),
    body: text(),
    link: text(),
    force: boolean().notNull().default(false),
    patientId: uuid('patient_id'),
    senderId: uuid('sender_id'),
    createdAt: timestamps('created_at').notNull(),
    readAt: timestamps('read_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    tenantId: uuid('tenant_id').notNull(),
    userId: uuid('user_id').notNull(),
    type: text().notNull(),
    channel: text().notNull(),
    enabled: boolean().notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.userId, table.type, table.channel] })],
);

/** Browsers' Web Push subscriptions (migration 0048). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id').notNull(),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text('user_agent'),
    createdAt: timestamps('created_at').notNull(),
    lastSentAt: timestamps('last_sent_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
