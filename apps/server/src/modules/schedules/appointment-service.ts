import {
  APPOINTMENT_TRANSITIONS,
  type Appointment,
  type AppointmentInput,
  type AppointmentListQuery,
  type AppointmentSlot,
  type AppointmentTransitionInput,
  type AppointmentUpdate,
  type AuditAction,
  type AppointmentTransition,
} from '@rpm/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import type { Page } from '../care-plan/store.js';
import { findPatient } from '../patients/store.js';
import { noticeAppointmentChange, type AppointmentChange } from './appointment-notices.js';
import * as store from './appointment-store.js';
import type { ScheduleEnvironment } from './service.js';
import { calendarSchedules, type ScheduleRow } from './store.js';

/**
 * Appointments (spec §4 appointment states): booked by operators, doctors (their own) and admins
 * into a free slot of an approved schedule of the doctor; one open appointment per slot (a unique
 * index) and per patient at a time (a per-patient lock); the doctor examines, may hold it pending,
 * and completes it with a diagnosis and advice; cancelling needs a reason. Reads are PHI reads.
 */

const AUDIT_OF: Record<AppointmentTransition, AuditAction> = {
  checkIn: 'APPOINTMENT_CHECKED_IN',
  start: 'APPOINTMENT_STARTED',
  hold: 'APPOINTMENT_HELD',
  complete: 'APPOINTMENT_COMPLETED',
  cancel: 'APPOINTMENT_CANCELED',
};

/** The transitions the patient and the doctor are told of by e-mail (check-in, start and hold are seen live). */
const NOTICE_OF: Partial<Record<AppointmentTransition, AppointmentChange>> = {
  complete: 'COMPLETED',
  cancel: 'CANCELED',
};

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export function toAppointment(row: store.AppointmentRow, now: Date): Appointment {
  const waiting = row.status === 'UPCOMING' || row.status === 'WAITING_FOR_DOCTOR';
  return {
    id: row.id,
    patient: { id: row.patient_id, fullName: row.patient_name, patientCode: row.patient_code },
    doctor: { id: row.doctor_id, fullName: row.doctor_name },
    scheduleId: row.schedule_id,
    startAt: iso(row.starts_at),
    endAt: iso(row.ends_at),
    reason: row.reason,
    note: row.note,
    place: row.place,
    paid: row.paid,
    status: row.status,
    overdue: waiting && new Date(row.starts_at).getTime() < now.getTime(),
    diagnosis: row.diagnosis,
    advice: row.advice,
    cancelReason: row.cancel_reason,
    createdBy: row.created_by === null ? null : { id: row.created_by, fullName: row.created_by_name ?? '' },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

interface Slot {
  scheduleId: string;
  startAt: Date;
  endAt: Date;
}

/** The slots of approved schedules on the local days from `from` to `to` (each schedule's own zone). */
function slotsOf(schedules: ScheduleRow[], from: string, to: string): Slot[] {
  const slots: Slot[] = [];
  for (const schedule of schedules) {
    if (schedule.status !== 'APPROVED') continue;
    const first = schedule.start_date > from ? schedule.start_date : from;
    const last = schedule.end_date < to ? schedule.end_date : to;
    const weekdays = schedule.weekdays.map(Number);
    for (
      let day = Temporal.PlainDate.from(first);
      Temporal.PlainDate.compare(day, Temporal.PlainDate.from(last)) <= 0;
      day = day.add({ days: 1 })
    ) {
      if (!weekdays.includes(day.dayOfWeek)) continue;
      const end = Temporal.PlainTime.from(schedule.end_time);
      for (
        let time = Temporal.PlainTime.from(schedule.start_time);
        Temporal.PlainTime.compare(time.add({ minutes: schedule.slot_minutes }), end) <= 0 &&
        Temporal.PlainTime.compare(time.add({ minutes: schedule.slot_minutes }), time) > 0;
        time = time.add({ minutes: schedule.slot_minutes })
      ) {
        const start = day.toZonedDateTime({ timeZone: schedule.time_zone, plainTime: time });
        slots.push({
          scheduleId: schedule.id,
          startAt: new Date(start.epochMilliseconds),
          endAt: new Date(start.add({ minutes: schedule.slot_minutes }).epochMilliseconds),
        });
      }
    }
  }
  return slots.sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
}

const dayOffset = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();

/** The slot of the doctor that starts exactly at `startAt`, if it has one (looks a day either side for zones). */
async function slotAt(tx: TenantTransaction, doctorId: string, startAt: Date): Promise<Slot | undefined> {
  const day = startAt.toISOString().slice(0, 10);
  const from = dayOffset(day, -1);
  const to = dayOffset(day, 1);
  const schedules = await calendarSchedules(tx, { from, to, doctorId, withPending: false });
  return slotsOf(schedules, from, to).find((slot) => slot.startAt.getTime() === startAt.getTime());
}

/** GET /account/doctors/:doctorId/slots?date: the doctor's slots on a day, free or taken (past ones taken). */
export function doctorSlots(
  environment: ScheduleEnvironment,
  doctorId: string,
  date: string,
): Promise<AppointmentSlot[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const now = environment.clock.now();
    const schedules = await calendarSchedules(tx, { from: date, to: date, doctorId, withPending: false });
    const slots = slotsOf(schedules, date, date);
    if (slots.length === 0) return [];
    const first = slots[0]?.startAt ?? now;
    const last = slots.at(-1)?.endAt ?? now;
    const taken = await store.takenStarts(tx, doctorId, first, last);
    return slots.map((slot) => ({
      scheduleId: slot.scheduleId,
      startAt: slot.startAt.toISOString(),
      endAt: slot.endAt.toISOString(),
      free: slot.startAt.getTime() > now.getTime() && !taken.has(slot.startAt.getTime()),
    }));
  });
}

