import { z } from 'zod';
import {
  DOSE_UNITS,
  FREQUENCY_CYCLES,
  INTAKE_STATES,
  localDateSchema,
  MEAL_DEPENDENCES,
  MEDICINE_FORMS,
  MEDICINE_MODES,
  MEDICINE_ROUTES,
  PRESCRIPTION_STATES,
  reminderScheduleSchema,
  TIMES_OF_DAY,
} from './care-plan.js';
import { pageQuerySchema } from './envelope.js';
import { safeName, safeNote, safeText } from './text.js';

/**
 * The care plan's calls (spec §2 prescriptions: add, edit, detail, reuse, usage history; the
 * patient app's prescriptions and doses): what the console and the app send and read.
 */

const personSchema = z.object({ id: z.uuid(), fullName: z.string() });

export const PRESCRIPTION_SORT_FIELDS = ['start', 'name', 'created'] as const;
export const prescriptionListQuerySchema = pageQuerySchema.extend({
  search: safeText().max(80).optional().describe('Part of the name or the RX number'),
  state: z.enum(PRESCRIPTION_STATES).optional(),
  sortField: z.enum(PRESCRIPTION_SORT_FIELDS).default('start'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type PrescriptionListQuery = z.infer<typeof prescriptionListQuerySchema>;

export const prescriptionSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  rxNumber: z.string().nullable(),
  state: z.enum(PRESCRIPTION_STATES),
  startDate: z.string(),
  endDate: z.string(),
  totalDays: z.number().int(),
  refills: z.number().int(),
  doctorInCharge: personSchema,
  medicineCount: z.number().int(),
  /** The prescription this one replaced (an edit), and the one that replaced it. */
  replacesId: z.uuid().nullable(),
  replacedById: z.uuid().nullable(),
  createdAt: z.string(),
  deactivatedAt: z.string().nullable(),
});
export type PrescriptionSummary = z.infer<typeof prescriptionSummarySchema>;

export const medicineSchema = z.object({
  id: z.uuid(),
  position: z.number().int(),
  catalogueId: z.string().nullable(),
  name: z.string(),
  dose: z.number(),
  doseUnit: z.enum(DOSE_UNITS),
  strength: z.string().nullable(),
  quantity: z.number().int().nullable(),
  sideEffects: z.string().nullable(),
  instructions: z.string().nullable(),
  note: z.string().nullable(),
  route: z.enum(MEDICINE_ROUTES),
  form: z.enum(MEDICINE_FORMS),
  frequencyCycle: z.enum(FREQUENCY_CYCLES),
  timesOfDay: z.array(z.enum(TIMES_OF_DAY)),
  meal: z.enum(MEAL_DEPENDENCES),
  imageId: z.uuid().nullable(),
  color: z.string().nullable(),
  mode: z.enum(MEDICINE_MODES),
  schedule: reminderScheduleSchema.nullable(),
});
export type Medicine = z.infer<typeof medicineSchema>;

export const prescriptionDetailSchema = prescriptionSummarySchema.extend({
  patientId: z.uuid(),
  diagnosis: z.string().nullable(),
  noteForPatient: z.string().nullable(),
  medicines: z.array(medicineSchema),
  createdBy: personSchema,
  deactivatedBy: personSchema.nullable(),
});
export type PrescriptionDetail = z.infer<typeof prescriptionDetailSchema>;

// Doses (spec §4 medication intake) -----------------------------------------------------------------

export const intakeSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  prescriptionId: z.uuid(),
  prescriptionName: z.string(),
  medicineId: z.uuid(),
  medicineName: z.string(),
  dose: z.number(),
  doseUnit: z.enum(DOSE_UNITS),
  strength: z.string().nullable(),
  meal: z.enum(MEAL_DEPENDENCES),
  instructions: z.string().nullable(),
  color: z.string().nullable(),
  dueAt: z.string(),
  /** The patient's wall clock: the day and time the dose is due where the patient lives. */
  localDate: z.string(),
  localTime: z.string(),
  label: z.string(),
  state: z.enum(INTAKE_STATES),
  /** The patient app's three states (spec §4): waiting, taken, missed. */
  appState: z.enum(['WAITING', 'TAKEN', 'MISSED']),
  answeredAt: z.string().nullable(),
});
export type Intake = z.infer<typeof intakeSchema>;

export const intakeDayQuerySchema = z.object({
  /** The patient's local day (default: today where the patient lives). */
  date: localDateSchema.optional(),
});

