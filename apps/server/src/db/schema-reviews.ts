/** Ratings and reviews (migration 0050). Mirrors the SQL; schema.int.test.ts checks drift. */
import { integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const doctorReviews = pgTable(
  'doctor_reviews',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    doctorId: uuid('doctor_id').notNull(),
    appointmentId: uuid('appointment_id'),
    rating: smallint().notNull(),
    message: text().notNull().default(''),
    authorInitial: text('author_initial').notNull().default(''),
    reportMessage: text('report_message'),
    reportedAt: timestamps('reported_at'),
    reportedBy: uuid('reported_by'),
    hiddenReason: text('hidden_reason'),
    hiddenAt: timestamps('hidden_at'),
    hiddenBy: uuid('hidden_by'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const doctorReviewImages = pgTable(
  'doctor_review_images',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    reviewId: uuid('review_id').notNull(),
    position: smallint().notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
