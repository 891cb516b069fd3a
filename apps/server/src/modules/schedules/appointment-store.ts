import type { AppointmentListQuery } from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { appointments } from '../../db/schema.js';
import { fullName } from '../care-plan/store.js';

/** Appointments (migration 0044), in the caller's transaction: the database decides what exists. */

export interface AppointmentRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  patient_name: string;
  patient_code: string;
  patient_user_id: string | null;
  /** The account holding the patient when it is a sub-user. */
  patient_holder_id: string | null;
  doctor_id: string;
  doctor_name: string;
  schedule_id: string;
  starts_at: Date | string;
  ends_at: Date | string;
  reason: string;
  note: string | null;
  place: 'CLINIC' | 'PATIENT_ADDRESS' | 'ONLINE';
  paid: boolean;
  status: 'UPCOMING' | 'WAITING_FOR_DOCTOR' | 'EXAMINING' | 'PENDING' | 'COMPLETED' | 'CANCELED';
  diagnosis: string | null;
  advice: string | null;
  cancel_reason: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  total: number;
}

const COLUMNS = sql`
  a.id, a.patient_id, ${fullName('patient')} AS patient_name, patient.patient_code, patient.user_id AS patient_user_id,
  patient.holder_user_id AS patient_holder_id,
  a.doctor_id, ${fullName('doctor')} AS doctor_name, a.schedule_id, a.starts_at, a.ends_at, a.reason, a.note, a.place,
  a.paid, a.status, a.diagnosis, a.advice, a.cancel_reason, a.created_by, ${fullName('creator')} AS created_by_name,
  a.created_at, a.updated_at`;
const JOINS = sql`
  JOIN patients patient ON patient.tenant_id = a.tenant_id AND patient.id = a.patient_id
  JOIN users doctor ON doctor.tenant_id = a.tenant_id AND doctor.id = a.doctor_id
  LEFT JOIN users creator ON creator.tenant_id = a.tenant_id AND creator.id = a.created_by`;

export async function listAppointments(
  tx: TenantTransaction,
  query: AppointmentListQuery,
): Promise<AppointmentRow[]> {
  const search = query.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<AppointmentRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM appointments a ${JOINS}
     WHERE (${query.status ?? null}::text IS NULL OR a.status = ${query.status ?? null})
       AND (${query.doctorId ?? null}::uuid IS NULL OR a.doctor_id = ${query.doctorId ?? null}::uuid)
       AND (${query.patientId ?? null}::uuid IS NULL OR a.patient_id = ${query.patientId ?? null}::uuid)
       AND (${query.from ?? null}::timestamptz IS NULL OR a.starts_at >= ${query.from ?? null}::timestamptz)
       AND (${query.to ?? null}::timestamptz IS NULL OR a.starts_at < ${query.to ?? null}::timestamptz)
       AND (${pattern}::text IS NULL OR ${fullName('patient')} ILIKE ${pattern} OR patient.patient_code ILIKE ${pattern})
     ORDER BY a.starts_at ${direction}, a.id ${direction}
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

export async function findAppointment(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<AppointmentRow | undefined> {
  if (options.lock === true) {
    const locked = await tx.execute(sql`SELECT id FROM appointments WHERE id = ${id}::uuid FOR UPDATE`);
    if (locked.rows.length === 0) return undefined;
  }
  const result = await tx.execute<AppointmentRow>(sql`
    SELECT ${COLUMNS}, 1 AS total FROM appointments a ${JOINS} WHERE a.id = ${id}::uuid`);
  return result.rows[0];
}

/** The open appointments of a doctor starting in [from, to): the taken slots. */
export async function takenStarts(
  tx: TenantTransaction,
  doctorId: string,
  from: Date,
  to: Date,
): Promise<Set<number>> {
  const result = await tx.execute<{ starts_at: Date | string }>(sql`
    SELECT starts_at FROM appointments
     WHERE doctor_id = ${doctorId}::uuid AND status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING')
       AND starts_at >= ${from.toISOString()}::timestamptz AND starts_at < ${to.toISOString()}::timestamptz`);
  return new Set(result.rows.map((row) => new Date(row.starts_at).getTime()));
}

/** Whether the patient has another open appointment overlapping [start, end). */
export async function patientBusy(
  tx: TenantTransaction,
  patientId: string,
  start: Date,
  end: Date,
  exceptId: string | null,
): Promise<boolean> {
  const result = await tx.execute(sql`
    SELECT 1 FROM appointments
     WHERE patient_id = ${patientId}::uuid AND status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING')
       AND starts_at < ${end.toISOString()}::timestamptz AND ends_at > ${start.toISOString()}::timestamptz
       AND (${exceptId}::uuid IS NULL OR id <> ${exceptId}::uuid)
     LIMIT 1`);
  return result.rows.length > 0;
}

/** Open appointments still to come in a schedule (spec §8: such a schedule cannot be deleted). */
export async function comingInSchedule(
  tx: TenantTransaction,
  scheduleId: string,
  now: Date,
): Promise<number> {
  const result = await tx.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM appointments
     WHERE schedule_id = ${scheduleId}::uuid AND status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING')
       AND ends_at > ${now.toISOString()}::timestamptz`);
  return result.rows[0]?.n ?? 0;
}

/** The open appointments still to come in a schedule, locked for a change. */
export async function lockComingInSchedule(
  tx: TenantTransaction,
  scheduleId: string,
  now: Date,
): Promise<{ id: string; patient_id: string; patient_user_id: string | null; status: string }[]> {
  const result = await tx.execute<{ id: string; patient_id: string; patient_user_id: string | null; status: string }>(sql`
    SELECT a.id, a.patient_id, patient.user_id AS patient_user_id, a.status FROM appointments a
      JOIN patients patient ON patient.tenant_id = a.tenant_id AND patient.id = a.patient_id
     WHERE a.schedule_id = ${scheduleId}::uuid AND a.status IN ('UPCOMING', 'WAITING_FOR_DOCTOR', 'PENDING')
       AND a.ends_at > ${now.toISOString()}::timestamptz
     ORDER BY a.starts_at
       FOR UPDATE OF a`);
  return result.rows;
}

/** Serialises bookings of one patient (the overlap check reads, then writes). */
export async function lockPatientBookings(tx: TenantTransaction, patientId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('appointments:' || ${patientId}, 0))`);
}

export async function insertAppointment(
  tx: TenantTransaction,
  row: typeof appointments.$inferInsert,
): Promise<void> {
  await tx.insert(appointments).values(row);
}

export async function updateAppointment(
  tx: TenantTransaction,
  id: string,
  changes: Partial<typeof appointments.$inferInsert>,
): Promise<void> {
  await tx.update(appointments).set(changes).where(eq(appointments.id, id));
}