export const intakeAnswerSchema = z.object({
  answer: z.enum(['TAKEN', 'SKIPPED']),
  /** When it was taken, if not now (not in the future). */
  takenAt: z.iso.datetime({ offset: true }).optional(),
});
export type IntakeAnswer = z.infer<typeof intakeAnswerSchema>;

/** A dose can be answered from this long before it is due (taken early), never sooner. */
export const INTAKE_ANSWER_AHEAD_HOURS = 12;

// Usage history (spec §2 prescriptions: usage history) ---------------------------------------------

export const intakeCountsSchema = z.object({
  due: z.number().int(),
  taken: z.number().int(),
  takenEarly: z.number().int(),
  takenLate: z.number().int(),
  skipped: z.number().int(),
  unconfirmed: z.number().int(),
  /** Still to take (not yet answered and not yet past its window). */
  toTake: z.number().int(),
  /** Doses taken (on time, early or late) out of those whose time has come; null before any. */
  adherencePercent: z.number().nullable(),
});
export type IntakeCounts = z.infer<typeof intakeCountsSchema>;

export const usageHistorySchema = z.object({
  prescriptionId: z.uuid(),
  from: z.string(),
  to: z.string(),
  total: intakeCountsSchema,
  medicines: z.array(
    z.object({
      medicineId: z.uuid(),
      name: z.string(),
      counts: intakeCountsSchema,
      days: z.array(z.object({ date: z.string(), counts: intakeCountsSchema })),
    }),
  ),
});
export type UsageHistory = z.infer<typeof usageHistorySchema>;

/** Adherence from counts: taken (any timing) over the doses whose time has come. */
export function adherencePercent(counts: Omit<IntakeCounts, 'adherencePercent'>): number | null {
  const decided = counts.due - counts.toTake;
  if (decided <= 0) return null;
  return Math.round(((counts.taken + counts.takenEarly + counts.takenLate) / decided) * 1000) / 10;
}

// Care reminders (spec §3 Reminder: doctors and assistants, not a medicine's dose) ------------------

export const careReminderInputSchema = z.object({
  title: safeName(120),
  note: safeNote(1000).optional(),
  schedule: reminderScheduleSchema,
});
export type CareReminderInput = z.infer<typeof careReminderInputSchema>;

export const careReminderSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  title: z.string(),
  note: z.string().nullable(),
  schedule: reminderScheduleSchema,
  createdBy: personSchema,
  createdAt: z.string(),
});
export type CareReminder = z.infer<typeof careReminderSchema>;

/** One time a care reminder rings on a day (the app's list of the day). */
export const reminderOccurrenceSchema = z.object({
  reminderId: z.uuid(),
  title: z.string(),
  note: z.string().nullable(),
  at: z.string(),
  localDate: z.string(),
  localTime: z.string(),
  label: z.string(),
});
export type ReminderOccurrence = z.infer<typeof reminderOccurrenceSchema>;

// Event reminders, "My Events" (spec §3 Event reminder; §5; §9 events max 20) ----------------------

export const EVENT_ICONS = [
  'APPOINTMENT',
  'MEDICINE',
  'TEST',
  'VACCINE',
  'EXERCISE',
  'MEAL',
  'OTHER',
] as const;
export const EVENT_STATUSES = ['PLANNED', 'DONE', 'CANCELED'] as const;
/** Spec §9: at most 20 events, counted as the planned events still to come. */
export const EVENT_LIMIT = 20;

export const eventInputSchema = z.object({
  /** The expected (arrival) time, required (spec §5). */
  arrivalAt: z.iso.datetime({ offset: true }),
  label: safeName(120),
  /** Required (spec §5). */
  icon: z.enum(EVENT_ICONS),
  note: safeNote(1000).optional(),
  location: safeText().max(200).optional(),
  organizer: safeName(120).optional(),
  status: z.enum(EVENT_STATUSES).default('PLANNED'),
});
export type EventInput = z.input<typeof eventInputSchema>;

export const patientEventSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  arrivalAt: z.string(),
  label: z.string(),
  icon: z.enum(EVENT_ICONS),
  note: z.string().nullable(),
  location: z.string().nullable(),
  organizer: z.string().nullable(),
  status: z.enum(EVENT_STATUSES),
  createdAt: z.string(),
});
export type PatientEvent = z.infer<typeof patientEventSchema>;

export const eventListQuerySchema = pageQuerySchema.extend({
  /** upcoming: from now on, soonest first; past: before now, latest first. */
  when: z.enum(['upcoming', 'past']).default('upcoming'),
});
