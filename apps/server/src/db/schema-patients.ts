/** Patients (migrations 0001, 0008). Mirrors the SQL; schema.int.test.ts checks drift. */
import { date, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const patients = pgTable(
  'patients',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id'),
    patientCode: text('patient_code').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    birthday: date({ mode: 'string' }),
    gender: text(),
    phone: text(),
    email: text(),
    status: text().notNull().default('NORMAL'),
    healthCenterId: uuid('health_center_id'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
