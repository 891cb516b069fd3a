/** Doctor profiles, care teams and requests (migration 0009), license expiry reminders (0031). Mirrors the SQL; schema.int.test.ts checks drift. */
import { date, integer, numeric, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const doctorProfiles = pgTable(
  'doctor_profiles',
  {
    tenantId: uuid('tenant_id').notNull(),
    doctorId: uuid('doctor_id').notNull(),
    specialties: text().array().notNull().default([]),
    degreeCode: smallint('degree_code'),
    placeOfEducation: text('place_of_education').notNull().default(''),
    yearsOfExperience: smallint('years_of_experience'),
    examinationCost: numeric('examination_cost', { precision: 12, scale: 2, mode: 'number' }),
    officeAddress: text('office_address').notNull().default(''),
    officeEmail: text('office_email').notNull().default(''),
    officePhone: text('office_phone').notNull().default(''),
    introduction: text().notNull().default(''),
    kind: text().notNull().default('SPECIALIST'),
    ratingAverage: numeric('rating_average', { precision: 3, scale: 2, mode: 'number' }).notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.doctorId] })],
);

export const doctorLicenses = pgTable(
  'doctor_licenses',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    doctorId: uuid('doctor_id').notNull(),
    name: text().notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    imageFile: text('image_file'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** One row per license, expiry date and threshold whose reminder e-mail was queued (migration 0031). */
export const licenseExpiryReminders = pgTable(
  'license_expiry_reminders',
  {
    tenantId: uuid('tenant_id').notNull(),
    licenseId: uuid('license_id').notNull(),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    thresholdDays: smallint('threshold_days').notNull(),
    sentAt: timestamps('sent_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.licenseId, table.expiresOn, table.thresholdDays] })],
);

export const careRequests = pgTable(
  'care_requests',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    kind: text().notNull(),
    requesterId: uuid('requester_id').notNull(),
    recipientId: uuid('recipient_id'),
    patientId: uuid('patient_id').notNull(),
    doctorId: uuid('doctor_id').notNull(),
    relation: text().notNull(),
    status: text().notNull().default('WAITING'),
    message: text().notNull().default(''),
    rejectReason: text('reject_reason'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    decidedAt: timestamps('decided_at'),
    decidedBy: uuid('decided_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