/** The free slot at `startAt` for the patient, or the refusal: not a slot, taken, the patient busy. */
export async function bookableSlot(
  tx: TenantTransaction,
  environment: ScheduleEnvironment,
  doctorId: string,
  patientId: string,
  startAt: Date,
  exceptId: string | null,
): Promise<Slot> {
  const slot = await slotAt(tx, doctorId, startAt);
  if (slot === undefined || slot.startAt.getTime() <= environment.clock.now().getTime())
    throw new AppError('appointment.notASlot');
  await store.lockPatientBookings(tx, patientId);
  if (await store.patientBusy(tx, patientId, slot.startAt, slot.endAt, exceptId))
    throw new AppError('appointment.patientBusy');
  return slot;
}

/** Maps the one-per-slot index's refusal to its answer. */
export async function guardSlot<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const cause = (error as { cause?: { constraint?: string } }).cause;
    if (
      (error as { constraint?: string }).constraint === 'appointments_one_per_slot' ||
      cause?.constraint === 'appointments_one_per_slot'
    )
      throw new AppError('appointment.slotTaken', { cause: error });
    throw error;
  }
}

/** The patient in the caller's view (another center's is not found), live; its account for the audit. */
async function visiblePatient(tx: TenantTransaction, patientId: string): Promise<{ userId: string | null }> {
  const row = await findPatient(tx, patientId);
  if (row === undefined) throw new AppError('patient.notFound');
  if (row.patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
  return { userId: row.patient.userId };
}

/**
 * Books a free slot of the doctor for the patient in the caller's transaction (→ UPCOMING): the
 * slot rules, the row, its audit row and the notices. The staff console's booking and the patient
 * app's share it; `byPatient` marks the app's in the audit.
 */
export async function bookInTransaction(
  tx: TenantTransaction,
  environment: ScheduleEnvironment,
  booking: {
    patientId: string;
    patientUserId: string | null;
    doctorId: string;
    startAt: Date;
    reason: string;
    note: string | undefined;
    place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
    paid: boolean;
    byPatient?: boolean;
  },
): Promise<store.AppointmentRow> {
  const { auth, clock } = environment;
  const slot = await bookableSlot(tx, environment, booking.doctorId, booking.patientId, booking.startAt, null);
  const now = clock.now();
  const id = uuidv7();
  await store.insertAppointment(tx, {
    tenantId: auth.tenantId,
    id,
    patientId: booking.patientId,
    doctorId: booking.doctorId,
    scheduleId: slot.scheduleId,
    startsAt: slot.startAt,
    endsAt: slot.endAt,
    reason: booking.reason,
    note: booking.note === undefined || booking.note === '' ? null : booking.note,
    place: booking.place,
    paid: booking.paid,
    status: 'UPCOMING',
    createdBy: auth.userId,
    createdAt: now,
    updatedAt: now,
  });
  await recordAudit(tx, auth.tenantId, environment.audit, {
    action: 'APPOINTMENT_CREATED',
    subjectUserId: booking.patientUserId,
    targetType: 'patient',
    targetId: booking.patientId,
    details: {
      appointmentId: id,
      doctorId: booking.doctorId,
      startAt: slot.startAt.toISOString(),
      ...(booking.byPatient === true ? { byPatient: true } : {}),
    },
    at: now,
  });
  await noticeAppointmentChange(tx, environment.database, auth.tenantId, id, 'BOOKED', auth.userId, environment.clock.now());
  const saved = await store.findAppointment(tx, id);
  if (saved === undefined) throw new AppError('appointment.notFound');
  return saved;
}

/** POST /account/appointments: a patient's visit in a free slot of the doctor. */
export function createAppointment(
  environment: ScheduleEnvironment,
  input: AppointmentInput,
): Promise<Appointment> {
  const { auth, clock } = environment;
  // A doctor books its own time; operators and admins book any doctor's they see.
  if (auth.role === 'DOCTOR' && input.doctorId !== auth.userId) throw new AppError('auth.permissionDenied');
  return guardSlot(() =>
    withCaller(environment.database, auth, async (tx) => {
      const patient = await visiblePatient(tx, input.patientId);
      const saved = await bookInTransaction(tx, environment, {
        patientId: input.patientId,
        patientUserId: patient.userId,
        doctorId: input.doctorId,
        startAt: new Date(input.startAt),
        reason: input.reason,
        note: input.note,
        place: input.place ?? 'CLINIC',
        paid: input.paid ?? false,
      });
      const now = clock.now();
      return toAppointment(saved, now);
    }),
  );
}

/** PUT /account/appointments/:id: details of an appointment still to come; a new start is another free slot. */
export function updateAppointment(
  environment: ScheduleEnvironment,
  id: string,
  input: AppointmentUpdate,
): Promise<Appointment> {
  const { auth, clock } = environment;
  return guardSlot(() =>
    withCaller(environment.database, auth, async (tx) => {
      const row = await store.findAppointment(tx, id, { lock: true });
      if (row === undefined) throw new AppError('appointment.notFound');
      if (auth.role === 'DOCTOR' && row.doctor_id !== auth.userId) throw new AppError('appointment.notFound');
      if (row.status !== 'UPCOMING') throw new AppError('appointment.wrongState');
      const startAt = new Date(input.startAt);
      const moved = startAt.getTime() !== new Date(row.starts_at).getTime();
      const slot = moved
        ? await bookableSlot(tx, environment, row.doctor_id, row.patient_id, startAt, id)
        : null;
      const now = clock.now();
      await store.updateAppointment(tx, id, {
        // A move is a new time: its reminders are sent for it.
        ...(slot === null
          ? {}
          : {
              scheduleId: slot.scheduleId,
              startsAt: slot.startAt,
              endsAt: slot.endAt,
              reminded24hAt: null,
              reminded15mAt: null,
            }),
        reason: input.reason,
        note: input.note === undefined || input.note === '' ? null : input.note,
        place: input.place ?? row.place,
        paid: input.paid ?? row.paid,
        updatedAt: now,
      });
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'APPOINTMENT_UPDATED',
        subjectUserId: row.patient_user_id,
        targetType: 'patient',
        targetId: row.patient_id,
        details: { appointmentId: id, ...(slot === null ? {} : { movedTo: slot.startAt.toISOString() }) },
        at: now,
      });
      await noticeAppointmentChange(tx, environment.database, auth.tenantId, id, 'UPDATED', auth.userId, environment.clock.now());
      const saved = await store.findAppointment(tx, id);
      if (saved === undefined) throw new AppError('appointment.notFound');
      return toAppointment(saved, now);
    }),
  );
}

