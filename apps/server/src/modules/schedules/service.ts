import {
  decisionTransition,
  SCHEDULE_TRANSITIONS,
  scheduleWeekdays,
  schedulesOverlap,
  workingHoursProblems,
  type AuditAction,
  type DoctorSchedule,
  type FieldError,
  type ScheduleCalendarQuery,
  type ScheduleDecisionInput,
  type ScheduleDecisionResult,
  type ScheduleInput,
  type ScheduleListQuery,
  type ScheduleOccurrence,
  type ScheduleTransition,
} from '@rpm/contracts';
import { Temporal } from 'temporal-polyfill';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import type { Page } from '../care-plan/store.js';
import { noticeAppointmentChange } from './appointment-notices.js';
import { comingInSchedule, lockComingInSchedule, updateAppointment as updateAppointmentRow } from './appointment-store.js';
import * as store from './store.js';
import { noticeScheduleDecision, SCHEDULE_DECISIONS, type ScheduleDecisionKind } from './schedule-notices.js';

/**
 * Doctor schedules (spec §4 doctor schedule): a doctor requests working hours (NEW), a center's
 * admin approves or rejects them (reason required), one or many at once; an approved schedule is
 * removed through a deletion request the admin decides on too. A request that overlaps another
 * schedule of the doctor holding its time (NEW, APPROVED, DELETION_REQUESTED) is refused.
 */

export interface ScheduleEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

const AUDIT_OF: Record<ScheduleTransition, AuditAction> = {
  approve: 'SCHEDULE_APPROVED',
  reject: 'SCHEDULE_REJECTED',
  approveDeletion: 'SCHEDULE_DELETION_APPROVED',
  rejectDeletion: 'SCHEDULE_DELETION_REJECTED',
  requestDeletion: 'SCHEDULE_DELETION_REQUESTED',
  withdraw: 'SCHEDULE_WITHDRAWN',
};

const isoOrNull = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/** The day it is now in `timeZone`. */
function todayIn(timeZone: string, now: Date): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .toString();
}

function toSchedule(row: store.ScheduleRow, now: Date): DoctorSchedule {
  const expired = row.status === 'APPROVED' && row.end_date < todayIn(row.time_zone, now);
  return {
    id: row.id,
    doctor: {
      id: row.doctor_id,
      fullName: row.doctor_name,
      email: row.doctor_email,
      phone: row.doctor_phone,
    },
    healthCenter:
      row.health_center_id === null ? null : { id: row.health_center_id, name: row.health_center_name ?? '' },
    kind: row.kind,
    startDate: row.start_date,
    endDate: row.end_date,
    weekdays: row.weekdays.map(Number),
    startTime: row.start_time,
    endTime: row.end_time,
    slotMinutes: row.slot_minutes,
    timeZone: row.time_zone,
    note: row.note,
    status: row.status,
    displayStatus: expired ? 'EXPIRED' : row.status,
    requestedAt: isoOrNull(row.requested_at) ?? '',
    decidedBy: row.decided_by === null ? null : { id: row.decided_by, fullName: row.decided_by_name ?? '' },
    decidedAt: isoOrNull(row.decided_at),
    reason: row.reason,
    deletionRequestedAt: isoOrNull(row.deletion_requested_at),
  };
}

const pageOf = (rows: store.ScheduleRow[], query: ScheduleListQuery, now: Date): Page<DoctorSchedule> => ({
  items: rows.map((row) => toSchedule(row, now)),
  page: query.page,
  size: query.size,
  total: rows[0]?.total ?? 0,
});

