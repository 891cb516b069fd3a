/** Alerting: followers, alerts, SOS cases, tickets, calls (migration 0014). Mirrors the SQL; schema.int.test.ts checks drift. */
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, timestamps } from './schema-columns.js';

/** A vital sign as stored in jsonb columns (canonical units). */
export interface StoredVital {
  measure: string;
  value: number;
  measuredAt: string;
}

export const alertSettings = pgTable(
  'alert_settings',
  {
    tenantId: uuid('tenant_id').notNull(),
    highRiskConfirmSeconds: integer('high_risk_confirm_seconds').notNull().default(15),
    sosKpiMinutes: integer('sos_kpi_minutes').notNull().default(5),
    /** Migration 0024: minutes within a lower level before the status comes down. */
    statusSettleMinutes: integer('status_settle_minutes').notNull().default(30),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId] })],
);

export const patientContacts = pgTable(
  'patient_contacts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    contactType: text('contact_type').notNull(),
    name: text().notNull(),
    phone: text().notNull(),
    relationship: text().notNull(),
    invitationStatus: text('invitation_status').notNull().default('SENT'),
    favourite: boolean().notNull().default(false),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    /** Migration 0037 (invitations, contracts followers.ts). */
    followerUserId: uuid('follower_user_id'),
    invitedBy: uuid('invited_by'),
    lastSentAt: timestamps('last_sent_at').notNull().defaultNow(),
    confirmedAt: timestamps('confirmed_at'),
    deletedAt: timestamps('deleted_at'),
    hiddenKinds: text('hidden_kinds').array().notNull().default([]),
    /** HMAC of the last invitation SMS's one-time code (never leaves the server); null once answered. */
    invitationCodeHash: bytea('invitation_code_hash'),
    invitationCodeAttempts: integer('invitation_code_attempts').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type PatientContactRow = typeof patientContacts.$inferSelect;

/** Migration 0037: one row per confirmed follower, kept by a trigger from patient_contacts (read only). */
export const followerGrants = pgTable(
  'follower_grants',
  {
    tenantId: uuid('tenant_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    followerUserId: uuid('follower_user_id').notNull(),
    hiddenKinds: text('hidden_kinds').array().notNull().default([]),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.contactId] })],
);

export const sosCases = pgTable(
  'sos_cases',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    status: text().notNull().default('NEW'),
    reason: text().notNull(),
    source: text().notNull(),
    vitals: jsonb().$type<StoredVital[]>().notNull().default([]),
    locationLat: doublePrecision('location_lat'),
    locationLng: doublePrecision('location_lng'),
    openedAt: timestamps('opened_at').notNull(),
    assignedTo: uuid('assigned_to'),
    acceptedAt: timestamps('accepted_at'),
    kpiDueAt: timestamps('kpi_due_at').notNull(),
    kpiFailed: boolean('kpi_failed').notNull().default(false),
    resolvedAt: timestamps('resolved_at'),
    closedAt: timestamps('closed_at'),
    closeReason: text('close_reason'),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type SosCaseRow = typeof sosCases.$inferSelect;

export const sosCaseActions = pgTable(
  'sos_case_actions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    sosCaseId: uuid('sos_case_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    kind: text().notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    note: text().notNull().default(''),
    actorId: uuid('actor_id'),
    at: timestamps().notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const alerts = pgTable(
  'alerts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    type: text().notNull(),
    level: text().notNull(),
    measureValues: jsonb('measure_values').$type<StoredVital[]>().notNull().default([]),
    status: text().notNull().default('OPEN'),
    source: text().notNull(),
    answer: text().notNull().default('NONE'),
    sosCaseId: uuid('sos_case_id'),
    createdAt: timestamps('created_at').notNull(),
    acknowledgedAt: timestamps('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by'),
    resolvedAt: timestamps('resolved_at'),
    resolvedBy: uuid('resolved_by'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type AlertRow = typeof alerts.$inferSelect;

export const ticketNumbers = pgTable(
  'ticket_numbers',
  {
    tenantId: uuid('tenant_id').notNull(),
    nextValue: bigint('next_value', { mode: 'number' }).notNull().default(1),
  },
  (table) => [primaryKey({ columns: [table.tenantId] })],
);

export const tickets = pgTable(
  'tickets',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    number: bigint({ mode: 'number' }).notNull(),
    type: text().notNull(),
    status: text().notNull().default('NEW'),
    title: text().notNull(),
    description: text().notNull().default(''),
    patientId: uuid('patient_id').notNull(),
    sosCaseId: uuid('sos_case_id'),
    assigneeId: uuid('assignee_id'),
    currentAction: text('current_action').notNull().default(''),
    sosAt: timestamps('sos_at'),
    locationLat: doublePrecision('location_lat'),
    locationLng: doublePrecision('location_lng'),
    healthIndicators: jsonb('health_indicators').$type<StoredVital[]>().notNull().default([]),
    kpiDueAt: timestamps('kpi_due_at').notNull(),
    kpiFailureReason: text('kpi_failure_reason'),
    kpiRating: smallint('kpi_rating'),
    customerRating: smallint('customer_rating'),
    customerRatingMessage: text('customer_rating_message').notNull().default(''),
    customerRatedAt: timestamps('customer_rated_at'),
    customerRatedBy: uuid('customer_rated_by'),
    cancelReason: text('cancel_reason'),
    createdBy: uuid('created_by'),
    createdAt: timestamps('created_at').notNull(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    closedAt: timestamps('closed_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type TicketRow = typeof tickets.$inferSelect;

export const ticketHistory = pgTable(
  'ticket_history',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    ticketId: uuid('ticket_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    action: text().notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    note: text().notNull().default(''),
    actorId: uuid('actor_id'),
    at: timestamps().notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const calls = pgTable(
  'calls',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    sosCaseId: uuid('sos_case_id'),
    contactId: uuid('contact_id'),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    toName: text('to_name').notNull().default(''),
    purpose: text().notNull(),
    provider: text(),
    providerCallId: text('provider_call_id'),
    status: text().notNull().default('PENDING'),
    attempts: smallint().notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamps('created_at').notNull(),
    startedAt: timestamps('started_at'),
    endedAt: timestamps('ended_at'),
    /** Migration 0052: when the callee picked up (gateways that report it). */
    answeredAt: timestamps('answered_at'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
export type CallRow = typeof calls.$inferSelect;

export const patientMessages = pgTable(
  'patient_messages',
  {
    tenantId: uuid('tenant_id').notNull(),
    messageId: uuid('message_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    sosCaseId: uuid('sos_case_id'),
    contactId: uuid('contact_id'),
    fromNumber: text('from_number').notNull().default(''),
    toName: text('to_name').notNull().default(''),
    createdAt: timestamps('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.messageId] })],
);
