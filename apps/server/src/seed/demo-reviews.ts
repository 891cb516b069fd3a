import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import type { DemoTenantData } from './demo.js';

const DAY = 24 * 60 * 60 * 1000;

/** What the demo doctor's patients wrote: rating and message, newest last. */
const FAMILY_DOCTOR_REVIEWS: [number, string][] = [
  [5, 'Explains every result patiently and calls back the same day.'],
  [5, 'My blood pressure is finally under control. Thank you, doctor.'],
  [4, 'Very thorough, though the clinic was busy and I waited a while.'],
  [5, 'Kind to my mother and clear about her medicines.'],
  [4, 'Good advice on diet and exercise.'],
  [3, 'Helpful, but the appointment felt rushed.'],
  [5, 'Noticed the irregular heartbeat on the watch data before I did.'],
];
const CARDIOLOGIST_REVIEWS: [number, string][] = [
  [5, 'Clear explanation of the ECG and what to watch for.'],
  [4, 'Competent and calm; the follow-up was easy to book.'],
];

/**
 * Reviews by the demo doctor's and the cardiologist's patients (care-team members, so they may
 * rate), the demo patient's excepted so that it can write its own in the app. The doctors' ratings
 * come from these through the trigger of migration 0050.
 */
export async function seedDemoReviews(tx: TenantTransaction, data: DemoTenantData, doctors: { family: string; cardiologist: string | undefined }) {
  const cared = await tx.execute<{ patient_id: string; doctor_id: string }>(sql`
    SELECT patient_id, doctor_id FROM patient_doctors ORDER BY patient_id`);
  const demoPatient = data.patients.find((patient) => patient.userId !== null)?.id;
  const writers = (doctorId: string) =>
    cared.rows.filter((row) => row.doctor_id === doctorId && row.patient_id !== demoPatient).map((row) => row.patient_id);
  const plan: { doctorId: string; reviews: [number, string][] }[] = [
    { doctorId: doctors.family, reviews: FAMILY_DOCTOR_REVIEWS },
    ...(doctors.cardiologist === undefined ? [] : [{ doctorId: doctors.cardiologist, reviews: CARDIOLOGIST_REVIEWS }]),
  ];
  const now = Date.now();
  for (const { doctorId, reviews } of plan) {
    const patients = writers(doctorId);
    for (const [index, [rating, message]] of reviews.entries()) {
      const patientId = patients[index];
      if (patientId === undefined) break;
      const at = new Date(now - (reviews.length - index) * 3 * DAY);
      await tx.execute(sql`
        INSERT INTO doctor_reviews (tenant_id, id, patient_id, doctor_id, rating, message, author_initial, created_by, created_at, updated_at)
        SELECT ${data.tenantId}::uuid, ${uuidv7()}::uuid, p.id, ${doctorId}::uuid, ${rating}, ${message},
               upper(left(btrim(coalesce(nullif(p.first_name, ''), p.last_name, '')), 1)), p.user_id, ${at}, ${at}
          FROM patients p WHERE p.id = ${patientId}::uuid`);
    }
  }
}