/** POST /account/doctor/schedules: the calling doctor requests working hours (NEW). */
export function requestSchedule(
  environment: ScheduleEnvironment,
  input: ScheduleInput,
): Promise<DoctorSchedule> {
  const { auth, clock } = environment;
  const problems = workingHoursProblems(input);
  if (problems.length > 0) {
    const fieldErrors: FieldError[] = problems.map((problem) => ({
      field: problem.path,
      code: problem.code,
      message: `schedule.problems.${problem.code}`,
    }));
    throw new AppError('schedule.invalid', { fieldErrors });
  }
  return withCaller(environment.database, auth, async (tx) => {
    const place = await store.doctorPlace(tx, auth.userId);
    if (place === undefined) throw new AppError('auth.permissionDenied');
    const now = clock.now();
    if (input.startDate < todayIn(place.timeZone, now)) throw new AppError('schedule.pastDate');
    const candidate = {
      kind: input.kind,
      startDate: input.startDate,
      endDate: input.endDate,
      weekdays: scheduleWeekdays(input),
      startTime: input.startTime,
      endTime: input.endTime,
    };
    await store.lockDoctorSchedules(tx, auth.userId);
    const holding = await store.holdingSchedulesOf(tx, auth.userId, input.startDate, input.endDate);
    const clash = holding.find((other) =>
      schedulesOverlap(candidate, {
        ...other,
        startDate: other.start_date,
        endDate: other.end_date,
        startTime: other.start_time,
        endTime: other.end_time,
      }),
    );
    if (clash !== undefined) throw new AppError('schedule.conflict');
    const id = uuidv7();
    await store.insertSchedule(tx, {
      tenantId: auth.tenantId,
      id,
      doctorId: auth.userId,
      healthCenterId: place.healthCenterId,
      kind: input.kind,
      startDate: input.startDate,
      endDate: input.endDate,
      weekdays: candidate.weekdays,
      startTime: input.startTime,
      endTime: input.endTime,
      slotMinutes: input.slotMinutes ?? 30,
      timeZone: place.timeZone,
      note: input.note === undefined || input.note === '' ? null : input.note,
      status: 'NEW',
      requestedAt: now,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'SCHEDULE_REQUESTED',
      subjectUserId: auth.userId,
      targetType: 'schedule',
      targetId: id,
      details: { kind: input.kind, startDate: input.startDate, endDate: input.endDate },
      at: now,
    });
    const saved = await store.findSchedule(tx, id);
    if (saved === undefined) throw new AppError('schedule.notFound');
    return toSchedule(saved, now);
  });
}

/** GET /account/doctor/schedules: the calling doctor's own schedules. */
export function listMySchedules(
  environment: ScheduleEnvironment,
  query: ScheduleListQuery,
): Promise<Page<DoctorSchedule>> {
  return withCaller(environment.database, environment.auth, async (tx) =>
    pageOf(
      await store.listSchedules(tx, query, { doctorId: environment.auth.userId }),
      query,
      environment.clock.now(),
    ),
  );
}

/** GET /account/schedules: the schedules of the centers the caller sees (the approval screen). */
export function listSchedules(
  environment: ScheduleEnvironment,
  query: ScheduleListQuery,
): Promise<Page<DoctorSchedule>> {
  return withCaller(environment.database, environment.auth, async (tx) =>
    pageOf(await store.listSchedules(tx, query), query, environment.clock.now()),
  );
}

export function readSchedule(environment: ScheduleEnvironment, id: string): Promise<DoctorSchedule> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findSchedule(tx, id);
    if (row === undefined) throw new AppError('schedule.notFound');
    return toSchedule(row, environment.clock.now());
  });
}

/** Applies one transition to a locked row: the state, who decided, the reason, the audit row. */
async function apply(
  tx: TenantTransaction,
  environment: ScheduleEnvironment,
  row: store.ScheduleRow,
  transition: ScheduleTransition,
  reason: string | null,
): Promise<void> {
  const { auth } = environment;
  const rule = SCHEDULE_TRANSITIONS[transition];
  const now = environment.clock.now();
  const byAdmin = rule.by === 'ADMIN';
  await store.updateSchedule(tx, row.id, {
    status: rule.to,
    ...(byAdmin ? { decidedBy: auth.userId, decidedAt: now, reason: rule.reason ? reason : null } : {}),
    ...(transition === 'requestDeletion' ? { deletionRequestedAt: now, deletionReason: reason } : {}),
    ...(rule.to === 'DELETED' ? { deletedAt: now } : {}),
  });
  await recordAudit(tx, auth.tenantId, environment.audit, {
    action: AUDIT_OF[transition],
    subjectUserId: row.doctor_id,
    targetType: 'schedule',
    targetId: row.id,
    details: { from: row.status, to: rule.to, ...(reason === null ? {} : { reason }) },
    at: now,
  });
  if ((SCHEDULE_DECISIONS as readonly string[]).includes(transition))
    await noticeScheduleDecision(tx, auth.tenantId, row, transition as ScheduleDecisionKind, rule.reason ? reason : null, environment.clock.now());
}

