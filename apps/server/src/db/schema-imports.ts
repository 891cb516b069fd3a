/** Import jobs (migration 0011). Mirrors the SQL; schema.int.test.ts checks drift. */
import { bigint, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const importJobs = pgTable(
  'import_jobs',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    kind: text().notNull(),
    status: text().notNull().default('QUEUED'),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    rowsProcessed: integer('rows_processed').notNull().default(0),
    rowsStored: integer('rows_stored').notNull().default(0),
    rowsFailed: integer('rows_failed').notNull().default(0),
    errorFileKey: text('error_file_key'),
    failureCode: text('failure_code'),
    createdBy: uuid('created_by').notNull(),
    createdByName: text('created_by_name').notNull().default(''),
    language: text().notNull().default('en'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    startedAt: timestamps('started_at'),
    finishedAt: timestamps('finished_at'),
    heartbeatAt: timestamps('heartbeat_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
