import { z } from 'zod';
import { phoneSchema } from './auth.js';
import {
  ALERT_TYPES,
  KPI_FAILURE_REASONS,
  SOS_CASE_ACTIONS,
  SOS_CASE_STATUSES,
  SOS_CASE_STEP_TYPES,
  TICKET_ACTIONS,
  TICKET_STATUSES,
  TICKET_TYPES,
  type TicketStatus,
} from './cases.js';
import { pageQuerySchema } from './envelope.js';
import { LIMITS } from './limits.js';
import { DEFAULT_STATUS_SETTLE_MINUTES, STATUS_SETTLE_MINUTES_RANGE } from './status-lifecycle.js';
import { safeName } from './text.js';
import { ALERT_LEVELS } from './thresholds.js';

/**
 * Alerting (spec §3 SOS case, Ticket, Alert types, SMS or call, Follower or relative; §4 alerts in
 * the patient app): the shapes the alert, SOS case, ticket, follower and message calls exchange.
 * The state machines themselves are in cases.ts.
 */

function hasNoControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code === 127) return false;
  }
  return true;
}
const controlCharacterIssue = { error: 'must not contain control characters' };
const plainText = (max: number) =>
  z.string().trim().max(max).refine(hasNoControlCharacters, controlCharacterIssue);
/** Multi-line text (reasons, notes): line breaks and tabs are fine, other control characters are not. */
const noteText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => hasNoControlCharacters(value.replace(/[\n\r\t]/g, ' ')), controlCharacterIssue);
const sortTypeSchema = z.enum(['asc', 'desc']);
const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

// Tenant alert settings --------------------------------------------------------------------------

/** Spec §9: the SOS processing KPI (minutes an SOS case may stay NEW) when the tenant sets none. */
export const DEFAULT_SOS_KPI_MINUTES = 5;

export const alertSettingsSchema = z.object({
  highRiskConfirmSeconds: z
    .number()
    .int()
    .min(5)
    .max(300)
    .describe(
      `Seconds a high-risk patient has to answer "I am fine" before followers get an SMS (default ${String(LIMITS.highRiskConfirmationSeconds)})`,
    ),
  sosKpiMinutes: z
    .number()
    .int()
    .min(1)
    .max(1440)
    .describe('Minutes an SOS case may stay NEW before its KPI fails'),
  statusSettleMinutes: z
    .number()
    .int()
    .min(STATUS_SETTLE_MINUTES_RANGE[0])
    .max(STATUS_SETTLE_MINUTES_RANGE[1])
    .optional()
    .describe(
      `Minutes readings must stay within a lower level before the status comes down by itself (default ${String(DEFAULT_STATUS_SETTLE_MINUTES)}; omitted: unchanged). docs/status-lifecycle.md`,
    ),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  highRiskConfirmSeconds: LIMITS.highRiskConfirmationSeconds,
  sosKpiMinutes: DEFAULT_SOS_KPI_MINUTES,
  statusSettleMinutes: DEFAULT_STATUS_SETTLE_MINUTES,
};

/** How long each kind of ticket may take before its KPI fails, and the reason recorded then. */
export const TICKET_KPI: Record<
  (typeof TICKET_TYPES)[number],
  { minutes: number; failure: (typeof KPI_FAILURE_REASONS)[number] }
> = {
  SOS: { minutes: DEFAULT_SOS_KPI_MINUTES, failure: 'SOS_PROCESSING_OVERDUE' },
  ALERT: { minutes: 60, failure: 'RESULT_RETURN_OVERDUE' },
  CONSULTATION: { minutes: 24 * 60, failure: 'CONSULTATION_OVERDUE' },
  SUPPORT: { minutes: 48 * 60, failure: 'RESULT_RETURN_OVERDUE' },
};

// Followers (emergency, caring and coach contacts) ------------------------------------------------

/** Spec §3 contact types of a follower (family doctor and specialists are the care team). */
export const CONTACT_TYPES = ['EMERGENCY', 'CARING', 'COACH'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];
/**
 * Spec §9: 5 emergency and 5 caring contacts per patient. The spec gives no limit for coaches;
 * the same 5 is used (docs/decisions.md).
 */
export const CONTACT_LIMITS: Record<ContactType, number> = { EMERGENCY: 5, CARING: 5, COACH: 5 };
export const RELATIONSHIPS = [
  'PARENT',
  'CHILD',
  'OLDER_SIBLING',
  'YOUNGER_SIBLING',
  'SON',
  'WIFE',
  'HUSBAND',
  'FRIEND',
  'OTHER',
] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];
/** Spec §4 relative invitation: sent, resent, confirmed, deleted (followers.ts has the moves). */
export const INVITATION_STATUSES = ['SENT', 'RESENT', 'CONFIRMED', 'DELETED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * Spec §6 "patients may hide data from followers": what a patient can hide, per follower. Every
 * measure belongs to one kind (followers.ts MEASURE_DATA_KIND; the database's
 * measure_data_kind() says the same, migration 0037).
 */
export const FOLLOWER_DATA_KINDS = [
  'HEART_RATE',
  'SPO2',
  'BLOOD_PRESSURE',
  'TEMPERATURE',
  'BLOOD_TESTS',
  'RESPIRATION',
  'BODY',
  'ACTIVITY',
  'SLEEP',
  'ECG',
] as const;
export type FollowerDataKind = (typeof FOLLOWER_DATA_KINDS)[number];

export const contactInputSchema = z.object({
  contactType: z.enum(CONTACT_TYPES),
  name: safeName(80)
    .regex(/^[^\d]*$/, { error: 'must not contain digits' })
    .describe('Alias name'),
  phone: phoneSchema,
  relationship: z.enum(RELATIONSHIPS),
  favourite: z.boolean().default(false),
});
export type ContactInput = z.infer<typeof contactInputSchema>;

export const contactSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  contactType: z.enum(CONTACT_TYPES),
  /** The alias name the patient gives the contact. */
  name: z.string(),
  phone: z.string(),
  relationship: z.enum(RELATIONSHIPS),
  invitationStatus: z.enum(INVITATION_STATUSES),
  favourite: z.boolean(),
  /** The app account that confirmed the invitation, with its name (null until confirmed). */
  follower: z.object({ userId: z.uuid(), name: z.string() }).nullable(),
  hiddenKinds: z.array(z.enum(FOLLOWER_DATA_KINDS)),
  lastSentAt: z.iso.datetime(),
  /** When the invitation may be sent again (lastSentAt + 5 minutes); null once confirmed or deleted. */
  resendAvailableAt: z.iso.datetime().nullable(),
  confirmedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type Contact = z.infer<typeof contactSchema>;

// Shared references ------------------------------------------------------------------------------

const patientRefSchema = z.object({
  id: z.uuid(),
  patientCode: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  status: z.enum(['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS']),
});
const centerRefSchema = z.object({ id: z.uuid(), name: z.string() });
const personRefSchema = z.object({ id: z.uuid(), fullName: z.string() });
export const vitalSampleSchema = z.object({
  measure: z.string(),
  value: z.number(),
  measuredAt: z.iso.datetime(),
});
export const sosLocationSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});