/** POST /account/appointments/:id/transitions: one §4 transition with what it needs. */
export function transitionAppointment(
  environment: ScheduleEnvironment,
  id: string,
  input: AppointmentTransitionInput,
): Promise<Appointment> {
  const { auth, clock } = environment;
  const rule = APPOINTMENT_TRANSITIONS[input.action];
  const diagnosis = input.diagnosis?.trim() ?? '';
  const advice = input.advice?.trim() ?? '';
  const reason = input.reason?.trim() ?? '';
  if (input.action === 'complete' && (diagnosis === '' || advice === ''))
    throw new AppError('appointment.diagnosisRequired');
  if (input.action === 'cancel' && reason === '') throw new AppError('appointment.reasonRequired');
  if (input.action === 'cancel' && !auth.permissions.has('appointment.cancel'))
    throw new AppError('auth.permissionDenied');
  return withCaller(environment.database, auth, async (tx) => {
    const row = await store.findAppointment(tx, id, { lock: true });
    if (row === undefined) throw new AppError('appointment.notFound');
    if (auth.role === 'DOCTOR' && row.doctor_id !== auth.userId) throw new AppError('appointment.notFound');
    if (rule.doctorOnly && row.doctor_id !== auth.userId) throw new AppError('appointment.wrongState');
    if (!(rule.from as readonly string[]).includes(row.status)) throw new AppError('appointment.wrongState');
    const now = clock.now();
    await store.updateAppointment(tx, id, {
      status: rule.to,
      ...(input.action === 'complete' ? { diagnosis, advice } : {}),
      ...(input.action === 'cancel' ? { cancelReason: reason } : {}),
      updatedAt: now,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: AUDIT_OF[input.action],
      subjectUserId: row.patient_user_id,
      targetType: 'patient',
      targetId: row.patient_id,
      details: { appointmentId: id, from: row.status, to: rule.to },
      at: now,
    });
    const change = NOTICE_OF[input.action];
    if (change !== undefined) await noticeAppointmentChange(tx, environment.database, auth.tenantId, id, change, auth.userId, environment.clock.now());
    const saved = await store.findAppointment(tx, id);
    if (saved === undefined) throw new AppError('appointment.notFound');
    return toAppointment(saved, now);
  });
}

