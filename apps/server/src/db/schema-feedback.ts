/** Feedback, its images and customer care's replies (migration 0049). Mirrors the SQL; schema.int.test.ts checks drift. */
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const feedback = pgTable(
  'feedback',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    senderId: uuid('sender_id').notNull(),
    senderKind: text('sender_kind').notNull(),
    healthCenterId: uuid('health_center_id'),
    type: text().notNull(),
    category: text().notNull(),
    description: text().notNull(),
    suggestion: text(),
    status: text().notNull().default('NEW'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const feedbackImages = pgTable(
  'feedback_images',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    feedbackId: uuid('feedback_id').notNull(),
    position: integer().notNull(),
    name: text().notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    storageKey: text('storage_key').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const feedbackReplies = pgTable(
  'feedback_replies',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    feedbackId: uuid('feedback_id').notNull(),
    authorId: uuid('author_id'),
    body: text().notNull(),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