/** The doctor's own changes: withdraw a request (NEW or REJECTED), or ask to delete an approved one. */
function changeMine(
  environment: ScheduleEnvironment,
  id: string,
  transition: 'withdraw' | 'requestDeletion',
  reason: string | null,
): Promise<DoctorSchedule> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await store.findSchedule(tx, id, { lock: true });
    if (row?.doctor_id !== environment.auth.userId) throw new AppError('schedule.notFound');
    if (!(SCHEDULE_TRANSITIONS[transition].from as readonly string[]).includes(row.status))
      throw new AppError('schedule.wrongState');
    if (transition === 'requestDeletion' && (await comingInSchedule(tx, id, environment.clock.now())) > 0)
      throw new AppError('schedule.hasAppointments');
    await apply(tx, environment, row, transition, reason);
    const after = await store.findSchedule(tx, id);
    if (after === undefined) throw new AppError('schedule.notFound');
    return toSchedule(after, environment.clock.now());
  });
}

export const withdrawSchedule = (environment: ScheduleEnvironment, id: string) =>
  changeMine(environment, id, 'withdraw', null);

/**
 * POST /account/doctor/schedules/:id/deletion: an approved schedule waits for the admin's decision
 * (spec §4); refused while open appointments are still to come in it (schedule.hasAppointments:
 * spec §8, the console offers to cancel them first).
 */
export const requestScheduleDeletion = (
  environment: ScheduleEnvironment,
  id: string,
  reason: string | undefined,
) => changeMine(environment, id, 'requestDeletion', reason === undefined || reason === '' ? null : reason);

/**
 * POST /account/schedules/decisions: approve or reject one or many schedules at once (spec §4
 * single or multiple approval), each by its state: a request (NEW) is approved or rejected, a
 * deletion request is approved (the schedule is removed) or refused (it stays approved). Each id
 * gets its outcome; one that cannot be decided is left as it was and says why.
 */
export function decideSchedules(
  environment: ScheduleEnvironment,
  input: ScheduleDecisionInput,
): Promise<ScheduleDecisionResult> {
  const reason = input.reason === undefined || input.reason === '' ? null : input.reason;
  if (input.decision === 'REJECT' && reason === null) throw new AppError('schedule.reasonRequired');
  return withCaller(environment.database, environment.auth, async (tx) => {
    const results: ScheduleDecisionResult['results'] = [];
    for (const id of [...new Set(input.ids)].sort()) {
      const row = await store.findSchedule(tx, id, { lock: true });
      if (row === undefined) {
        results.push({ id, status: null, error: 'schedule.notFound' });
        continue;
      }
      const transition = decisionTransition(input.decision, row.status);
      if (transition === null) {
        results.push({ id, status: row.status, error: 'schedule.wrongState' });
        continue;
      }
      // Booked in the meantime: the appointments are cancelled first (spec §8).
      if (transition === 'approveDeletion' && (await comingInSchedule(tx, id, environment.clock.now())) > 0) {
        results.push({ id, status: row.status, error: 'schedule.hasAppointments' });
        continue;
      }
      await apply(tx, environment, row, transition, reason);
      results.push({ id, status: SCHEDULE_TRANSITIONS[transition].to, error: null });
    }
    return { results };
  });
}

/** One schedule's working period on one of its days, as instants (its wall-clock times in its zone). */
export interface WorkingPeriod {
  schedule: store.ScheduleRow;
  /** The schedule's local day. */
  date: string;
  startAt: Date;
  endAt: Date;
}