/** GET /account/appointments: a page of the appointments of the patients the caller sees (a doctor: its own). */
export function listAppointments(
  environment: ScheduleEnvironment,
  query: AppointmentListQuery,
): Promise<Page<Appointment>> {
  const { auth } = environment;
  const scoped = auth.role === 'DOCTOR' ? { ...query, doctorId: auth.userId } : query;
  return withCaller(environment.database, auth, async (tx) => {
    const rows = await store.listAppointments(tx, scoped);
    const now = environment.clock.now();
    if (rows.length > 0)
      await recordPatientReads(
        tx,
        auth.tenantId,
        environment.audit,
        {
          action: 'APPOINTMENTS_LISTED',
          patientIds: [...new Set(rows.map((row) => row.patient_id))],
          details: { shown: rows.length },
        },
        now,
      );
    return {
      items: rows.map((row) => toAppointment(row, now)),
      page: query.page,
      size: query.size,
      total: rows[0]?.total ?? 0,
    };
  });
}

/** The audit row of one appointment read (the console's detail and the app's). */
export function recordAppointmentViewed(
  tx: TenantTransaction,
  environment: ScheduleEnvironment,
  row: store.AppointmentRow,
  now: Date,
): Promise<void> {
  return recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action: 'APPOINTMENT_VIEWED',
      patientIds: [row.patient_id],
      subjectUserId: row.patient_user_id,
      targetId: row.patient_id,
      details: { appointmentId: row.id },
    },
    now,
  );
}