// Alerts -------------------------------------------------------------------------------------------

export const ALERT_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED'] as const;
export const ALERT_SOURCES = ['READING', 'FALL', 'SOS_BUTTON', 'HOTLINE_CALL', 'MANUAL', 'NO_DATA'] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

export const alertSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  type: z.enum(ALERT_TYPES),
  level: z.enum(ALERT_LEVELS),
  status: z.enum(ALERT_STATUSES),
  source: z.enum(ALERT_SOURCES),
  values: z.array(vitalSampleSchema),
  sosCaseId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  acknowledgedAt: z.iso.datetime().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertListQuerySchema = pageQuerySchema.extend({
  status: z.enum(ALERT_STATUSES).optional(),
  type: z.enum(ALERT_TYPES).optional(),
});

/** The patient app's SOS (spec §4: the SOS button after its 5-second countdown, a fall, a hotline call). */
export const sosRaiseSchema = z.object({
  source: z.enum(['SOS_BUTTON', 'FALL', 'HOTLINE_CALL']).default('SOS_BUTTON'),
  location: sosLocationSchema.nullish(),
});
/** An operator records a hotline call from a patient: an SOS case opens. */
export const hotlineSosSchema = z.object({
  note: noteText(500).default(''),
  location: sosLocationSchema.nullish(),
});
export const alertAnswerSchema = z.object({
  state: z.enum(['NONE', 'CONFIRMED_FINE', 'CALLING_FOLLOWERS']),
  smsSent: z.number().int(),
  callsPlaced: z.number().int(),
});

// SOS cases ---------------------------------------------------------------------------------------

export const SOS_CASE_SORT_FIELDS = ['opened', 'status', 'patient', 'kpiDue'] as const;
export const sosCaseListQuerySchema = pageQuerySchema.extend({
  search: plainText(80).optional().describe('Part of the patient’s name, patient id or phone'),
  status: z.enum(SOS_CASE_STATUSES).optional(),
  /** Only cases not closed yet (the live SOS call list). */
  open: booleanQuery.optional(),
  sortField: z.enum(SOS_CASE_SORT_FIELDS).default('opened'),
  sortType: sortTypeSchema.default('desc'),
});
export type SosCaseListQuery = z.infer<typeof sosCaseListQuerySchema>;

