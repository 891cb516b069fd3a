import {
  appAppointmentState,
  APPOINTMENT_OPEN_STATUSES,
  VIDEO_ROOM_OPENS_MINUTES,
  type AppointmentSlot,
  type MyAppointment,
  type MyAppointmentInput,
  type MyAppointmentListQuery,
} from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import type { Page } from '../care-plan/store.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import { requireFeature } from '../packages/subscriptions.js';
import { bookInTransaction, doctorSlots, guardSlot, recordAppointmentViewed, toAppointment } from './appointment-service.js';
import { noticeAppointmentChange } from './appointment-notices.js';
import * as store from './appointment-store.js';
import type { ScheduleEnvironment } from './service.js';

/**
 * The patient app's appointments (spec §2 patient app events and appointment states): the
 * session's profile (its own record or a sub-user's; a followed patient's are not shared) sees its
 * appointments as invited, booked, updated or cancelled, books a doctor's free slot and cancels
 * one still to come with a reason. Staff do everything else (check-in, examination, completion).
 */

const OPEN: readonly string[] = APPOINTMENT_OPEN_STATUSES;

/** Whether an online appointment's video room is open at `now` (10 minutes before to its end). */
export function isVideoOpen(
  row: Pick<store.AppointmentRow, 'place' | 'status' | 'starts_at' | 'ends_at'>,
  now: Date,
): boolean {
  const opensAt = new Date(row.starts_at).getTime() - VIDEO_ROOM_OPENS_MINUTES * 60_000;
  return (
    row.place === 'ONLINE' &&
    OPEN.includes(row.status) &&
    now.getTime() >= opensAt &&
    now.getTime() < new Date(row.ends_at).getTime()
  );
}

function toMine(row: store.AppointmentRow, now: Date): MyAppointment {
  const appointment = toAppointment(row, now);
  const accounts = [row.patient_user_id, row.patient_holder_id].filter((id): id is string => id !== null);
  return {
    ...appointment,
    appState: appAppointmentState(appointment, accounts),
    videoOpen: isVideoOpen(row, now),
  };
}

