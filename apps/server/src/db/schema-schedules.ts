/** Doctor schedules and appointments (migrations 0043, 0044). Mirrors the SQL; schema.int.test.ts checks drift. */
import type { AppointmentPlace, AppointmentStatus, ScheduleKind, ScheduleStatus } from '@rpm/contracts';
import { boolean, date, pgTable, primaryKey, smallint, text, time, uuid } from 'drizzle-orm/pg-core';
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

/** Appointments in the slots of approved schedules (migration 0044). */
export const appointments = pgTable(
  'appointments',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    doctorId: uuid('doctor_id').notNull(),
    scheduleId: uuid('schedule_id').notNull(),
    startsAt: timestamps('starts_at').notNull(),
    endsAt: timestamps('ends_at').notNull(),
    reason: text().notNull(),
    note: text(),
    place: text().$type<AppointmentPlace>().notNull(),
    paid: boolean().notNull().default(false),
    status: text().$type<AppointmentStatus>().notNull(),
    diagnosis: text(),
    advice: text(),
    cancelReason: text('cancel_reason'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
    /** When the 24-hour and 15-minute reminders were queued (migration 0045). */
    reminded24hAt: timestamps('reminded_24h_at'),
    reminded15mAt: timestamps('reminded_15m_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