export const sosCaseSummarySchema = z.object({
  id: z.uuid(),
  status: z.enum(SOS_CASE_STATUSES),
  reason: z.string(),
  source: z.enum(ALERT_SOURCES),
  patient: patientRefSchema,
  healthCenter: centerRefSchema.nullable(),
  assignee: personRefSchema.nullable(),
  openedAt: z.iso.datetime(),
  kpiDueAt: z.iso.datetime(),
  kpiFailed: z.boolean(),
  ticketId: z.uuid().nullable(),
});
export type SosCaseSummary = z.infer<typeof sosCaseSummarySchema>;

export const sosCaseHistoryEntrySchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  fromStatus: z.enum(SOS_CASE_STATUSES).nullable(),
  toStatus: z.enum(SOS_CASE_STATUSES).nullable(),
  note: z.string(),
  actor: personRefSchema.nullable(),
  at: z.iso.datetime(),
});

export const sosCaseDetailSchema = sosCaseSummarySchema.extend({
  vitals: z.array(vitalSampleSchema),
  location: sosLocationSchema.nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  closedAt: z.iso.datetime().nullable(),
  closeReason: z.string().nullable(),
  history: z.array(sosCaseHistoryEntrySchema),
  followers: z.array(contactSchema),
  allowedActions: z.array(z.enum(Object.keys(SOS_CASE_ACTIONS) as [keyof typeof SOS_CASE_ACTIONS])),
});
export type SosCaseDetail = z.infer<typeof sosCaseDetailSchema>;

export const transitionReasonSchema = z.object({ reason: noteText(1000).optional() });
export const sosCaseStepSchema = z.object({
  type: z.enum(SOS_CASE_STEP_TYPES),
  note: noteText(1000).default(''),
  /**
   * For CALL_FOLLOWER and SMS: the follower contacted (the call or SMS is placed and recorded).
   * CALL_PATIENT and SMS_PATIENT reach the patient's own phone (SMS_PATIENT: the note is the text).
   */
  contactId: z.uuid().optional(),
});
export type SosCaseStep = z.infer<typeof sosCaseStepSchema>;

// Tickets -----------------------------------------------------------------------------------------

