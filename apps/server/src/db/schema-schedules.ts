/** Doctor schedules (migration 0043). Mirrors the SQL; schema.int.test.ts checks drift. */
import type { ScheduleKind, ScheduleStatus } from '@rpm/contracts';
import { date, pgTable, primaryKey, smallint, text, time, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const doctorSchedules = pgTable(
  'doctor_schedules',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    doctorId: uuid('doctor_id').notNull(),
    healthCenterId: uuid('health_center_id'),
    kind: text().$type<ScheduleKind>().notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    weekdays: smallint().array().notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    slotMinutes: smallint('slot_minutes').notNull(),
    timeZone: text('time_zone').notNull(),
    note: text(),
    status: text().$type<ScheduleStatus>().notNull(),
    requestedAt: timestamps('requested_at').notNull(),
    decidedBy: uuid('decided_by'),
    decidedAt: timestamps('decided_at'),
    reason: text(),
    deletionRequestedAt: timestamps('deletion_requested_at'),
    deletionReason: text('deletion_reason'),
    deletedAt: timestamps('deleted_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
