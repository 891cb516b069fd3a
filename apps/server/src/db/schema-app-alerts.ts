/** The patient app's alerts: SOS voice recordings and notification read marks (migration 0034). Mirrors the SQL; schema.int.test.ts checks drift. */
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const sosRecordings = pgTable(
  'sos_recordings',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    sosCaseId: uuid('sos_case_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    uploadId: uuid('upload_id').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    durationSeconds: integer('duration_seconds').notNull(),
    storageKey: text('storage_key').notNull(),
    recordedBy: uuid('recorded_by').notNull(),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type SosRecordingRow = typeof sosRecordings.$inferSelect;

export const alertReads = pgTable(
  'alert_reads',
  {
    tenantId: uuid('tenant_id').notNull(),
    alertId: uuid('alert_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    readAt: timestamps('read_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.alertId] })],
);
