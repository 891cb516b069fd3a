import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { safeNote, safeText } from './text.js';

/**
 * Doctor schedules (spec §2 doctor schedule and its approval; §3 Doctor schedule request; §4
 * doctor schedule states; §5 "a doctor's schedule that conflicts with an existing one is refused";
 * §6 doctors request schedules, health-center admins approve or reject them): the working hours a
 * doctor offers for appointments, as a single day or a weekly pattern between two dates, in the
 * wall-clock time of the schedule's time zone.
 */

/** Stored states. A schedule shown as EXPIRED is an APPROVED one whose last day has passed. */
export const SCHEDULE_STATUSES = ['NEW', 'APPROVED', 'REJECTED', 'DELETION_REQUESTED', 'DELETED'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const SCHEDULE_DISPLAY_STATUSES = [...SCHEDULE_STATUSES, 'EXPIRED'] as const;
export type ScheduleDisplayStatus = (typeof SCHEDULE_DISPLAY_STATUSES)[number];

/** States that hold the doctor's time: a new schedule may not overlap one of them. */
export const SCHEDULE_HOLDING_STATUSES = [
  'NEW',
  'APPROVED',
  'DELETION_REQUESTED',
] as const satisfies readonly ScheduleStatus[];

export const SCHEDULE_KINDS = ['SINGLE', 'WEEKLY'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** The appointment slot lengths a schedule is cut into. */
export const SCHEDULE_SLOT_MINUTES = [15, 20, 30, 45, 60] as const;
/** How far ahead a weekly schedule may run (its end at most this many days after its start). */
export const SCHEDULE_MAX_DAYS = 366;

/**
 * The transitions (spec §4) as data: who acts, from which states, to which one, and whether a
 * reason is required. An admin's APPROVE of a deletion request removes the schedule; its REJECT
 * keeps it approved. The doctor withdraws a request not yet approved (or clears a rejected one).
 */
export const SCHEDULE_TRANSITIONS = {
  approve: { by: 'ADMIN', from: ['NEW'], to: 'APPROVED', reason: false },
  reject: { by: 'ADMIN', from: ['NEW'], to: 'REJECTED', reason: true },
  approveDeletion: { by: 'ADMIN', from: ['DELETION_REQUESTED'], to: 'DELETED', reason: false },
  rejectDeletion: { by: 'ADMIN', from: ['DELETION_REQUESTED'], to: 'APPROVED', reason: true },
  requestDeletion: { by: 'DOCTOR', from: ['APPROVED'], to: 'DELETION_REQUESTED', reason: false },
  withdraw: { by: 'DOCTOR', from: ['NEW', 'REJECTED'], to: 'DELETED', reason: false },
} as const satisfies Record<
  string,
  { by: 'ADMIN' | 'DOCTOR'; from: readonly ScheduleStatus[]; to: ScheduleStatus; reason: boolean }
>;
export type ScheduleTransition = keyof typeof SCHEDULE_TRANSITIONS;

/** The transition an admin's decision makes on a schedule in `status`, if any. */
export function decisionTransition(
  decision: ScheduleDecision,
  status: ScheduleStatus,
): ScheduleTransition | null {
  if (status === 'NEW') return decision === 'APPROVE' ? 'approve' : 'reject';
  if (status === 'DELETION_REQUESTED') return decision === 'APPROVE' ? 'approveDeletion' : 'rejectDeletion';
  return null;
}

export const SCHEDULE_DECISIONS = ['APPROVE', 'REJECT'] as const;
export type ScheduleDecision = (typeof SCHEDULE_DECISIONS)[number];

const localTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time like 08:30' });
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Day of the week, ISO: 1 Monday to 7 Sunday. */
export const weekdayOf = (date: string): number => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
};
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const WORKING_HOURS_PROBLEMS = [
  'startAfterEnd',
  'endDateBeforeStart',
  'singleOneDay',
  'weekdaysRequired',
  'tooLong',
  'shorterThanSlot',
  'noDayInRange',
] as const;
export type WorkingHoursProblem = (typeof WORKING_HOURS_PROBLEMS)[number];

/** The fields; the server checks workingHoursProblems itself and answers `schedule.invalid` with a field error per rule. */
export const scheduleFieldsSchema = z.object({
  kind: z.enum(SCHEDULE_KINDS),
  startDate: z.iso.date(),
  /** The last day (a SINGLE schedule: the same day). */
  endDate: z.iso.date(),
  /** WEEKLY: the days of the week, ISO 1 (Monday) to 7 (Sunday). SINGLE: left out. */
  weekdays: z.array(z.number().int().min(1).max(7)).max(7).optional(),
  startTime: localTime,
  endTime: localTime,
  slotMinutes: z
    .number()
    .int()
    .refine((value) => (SCHEDULE_SLOT_MINUTES as readonly number[]).includes(value), {
      error: `must be one of ${SCHEDULE_SLOT_MINUTES.join(', ')}`,
    })
    .default(30),
  note: safeNote(500).optional(),
});
/** The fields with the §5 rules, for forms: each broken rule is an issue on its field, message `schedule.problems.<code>`. */
export const scheduleInputSchema = scheduleFieldsSchema.superRefine((input, context) => {
  for (const { path, code } of workingHoursProblems(input))
    context.addIssue({ code: 'custom', path: [path], message: `schedule.problems.${code}` });
});
export type ScheduleInput = z.input<typeof scheduleFieldsSchema>;

/** The §5 rules of one schedule on its own (the conflict with others is the server's). */
export function workingHoursProblems(input: {
  kind: ScheduleKind;
  startDate: string;
  endDate: string;
  weekdays?: number[] | undefined;
  startTime: string;
  endTime: string;
  slotMinutes?: number | undefined;
}): { path: string; code: WorkingHoursProblem }[] {
  const problems: { path: string; code: WorkingHoursProblem }[] = [];
  const start = minutesOf(input.startTime);
  const end = minutesOf(input.endTime);
  if (start >= end) problems.push({ path: 'endTime', code: 'startAfterEnd' });
  else if (end - start < (input.slotMinutes ?? 30))
    problems.push({ path: 'endTime', code: 'shorterThanSlot' });
  if (input.endDate < input.startDate) problems.push({ path: 'endDate', code: 'endDateBeforeStart' });
  else if (daysBetween(input.startDate, input.endDate) > SCHEDULE_MAX_DAYS)
    problems.push({ path: 'endDate', code: 'tooLong' });
  if (input.kind === 'SINGLE' && input.endDate !== input.startDate)
    problems.push({ path: 'endDate', code: 'singleOneDay' });
  if (input.kind === 'WEEKLY') {
    const weekdays = input.weekdays ?? [];
    if (weekdays.length === 0) problems.push({ path: 'weekdays', code: 'weekdaysRequired' });
    else if (input.endDate >= input.startDate && daysBetween(input.startDate, input.endDate) < 7) {
      const days = Array.from({ length: daysBetween(input.startDate, input.endDate) + 1 }, (_, index) =>
        weekdayOf(
          new Date(Date.parse(`${input.startDate}T00:00:00Z`) + index * 86_400_000)
            .toISOString()
            .slice(0, 10),
        ),
      );
      if (!days.some((day) => weekdays.includes(day)))
        problems.push({ path: 'weekdays', code: 'noDayInRange' });
    }
  }
  return problems;
}

/** The days of the week a schedule runs on: a single day's own, or the weekly pattern's. */
export function scheduleWeekdays(input: {
  kind: ScheduleKind;
  startDate: string;
  weekdays?: readonly number[] | null | undefined;
}): number[] {
  return input.kind === 'SINGLE' ? [weekdayOf(input.startDate)] : [...new Set(input.weekdays ?? [])].sort();
}

/**
 * Whether two schedules of one doctor overlap (spec §5 conflict): their date ranges share a day
 * that both run on, and their hours overlap on it (touching ends do not: 08:00-12:00 and
 * 12:00-17:00 are fine). Both in the same time zone.
 */
export function schedulesOverlap(
  a: {
    kind: ScheduleKind;
    startDate: string;
    endDate: string;
    weekdays?: readonly number[] | null;
    startTime: string;
    endTime: string;
  },
  b: {
    kind: ScheduleKind;
    startDate: string;
    endDate: string;
    weekdays?: readonly number[] | null;
    startTime: string;
    endTime: string;
  },
): boolean {
  if (!(minutesOf(a.startTime) < minutesOf(b.endTime) && minutesOf(b.startTime) < minutesOf(a.endTime)))
    return false;
  const from = a.startDate > b.startDate ? a.startDate : b.startDate;
  const to = a.endDate < b.endDate ? a.endDate : b.endDate;
  if (from > to) return false;
  const daysA = scheduleWeekdays(a);
  const daysB = scheduleWeekdays(b);
  const span = Math.min(daysBetween(from, to), 6);
  for (let index = 0; index <= span; index += 1) {
    const day = weekdayOf(
      new Date(Date.parse(`${from}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
    );
    if (daysA.includes(day) && daysB.includes(day)) return true;
  }
  return false;
}

const person = z.object({ id: z.uuid(), fullName: z.string() });

export const doctorScheduleSchema = z.object({
  id: z.uuid(),
  doctor: person.extend({ email: z.string().nullable(), phone: z.string().nullable() }),
  healthCenter: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  kind: z.enum(SCHEDULE_KINDS),
  startDate: z.string(),
  endDate: z.string(),
  weekdays: z.array(z.number().int()),
  startTime: z.string(),
  endTime: z.string(),
  slotMinutes: z.number().int(),
  timeZone: z.string(),
  note: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  displayStatus: z.enum(SCHEDULE_DISPLAY_STATUSES),
  requestedAt: z.string(),
  /** Who decided last (approved, rejected, or decided on a deletion request), and when. */
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
  /** The reason of the last rejection (of the request or of a deletion request). */
  reason: z.string().nullable(),
  deletionRequestedAt: z.string().nullable(),
});
export type DoctorSchedule = z.infer<typeof doctorScheduleSchema>;

export const SCHEDULE_SORT_FIELDS = ['requested', 'start', 'doctor'] as const;
export const scheduleListQuerySchema = pageQuerySchema.extend({
  /** The approval screen's tabs: NEW (with deletion requests use DELETION_REQUESTED), APPROVED, REJECTED. */
  status: z.enum(SCHEDULE_STATUSES).optional(),
  search: safeText().max(80).optional().describe('Part of the doctor’s name, email or phone'),
  doctorId: z.uuid().optional(),
  centerId: z.uuid().optional(),
  sortField: z.enum(SCHEDULE_SORT_FIELDS).default('requested'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type ScheduleListQuery = z.infer<typeof scheduleListQuerySchema>;

/** A REJECT without a reason is refused by the server as `schedule.reasonRequired` (spec §5). */
export const scheduleDecisionSchema = z.object({
  ids: z.array(z.uuid()).min(1).max(100),
  decision: z.enum(SCHEDULE_DECISIONS),
  reason: safeText().max(500).optional(),
});
export type ScheduleDecisionInput = z.input<typeof scheduleDecisionSchema>;

export const scheduleDecisionResultSchema = z.object({
  results: z.array(
    z.object({
      id: z.uuid(),
      /** The state the schedule is in now, or why it was left as it was. */
      status: z.enum(SCHEDULE_STATUSES).nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type ScheduleDecisionResult = z.infer<typeof scheduleDecisionResultSchema>;

export const scheduleDeletionRequestSchema = z.object({ reason: safeText().max(500).optional() });

/**
 * POST /account/doctor/schedules/:id/cancel-appointments: the open appointments still to come in
 * one's own schedule are cancelled with one reason (the patients are told), so its deletion can be
 * asked for (spec §8: a schedule with appointments cannot be deleted; cancel them first).
 */
export const scheduleAppointmentsCancelSchema = z.object({ reason: safeText().min(1).max(500) });
export const scheduleAppointmentsCanceledSchema = z.object({ canceled: z.number().int().nonnegative() });

export const scheduleCalendarQuerySchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    doctorId: z.uuid().optional(),
    centerId: z.uuid().optional(),
    /** Also the requests not yet approved (shown apart). */
    withPending: z.enum(['true', 'false']).default('false'),
  })
  .refine((query) => query.from <= query.to && daysBetween(query.from, query.to) <= 62, {
    error: 'from must not be after to, and at most 62 days apart',
    path: ['to'],
  });
export type ScheduleCalendarQuery = z.infer<typeof scheduleCalendarQuerySchema>;

/** One working period of a schedule on one day, as instants (the calendar's events). */
export const scheduleOccurrenceSchema = z.object({
  scheduleId: z.uuid(),
  doctor: person,
  date: z.string(),
  startAt: z.string(),
  endAt: z.string(),
  status: z.enum(SCHEDULE_DISPLAY_STATUSES),
  slotMinutes: z.number().int(),
});
export type ScheduleOccurrence = z.infer<typeof scheduleOccurrenceSchema>;
