/** Test support for the reviews tests: appointments in a given state, stored as the owner. */
import { uuidv7 } from 'uuidv7';
import { asOwner } from '../../../test/database.js';

/** An approved weekly schedule of the doctor and one appointment of the patient in it. */
export async function insertAppointment(
  ownerUrl: string,
  facts: { tenantId: string; patientId: string; doctorId: string; status: 'COMPLETED' | 'UPCOMING' },
): Promise<string> {
  const scheduleId = uuidv7();
  const appointmentId = uuidv7();
  await asOwner(
    ownerUrl,
    `INSERT INTO doctor_schedules (tenant_id, id, doctor_id, kind, start_date, end_date, weekdays, start_time, end_time, slot_minutes, time_zone, status, requested_at)
     VALUES ($1, $2, $3, 'WEEKLY', '2026-01-01', '2026-12-31', '{1,2,3,4,5}', '08:00', '12:00', 30, 'Asia/Ho_Chi_Minh', 'APPROVED', now())`,
    [facts.tenantId, scheduleId, facts.doctorId],
  );
  const isCompleted = facts.status === 'COMPLETED';
  await asOwner(
    ownerUrl,
    `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, diagnosis, advice, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, now() - interval '2 days', now() - interval '2 days' + interval '30 minutes', 'Check-up', 'CLINIC', $6, $7, $7, now(), now())`,
    [facts.tenantId, appointmentId, facts.patientId, facts.doctorId, scheduleId, facts.status, isCompleted ? 'Healthy' : null],
  );
  return appointmentId;
}

/** The doctor's rating as stored on its profile. */
export async function ratingOf(ownerUrl: string, doctorId: string): Promise<{ average: number; count: number }> {
  const rows = await asOwner<{ rating_average: string; rating_count: number }>(
    ownerUrl,
    'SELECT rating_average, rating_count FROM doctor_profiles WHERE doctor_id = $1',
    [doctorId],
  );
  return { average: Number(rows[0]?.rating_average ?? 0), count: rows[0]?.rating_count ?? 0 };
}

/** A real 1x1 GIF. */
export const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');
