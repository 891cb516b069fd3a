/** The care plan (migration 0038). Mirrors the SQL; schema.int.test.ts checks drift. */
import type { ReminderSchedule } from '@rpm/contracts';
import {
  date,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

/** Never edited in place: an edit deactivates it and its successor names it in replacesId. */
export const prescriptions = pgTable(
  'prescriptions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    name: text().notNull(),
    rxNumber: text('rx_number'),
    diagnosis: text(),
    doctorInChargeId: uuid('doctor_in_charge_id').notNull(),
    noteForPatient: text('note_for_patient'),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    refills: smallint().notNull().default(0),
    replacesId: uuid('replaces_id'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamps('created_at').notNull(),
    deactivatedAt: timestamps('deactivated_at'),
    deactivatedBy: uuid('deactivated_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const prescriptionMedicines = pgTable(
  'prescription_medicines',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    prescriptionId: uuid('prescription_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    position: smallint().notNull(),
    catalogueId: text('catalogue_id'),
    name: text().notNull(),
    /** numeric(6,3): exact thousandths, so the §5 steps (0.125, 0.33 …) are stored as typed. */
    dose: numeric({ precision: 6, scale: 3 }).notNull(),
    doseUnit: text('dose_unit').notNull(),
    strength: text(),
    quantity: integer(),
    sideEffects: text('side_effects'),
    instructions: text(),
    note: text(),
    route: text().notNull(),
    form: text().notNull(),
    frequencyCycle: text('frequency_cycle').notNull(),
    timesOfDay: text('times_of_day').array().notNull().default([]),
    meal: text().notNull(),
    imageId: uuid('image_id'),
    color: text(),
    mode: text().notNull(),
    /** Null exactly for a medicine taken on demand (spec §5). */
    schedule: jsonb().$type<ReminderSchedule>(),
    /** How far ahead its doses are made (migration 0041). */
    dosesMadeUntil: timestamps('doses_made_until'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const medicationIntakes = pgTable(
  'medication_intakes',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    medicineId: uuid('medicine_id').notNull(),
    dueAt: timestamps('due_at').notNull(),
    localDate: date('local_date').notNull(),
    localTime: text('local_time').notNull(),
    label: text().notNull(),
    state: text().notNull().default('TO_TAKE'),
    answeredAt: timestamps('answered_at'),
    answeredBy: uuid('answered_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** A reminder on a patient that is not a medicine's dose (migration 0039); deleted rows are kept. */
export const careReminders = pgTable(
  'care_reminders',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    title: text().notNull(),
    note: text(),
    schedule: jsonb().$type<ReminderSchedule>().notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamps('created_at').notNull(),
    deletedAt: timestamps('deleted_at'),
    deletedBy: uuid('deleted_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** The patient's own event reminders, "My Events" (migration 0040). */
export const patientEvents = pgTable(
  'patient_events',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    arrivalAt: timestamps('arrival_at').notNull(),
    label: text().notNull(),
    icon: text().notNull(),
    note: text(),
    location: text(),
    organizer: text(),
    status: text().notNull().default('PLANNED'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