/** The profile's appointments: upcoming (still to come, or under way) soonest first, or past latest first. */
async function listMine(
  tx: TenantTransaction,
  patientId: string,
  query: MyAppointmentListQuery,
  now: Date,
): Promise<{ rows: store.AppointmentRow[]; total: number }> {
  const upcoming = query.when === 'upcoming';
  const result = await tx.execute<{ id: string; total: number }>(sql`
    SELECT id, count(*) OVER ()::int AS total FROM appointments
     WHERE patient_id = ${patientId}::uuid
       AND (CASE WHEN ${upcoming}::boolean
                 THEN status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING') AND ends_at > ${now.toISOString()}::timestamptz
                 ELSE NOT (status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING') AND ends_at > ${now.toISOString()}::timestamptz) END)
     ORDER BY CASE WHEN ${upcoming}::boolean THEN starts_at END ASC,
              CASE WHEN NOT ${upcoming}::boolean THEN starts_at END DESC, id
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  const rows: store.AppointmentRow[] = [];
  for (const { id } of result.rows) {
    const row = await store.findAppointment(tx, id);
    if (row !== undefined) rows.push(row);
  }
  return { rows, total: result.rows[0]?.total ?? 0 };
}

/** GET /health/me/appointments */
export function listMyAppointments(
  environment: ScheduleEnvironment,
  query: MyAppointmentListQuery,
): Promise<Page<MyAppointment>> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    // A followed patient's appointments are not shared: the database shows none of them.
    const profile = await requireProfile(tx, auth);
    const now = environment.clock.now();
    const { rows, total } = await listMine(tx, profile.patientId, query, now);
    if (rows.length > 0)
      await recordPatientReads(
        tx,
        auth.tenantId,
        environment.audit,
        { action: 'APPOINTMENTS_LISTED', patientIds: [profile.patientId], details: { shown: rows.length } },
        now,
      );
    return { items: rows.map((row) => toMine(row, now)), page: query.page, size: query.size, total };
  });
}

/** One appointment of the profile (another's is not found), locked for a change when asked. */
async function mine(
  tx: TenantTransaction,
  environment: ScheduleEnvironment,
  id: string,
  options: { lock?: boolean } = {},
): Promise<store.AppointmentRow> {
  const profile = await requireProfile(tx, environment.auth);
  if (options.lock === true) assertProfileWritable(profile);
  const row = await store.findAppointment(tx, id, options);
  if (row?.patient_id !== profile.patientId) throw new AppError('appointment.notFound');
  return row;
}

/** GET /health/me/appointments/:id */
export function readMyAppointment(environment: ScheduleEnvironment, id: string): Promise<MyAppointment> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await mine(tx, environment, id);
    const now = environment.clock.now();
    await recordAppointmentViewed(tx, environment, row, now);
    return toMine(row, now);
  });
}

/** GET /health/me/doctors/:doctorId/slots?date: the slots of a doctor's approved schedules, free or not. */
export function myDoctorSlots(
  environment: ScheduleEnvironment,
  doctorId: string,
  date: string,
): Promise<AppointmentSlot[]> {
  return doctorSlots(environment, doctorId, date);
}

/**
 * POST /health/me/appointments: the profile books a free slot of the doctor (→ UPCOMING, BOOKED in
 * the app). An online (video) one needs VIDEO_CONSULTATION in the profile's package
 * (package.upgradeRequired).
 */
export function bookMyAppointment(
  environment: ScheduleEnvironment,
  input: MyAppointmentInput,
): Promise<MyAppointment> {
  const { auth, clock } = environment;
  return guardSlot(() =>
    withCaller(environment.database, auth, async (tx) => {
      const profile = await requireProfile(tx, auth);
      assertProfileWritable(profile);
      const place = input.place ?? 'CLINIC';
      // A video consultation is a paid feature (spec §6); a visit at the clinic never is.
      if (place === 'ONLINE') await requireFeature(tx, profile.patientId, 'VIDEO_CONSULTATION');
      const doctor = await tx.execute<{ id: string }>(
        sql`SELECT id FROM users WHERE id = ${input.doctorId}::uuid AND role = 'DOCTOR' AND status = 'ACTIVE' AND deleted_at IS NULL`,
      );
      if (doctor.rows.length === 0) throw new AppError('appointment.notASlot');
      const saved = await bookInTransaction(tx, environment, {
        patientId: profile.patientId,
        patientUserId: auth.userId,
        doctorId: input.doctorId,
        startAt: new Date(input.startAt),
        reason: input.reason,
        note: input.note,
        place,
        paid: false,
        byPatient: true,
      });
      const now = clock.now();
      return toMine(saved, now);
    }),
  );
}

/** POST /health/me/appointments/:id/cancel: the profile calls off an appointment still to come. */
export function cancelMyAppointment(
  environment: ScheduleEnvironment,
  id: string,
  reason: string,
): Promise<MyAppointment> {
  const { auth, clock } = environment;
  const trimmed = reason.trim();
  if (trimmed === '') throw new AppError('appointment.reasonRequired');
  return withCaller(environment.database, auth, async (tx) => {
    const row = await mine(tx, environment, id, { lock: true });
    if (row.status !== 'UPCOMING') throw new AppError('appointment.wrongState');
    const now = clock.now();
    await store.updateAppointment(tx, id, { status: 'CANCELED', cancelReason: trimmed, updatedAt: now });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'APPOINTMENT_CANCELED',
      subjectUserId: row.patient_user_id,
      targetType: 'patient',
      targetId: row.patient_id,
      details: { appointmentId: id, from: row.status, to: 'CANCELED', byPatient: true },
      at: now,
    });
    await noticeAppointmentChange(tx, environment.database, auth.tenantId, id, 'CANCELED', auth.userId, environment.clock.now());
    const saved = await store.findAppointment(tx, id);
    if (saved === undefined) throw new AppError('appointment.notFound');
    return toMine(saved, now);
  });
}