export function readAppointment(environment: ScheduleEnvironment, id: string): Promise<Appointment> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await store.findAppointment(tx, id);
    if (row === undefined || (auth.role === 'DOCTOR' && row.doctor_id !== auth.userId))
      throw new AppError('appointment.notFound');
    const now = environment.clock.now();
    await recordAppointmentViewed(tx, environment, row, now);
    return toAppointment(row, now);
  });
}

/** How long before its start an appointment can be checked in (to the end of its slot). */
export const CHECK_IN_OPENS_MINUTES = 120;

const checkInKey = (secretsKey: Buffer) =>
  createHmac('sha256', secretsKey).update('rpm/appointment-check-in/v1').digest();

/**
 * The signature of an appointment's check-in link: the tenant, the appointment and its start, so a
 * sheet printed before the appointment moved no longer checks it in.
 */
function checkInSignature(secretsKey: Buffer, tenantId: string, id: string, startsAt: Date): string {
  return createHmac('sha256', checkInKey(secretsKey))
    .update(`${tenantId}:${id}:${startsAt.toISOString()}`)
    .digest('base64url')
    .slice(0, 32);
}

/**
 * GET /account/appointments/:id/check-in: the token the appointment sheet prints as a QR code
 * (spec §2 "print QR"); the front desk scans it to check the patient in.
 */
export function checkInToken(
  environment: ScheduleEnvironment,
  secretsKey: Buffer,
  id: string,
): Promise<{ token: string; startAt: string }> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await store.findAppointment(tx, id);
    if (row === undefined || (auth.role === 'DOCTOR' && row.doctor_id !== auth.userId))
      throw new AppError('appointment.notFound');
    const startsAt = new Date(row.starts_at);
    return {
      token: `${id}.${checkInSignature(secretsKey, auth.tenantId, id, startsAt)}`,
      startAt: startsAt.toISOString(),
    };
  });
}

/**
 * POST /account/appointments/check-in: the scanned token checks its appointment in (UPCOMING →
 * WAITING_FOR_DOCTOR) from CHECK_IN_OPENS_MINUTES before its start to its end. A token that is not
 * this tenant's, was altered or names a moved appointment is not found (nothing is revealed).
 */
export async function checkInWithToken(
  environment: ScheduleEnvironment,
  secretsKey: Buffer,
  token: string,
): Promise<Appointment> {
  const { auth } = environment;
  const [id = '', signature = ''] = token.split('.');
  const row = await withCaller(environment.database, auth, (tx) =>
    /^[0-9a-f-]{36}$/.test(id) ? store.findAppointment(tx, id) : Promise.resolve(undefined),
  );
  const expected =
    row === undefined ? '' : checkInSignature(secretsKey, auth.tenantId, id, new Date(row.starts_at));
  if (
    row === undefined ||
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  )
    throw new AppError('appointment.notFound');
  const now = environment.clock.now().getTime();
  if (
    now < new Date(row.starts_at).getTime() - CHECK_IN_OPENS_MINUTES * 60_000 ||
    now > new Date(row.ends_at).getTime()
  )
    throw new AppError('appointment.checkInClosed');
  return transitionAppointment(environment, id, { action: 'checkIn' });
}