export const TICKET_SORT_FIELDS = ['created', 'status', 'type', 'kpiDue'] as const;
export const ticketListQuerySchema = pageQuerySchema.extend({
  search: plainText(80).optional().describe('Part of the title, the patient’s name, patient id or phone'),
  type: z.enum(TICKET_TYPES).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  assigneeId: z.uuid().optional(),
  kpiFailed: booleanQuery.optional(),
  sortField: z.enum(TICKET_SORT_FIELDS).default('created'),
  sortType: sortTypeSchema.default('desc'),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

export const ticketSummarySchema = z.object({
  id: z.uuid(),
  number: z.number().int(),
  type: z.enum(TICKET_TYPES),
  status: z.enum(TICKET_STATUSES),
  title: z.string(),
  patient: patientRefSchema,
  healthCenter: centerRefSchema.nullable(),
  assignee: personRefSchema.nullable(),
  currentAction: z.string(),
  sosAt: z.iso.datetime().nullable(),
  kpiDueAt: z.iso.datetime(),
  kpiFailureReason: z.enum(KPI_FAILURE_REASONS).nullable(),
  kpiRating: z.number().int().nullable(),
  customerRating: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

export const ticketHistoryEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  fromStatus: z.enum(TICKET_STATUSES).nullable(),
  toStatus: z.enum(TICKET_STATUSES).nullable(),
  note: z.string(),
  actor: personRefSchema.nullable(),
  at: z.iso.datetime(),
});

export const ticketDetailSchema = ticketSummarySchema.extend({
  description: z.string(),
  /** What the patient wrote with its rating in the app ('' when staff recorded the rating). */
  customerRatingMessage: z.string(),
  sosCaseId: z.uuid().nullable(),
  location: sosLocationSchema.nullable(),
  healthIndicators: z.array(vitalSampleSchema),
  cancelReason: z.string().nullable(),
  history: z.array(ticketHistoryEntrySchema),
  allowedActions: z.array(z.enum(Object.keys(TICKET_ACTIONS) as [keyof typeof TICKET_ACTIONS])),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

/** Spec §6: operators create tickets (SOS tickets come from SOS cases only). */
export const ticketCreateSchema = z.object({
  patientId: z.uuid(),
  type: z.enum(['ALERT', 'CONSULTATION', 'SUPPORT']),
  title: plainText(120).min(1),
  description: noteText(2000).default(''),
  assigneeId: z.uuid().nullish(),
});
export type TicketCreate = z.infer<typeof ticketCreateSchema>;

export const ticketTransitionSchema = z.object({
  reason: noteText(1000).optional(),
  /** assign: who handles the ticket (a staff account of the tenant). */
  assigneeId: z.uuid().optional(),
  /** What is being done now (shown as the ticket's current action). */
  currentAction: plainText(200).optional(),
});
export type TicketTransition = z.infer<typeof ticketTransitionSchema>;

const ratingSchema = z.number().int().min(1).max(5);
export const ticketRatingSchema = z
  .object({ kpiRating: ratingSchema.optional(), customerRating: ratingSchema.optional() })
  .refine((value) => value.kpiRating !== undefined || value.customerRating !== undefined, {
    error: 'give a KPI rating, a customer rating or both',
  });
/** States in which a ticket may be rated. */
export const RATABLE_TICKET_STATUSES: readonly TicketStatus[] = ['COMPLETED', 'SUCCESS'];

// The patient's own tickets (patient app) ---------------------------------------------------------

/** A ticket as its patient sees it: no assignee, KPI or staff notes; its own rating of the service. */
export const myTicketSchema = z.object({
  id: z.uuid(),
  number: z.number().int(),
  type: z.enum(TICKET_TYPES),
  status: z.enum(TICKET_STATUSES),
  title: z.string(),
  createdAt: z.iso.datetime(),
  closedAt: z.iso.datetime().nullable(),
  /** The patient's rating of how the ticket was handled (1 to 5), null until rated. */
  rating: z.number().int().nullable(),
  ratingMessage: z.string(),
  ratedAt: z.iso.datetime().nullable(),
  /** Whether the patient may rate it now (the work is done: RATABLE_TICKET_STATUSES). */
  ratable: z.boolean(),
});
export type MyTicket = z.infer<typeof myTicketSchema>;

export const MY_TICKET_RATING_MESSAGE_MAX = 1000;
export const myTicketRatingSchema = z.object({
  rating: ratingSchema,
  message: noteText(MY_TICKET_RATING_MESSAGE_MAX).default(''),
});
export type MyTicketRating = z.infer<typeof myTicketRatingSchema>;

export const ticketStatisticsQuerySchema = z
  .object({
    from: z.iso.date().describe('First day (UTC), YYYY-MM-DD'),
    to: z.iso.date().describe('Last day (UTC), YYYY-MM-DD'),
    type: z.enum(TICKET_TYPES).optional(),
  })
  .refine((value) => value.from <= value.to, { error: 'from must not be after to', path: ['to'] });
export const ticketStatisticsSchema = z.object({
  total: z.number().int(),
  byStatus: z.array(z.object({ status: z.enum(TICKET_STATUSES), count: z.number().int() })),
  byType: z.array(z.object({ type: z.enum(TICKET_TYPES), count: z.number().int() })),
  kpiFailures: z.array(z.object({ reason: z.enum(KPI_FAILURE_REASONS), count: z.number().int() })),
  /** Minutes from creation to closing, over tickets closed (SUCCESS) in the range; null if none. */
  averageHandlingMinutes: z.number().nullable(),
  perDay: z.array(z.object({ day: z.string(), created: z.number().int(), closed: z.number().int() })),
});
export type TicketStatistics = z.infer<typeof ticketStatisticsSchema>;

// SMS and call management -------------------------------------------------------------------------

export const MESSAGE_KINDS = ['SMS', 'CALL', 'EMAIL'] as const;
export const MESSAGE_STATUSES = ['PENDING', 'SENT', 'DELIVERED', 'UNDELIVERED', 'FAILED', 'PLACED', 'ANSWERED', 'COMPLETED', 'NO_ANSWER', 'BUSY'] as const;
export const messageListQuerySchema = pageQuerySchema.extend({
  search: plainText(80)
    .optional()
    .describe('Part of the recipient (number, address, name) or of the patient’s name'),
  kind: z.enum(MESSAGE_KINDS).optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  from: z.iso.date().optional().describe('Sent on or after this day (UTC)'),
  to: z.iso.date().optional().describe('Sent on or before this day (UTC)'),
  sortType: sortTypeSchema.default('desc'),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;
export const messageSchema = z.object({
  id: z.uuid(),
  kind: z.enum(MESSAGE_KINDS),
  from: z.string(),
  to: z.string(),
  toName: z.string(),
  provider: z.string().nullable(),
  status: z.enum(MESSAGE_STATUSES),
  purpose: z.string(),
  sentAt: z.iso.datetime(),
  patient: z.object({ id: z.uuid(), patientCode: z.string(), fullName: z.string() }),
  sosCaseId: z.uuid().nullable(),
});
export type MessageEntry = z.infer<typeof messageSchema>;
