import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { fullName } from '../care-plan/store.js';

/**
 * The statistical report's reads (migrations 0043, 0044), in the caller's transaction: the
 * database's rule decides which doctors, schedules and appointments the caller sees.
 */

export interface ReportDoctorRow extends Record<string, unknown> {
  id: string;
  full_name: string;
  time_zone: string;
}

/**
 * The doctors the caller sees with an approved schedule or an appointment around the days from
 * `from` to `to` (two days either side, for time zones; the service keeps the exact local days).
 */
export async function reportDoctors(
  tx: TenantTransaction,
  filter: { from: string; to: string; doctorId: string | null },
): Promise<ReportDoctorRow[]> {
  const result = await tx.execute<ReportDoctorRow>(sql`
    SELECT u.id, ${fullName('u')} AS full_name, u.time_zone
      FROM users u
     WHERE u.role = 'DOCTOR'
       AND (${filter.doctorId}::uuid IS NULL OR u.id = ${filter.doctorId}::uuid)
       AND (EXISTS (SELECT 1 FROM doctor_schedules s
                     WHERE s.tenant_id = u.tenant_id AND s.doctor_id = u.id AND s.status = 'APPROVED'
                       AND s.start_date <= ${filter.to}::date + 2 AND s.end_date >= ${filter.from}::date - 2)
            OR EXISTS (SELECT 1 FROM appointments a
                        WHERE a.tenant_id = u.tenant_id AND a.doctor_id = u.id
                          AND a.starts_at >= (${filter.from}::date - 2)::timestamp AT TIME ZONE 'UTC'
                          AND a.starts_at < (${filter.to}::date + 3)::timestamp AT TIME ZONE 'UTC'))
     ORDER BY lower(${fullName('u')}), u.id`);
  return result.rows;
}

export interface AppointmentDayRow extends Record<string, unknown> {
  doctor_id: string;
  /** The doctor's local day the appointment starts on. */
  day: string;
  booked: number;
  completed: number;
  cancelled: number;
  no_shows: number;
}

/**
 * The doctors' appointments counted per local day of start (in the doctor's time zone) from `from`
 * to `to`: all of them, completed, cancelled, and no-shows (the slot ended while still UPCOMING).
 */
export async function appointmentDays(
  tx: TenantTransaction,
  filter: { from: string; to: string; doctors: readonly string[]; now: Date },
): Promise<AppointmentDayRow[]> {
  if (filter.doctors.length === 0) return [];
  const result = await tx.execute<AppointmentDayRow>(sql`
    SELECT a.doctor_id, (a.starts_at AT TIME ZONE u.time_zone)::date::text AS day,
           count(*)::int AS booked,
           count(*) FILTER (WHERE a.status = 'COMPLETED')::int AS completed,
           count(*) FILTER (WHERE a.status = 'CANCELED')::int AS cancelled,
           count(*) FILTER (WHERE a.status = 'UPCOMING' AND a.ends_at <= ${filter.now.toISOString()}::timestamptz)::int AS no_shows
      FROM appointments a
      JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.doctor_id
     WHERE a.doctor_id = ANY (${sql.param([...filter.doctors])}::uuid[])
       AND a.starts_at >= (${filter.from}::date - 2)::timestamp AT TIME ZONE 'UTC'
       AND a.starts_at < (${filter.to}::date + 3)::timestamp AT TIME ZONE 'UTC'
       AND (a.starts_at AT TIME ZONE u.time_zone)::date BETWEEN ${filter.from}::date AND ${filter.to}::date
     GROUP BY 1, 2`);
  return result.rows;
}
