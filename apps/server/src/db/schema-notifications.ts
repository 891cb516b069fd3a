/** The notification centre (migration 0047). Mirrors the SQL; schema.int.test.ts checks drift. */
import { boolean, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
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

/** Announcements (migration 0051): composed by admins, fanned out as `announcement.published` notices. */
export const announcements = pgTable(
  'announcements',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    title: text().notNull(),
    bodyHtml: text('body_html').notNull(),
    status: text().notNull(),
    audienceScopeId: uuid('audience_scope_id'),
    audienceCenterId: uuid('audience_center_id'),
    audienceStaffRoles: text('audience_staff_roles').array().notNull().default([]),
    audiencePatients: boolean('audience_patients').notNull(),
    channelPush: boolean('channel_push').notNull(),
    channelEmail: boolean('channel_email').notNull(),
    publishAt: timestamps('publish_at'),
    publishedAt: timestamps('published_at'),
    canceledAt: timestamps('canceled_at'),
    deliveredThrough: uuid('delivered_through'),
    deliveredCount: integer('delivered_count').notNull().default(0),
    deliveryDone: boolean('delivery_done').notNull().default(false),
    authorId: uuid('author_id').notNull(),
    authorName: text('author_name').notNull(),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