/**
 * The working periods of `rows` on their local days from `from` to `to`: one per schedule and day
 * of its weekdays between its dates, 08:00 staying 08:00 across a daylight-saving change (an
 * ambiguous or skipped wall-clock time resolves as Temporal's 'compatible' does).
 */
export function workingPeriodsOf(rows: readonly store.ScheduleRow[], from: string, to: string): WorkingPeriod[] {
  const periods: WorkingPeriod[] = [];
  for (const row of rows) {
    const weekdays = row.weekdays.map(Number);
    const first = row.start_date > from ? row.start_date : from;
    const last = row.end_date < to ? row.end_date : to;
    for (
      let day = Temporal.PlainDate.from(first);
      Temporal.PlainDate.compare(day, Temporal.PlainDate.from(last)) <= 0;
      day = day.add({ days: 1 })
    ) {
      if (!weekdays.includes(day.dayOfWeek)) continue;
      const at = (time: string) =>
        new Date(
          day.toZonedDateTime({ timeZone: row.time_zone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds,
        );
      periods.push({ schedule: row, date: day.toString(), startAt: at(row.start_time), endAt: at(row.end_time) });
    }
  }
  return periods;
}

/**
 * GET /account/schedules/calendar: each working period between two days (the calendars' events),
 * as instants from the schedule's wall-clock times in its time zone (08:00 stays 08:00 across a
 * daylight-saving change).
 */
export function scheduleCalendar(
  environment: ScheduleEnvironment,
  query: ScheduleCalendarQuery,
): Promise<ScheduleOccurrence[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const now = environment.clock.now();
    const rows = await store.calendarSchedules(tx, {
      from: query.from,
      to: query.to,
      doctorId: query.doctorId,
      centerId: query.centerId,
      withPending: query.withPending === 'true',
    });
    const statusOf = new Map(rows.map((row) => [row.id, toSchedule(row, now).displayStatus]));
    return workingPeriodsOf(rows, query.from, query.to)
      .map(
        (period): ScheduleOccurrence => ({
          scheduleId: period.schedule.id,
          doctor: { id: period.schedule.doctor_id, fullName: period.schedule.doctor_name },
          date: period.date,
          startAt: period.startAt.toISOString(),
          endAt: period.endAt.toISOString(),
          status: statusOf.get(period.schedule.id) ?? period.schedule.status,
          slotMinutes: period.schedule.slot_minutes,
        }),
      )
      .sort((a, b) => a.startAt.localeCompare(b.startAt));
  });
}

/**
 * POST /account/doctor/schedules/:id/cancel-appointments: cancels, with one reason, the open
 * appointments still to come in the caller's own schedule (each audited, each patient told), so the
 * schedule's deletion can be asked for (spec §8). An appointment under way (EXAMINING) is left to
 * finish: the deletion stays refused until it has.
 */
export function cancelScheduleAppointments(
  environment: ScheduleEnvironment,
  id: string,
  reason: string,
): Promise<{ canceled: number }> {
  const { auth } = environment;
  const text = reason.trim();
  if (text === '') throw new AppError('appointment.reasonRequired');
  return withCaller(environment.database, auth, async (tx) => {
    const row = await store.findSchedule(tx, id, { lock: true });
    if (row?.doctor_id !== auth.userId) throw new AppError('schedule.notFound');
    const now = environment.clock.now();
    const coming = await lockComingInSchedule(tx, id, now);
    for (const appointment of coming) {
      await updateAppointmentRow(tx, appointment.id, { status: 'CANCELED', cancelReason: text, updatedAt: now });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'APPOINTMENT_CANCELED',
        subjectUserId: appointment.patient_user_id,
        targetType: 'patient',
        targetId: appointment.patient_id,
        details: { appointmentId: appointment.id, from: appointment.status, to: 'CANCELED', scheduleId: id },
        at: now,
      });
      await noticeAppointmentChange(tx, environment.database, auth.tenantId, appointment.id, 'CANCELED', auth.userId, environment.clock.now());
    }
    return { canceled: coming.length };
  });
}
