/** Patients (migrations 0001, 0008, 0042, 0061, 0062, 0063). Mirrors the SQL; schema.int.test.ts checks drift. */
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import type { MedicalRecordType } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { timestamps } from './schema-columns.js';

export const patients = pgTable(
  'patients',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    userId: uuid('user_id'),
    patientCode: text('patient_code').notNull(),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name').notNull().default(''),
    lastName: text('last_name').notNull(),
    birthday: date({ mode: 'string' }),
    gender: text(),
    phone: text(),
    email: text(),
    /** Migration 0061: lower(email), generated; the unique key of emails (patients_email_key). */
    emailLower: text('email_lower').generatedAlwaysAs(sql`lower(email)`),
    status: text().notNull().default('NORMAL'),
    healthCenterId: uuid('health_center_id'),
    heightCm: doublePrecision('height_cm'),
    weightKg: doublePrecision('weight_kg'),
    bloodType: text('blood_type'),
    addressLine: text('address_line').notNull().default(''),
    addressWard: text('address_ward').notNull().default(''),
    addressDistrict: text('address_district').notNull().default(''),
    addressProvince: text('address_province').notNull().default(''),
    addressCountry: text('address_country').notNull().default(''),
    avatarFile: text('avatar_file'),
    medicalNotes: text('medical_notes').notNull().default(''),
    contractId: text('contract_id'),
    packageCode: text('package_code'),
    packageExpiresAt: date('package_expires_at', { mode: 'string' }),
    accountState: text('account_state').notNull().default('ACTIVE'),
    deletionRequestedAt: timestamps('deletion_requested_at'),
    purgeAfter: timestamps('purge_after'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    /** Migration 0013 (vitals). */
    alertsSuppressedUntilNormal: boolean('alerts_suppressed_until_normal').notNull().default(false),
    lastReadingAt: timestamps('last_reading_at'),
    accountKind: text('account_kind').notNull().default('MAIN'),
    /** Migration 0024 (status lifecycle, contracts status-lifecycle.ts). */
    alertEpisodeLevel: text('alert_episode_level').notNull().default('NORMAL'),
    levelEvidence: jsonb('level_evidence').$type<Record<string, number>>().notNull().default({}),
    /** Migration 0037 (sub-users, contracts sub-users.ts): the account holding a SUB_USER. */
    holderUserId: uuid('holder_user_id'),
    relation: text(),
    smoking: boolean(),
    treatedConditions: text('treated_conditions').array().notNull().default([]),
    /**
     * Migration 0062 (the list at scale), kept by triggers: when the open SOS case was opened,
     * whether a bound watch is silent, and the severity rank they and the status give (open case 5,
     * SOS 4, HIGH_RISK 3, AT_RISK 2, silent watch 1, NORMAL 0), indexed in the list's order.
     */
    openSosOpenedAt: timestamps('open_sos_opened_at'),
    noData: boolean('no_data').notNull().default(false),
    triageRank: smallint('triage_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE WHEN open_sos_opened_at IS NOT NULL THEN 5 WHEN status = 'SOS' THEN 4 WHEN status = 'HIGH_RISK' THEN 3 WHEN status = 'AT_RISK' THEN 2 WHEN no_data THEN 1 ELSE 0 END`,
      ),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type PatientRow = typeof patients.$inferSelect;

/**
 * Live patients per health center (null: none) and status (migration 0062): a key's count is the
 * sum of its rows, appended by triggers on patients and folded by fold_patient_counts(). Read
 * only: the application never writes it.
 */
export const patientCounts = pgTable(
  'patient_counts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    healthCenterId: uuid('health_center_id'),
    status: text().notNull(),
    patients: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/**
 * The patient list's search terms (migration 0063): one row per live patient and term (word
 * prefixes of names, patient id, email, phone digits), kept by triggers on patients; the primary
 * key is the search's index (term in "C" collation). Read only: the application never writes it.
 */
export const patientSearchTerms = pgTable(
  'patient_search_terms',
  {
    tenantId: uuid('tenant_id').notNull(),
    term: text().notNull(),
    patientId: uuid('patient_id').notNull(),
    healthCenterId: uuid('health_center_id'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.term, table.patientId] })],
);

/**
 * Each live patient's search terms as one array (migration 0070), kept from patient_search_terms by
 * its triggers, under a GIN index: the words of a search are intersected there. Read only through
 * patient_search_matching (the application role has no grant).
 */
export const patientSearchDocuments = pgTable(
  'patient_search_documents',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    healthCenterId: uuid('health_center_id'),
    terms: text().array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId] })],
);

/**
 * Patients whose search terms are still to be written (migration 0065): an import's inserts leave
 * their ids here and patient_search_flush() writes their terms in one sorted pass. Neither read nor
 * written by the application directly.
 */
export const patientSearchBacklog = pgTable(
  'patient_search_backlog',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId] })],
);

export const patientCodeSequences = pgTable('patient_code_sequences', {
  tenantId: uuid('tenant_id').notNull().primaryKey(),
  prefix: text().notNull().default('BNCS'),
  nextValue: bigint('next_value', { mode: 'number' }).notNull().default(10001),
});

export const patientStatusChanges = pgTable(
  'patient_status_changes',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    reason: text().notNull(),
    /** Migration 0024: the reason as data (contracts STATUS_REASON_CODES), rendered translated. */
    reasonCode: text('reason_code'),
    reasonParams: jsonb('reason_params').$type<Record<string, string | number>>().notNull().default({}),
    changedBy: uuid('changed_by'),
    changedAt: timestamps('changed_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const patientFiles = pgTable(
  'patient_files',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    name: text().notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    /** The medical record the file is attached to (migration 0042). */
    recordId: uuid('record_id').notNull(),
    uploadedBy: uuid('uploaded_by'),
    uploadedAt: timestamps('uploaded_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** Medical records (migration 0042): the patient files are their attachments. */
export const medicalRecords = pgTable(
  'medical_records',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    title: text().notNull(),
    recordType: text('record_type').$type<MedicalRecordType>().notNull(),
    examinedOn: date('examined_on', { mode: 'string' }).notNull(),
    place: text(),
    doctorName: text('doctor_name'),
    note: text(),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamps('updated_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const patientDoctors = pgTable(
  'patient_doctors',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    doctorId: uuid('doctor_id').notNull(),
    relation: text().notNull(),
    assignedAt: timestamps('assigned_at').notNull().defaultNow(),
    assignedBy: uuid('assigned_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId, table.doctorId] })],
);
