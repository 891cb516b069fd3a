import type { PrescriptionInput, ReminderSchedule } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { expandIntakes, INTAKE_EXTEND_HOURS } from '../modules/care-plan/intake-expansion.js';
import { insertPrescription } from '../modules/care-plan/store.js';
import type { DemoTenantData } from './demo.js';

const DAY = 24 * 60 * 60 * 1000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/**
 * The demo patient's care plan: a prescription in use (two medicines on schedule and one on
 * demand) started a week ago, with a week of answered doses (mostly taken, some late, one skipped,
 * some left unconfirmed) so the usage history and adherence have something to show; the next 48
 * hours of doses; and a care reminder to measure blood pressure.
 */
export async function seedDemoCarePlan(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  // The first patient holds the demo patient login (demo.ts).
  const patient = data.patients.find((candidate) => candidate.userId !== null);
  const patientUserId = patient?.userId ?? null;
  const doctorId = data.staff.DOCTOR;
  if (patient === undefined || doctorId === undefined) return;
  const start = dateIn(-7);
  const daily = (times: { label: string; time: string }[]): ReminderSchedule => ({
    times,
    repeat: { kind: 'WEEKDAYS', weekdays: EVERY_DAY },
    startDate: start,
    endDate: null,
  });
  const input: PrescriptionInput = {
    name: 'Blood pressure and blood sugar',
    rxNumber: 'RX-2026-0142',
    diagnosis: 'Hypertension; type 2 diabetes',
    doctorInChargeId: doctorId,
    noteForPatient:
      'Take Metformin after meals. Measure your blood pressure every morning before Amlodipine.',
    startDate: start,
    endDate: dateIn(23),
    refills: 1,
    medicines: [
      {
        catalogueId: 'C08CA01',
        name: 'Amlodipine',
        strength: '5 mg',
        dose: 1,
        doseUnit: 'PILL',
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: ['MORNING'],
        meal: 'ANYTIME',
        color: '#f2c94c',
        mode: 'ON_SCHEDULE',
        schedule: daily([{ label: 'Morning', time: '08:00' }]),
      },
      {
        catalogueId: 'A10BA02',
        name: 'Metformin',
        strength: '500 mg',
        dose: 1,
        doseUnit: 'PILL',
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: ['MORNING', 'EVENING'],
        meal: 'AFTER_MEAL',
        instructions: 'Swallow whole with water.',
        sideEffects: 'Upset stomach in the first weeks.',
        mode: 'ON_SCHEDULE',
        schedule: daily([
          { label: 'After breakfast', time: '08:30' },
          { label: 'After dinner', time: '19:30' },
        ]),
      },
      {
        catalogueId: 'N02BE01',
        name: 'Paracetamol',
        strength: '500 mg',
        dose: 1,
        doseUnit: 'PILL',
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: [],
        meal: 'ANYTIME',
        instructions: 'For a headache; at most 4 a day.',
        mode: 'ON_DEMAND',
        schedule: null,
      },
    ],
  };
  const now = new Date();
  const id = await insertPrescription(tx, {
    tenantId: data.tenantId,
    patientId: patient.id,
    input,
    createdBy: doctorId,
    now: new Date(now.getTime() - 7 * DAY),
    replacesId: null,
  });
  // The past week's doses, answered in a fixed pattern; then the coming 48 hours.
  await expandIntakes(tx, data.tenantId, {
    from: new Date(now.getTime() - 8 * DAY),
    to: now,
    prescriptionId: id,
  });
  await tx.execute(sql`
    WITH numbered AS (
      SELECT i.id, i.due_at, row_number() OVER (ORDER BY i.due_at) AS n
        FROM medication_intakes i JOIN prescription_medicines m ON m.tenant_id = i.tenant_id AND m.id = i.medicine_id
       WHERE m.prescription_id = ${id}::uuid AND i.due_at < ${now.toISOString()}::timestamptz - interval '30 minutes')
    UPDATE medication_intakes i
       SET state = CASE WHEN n % 11 = 0 THEN 'SKIPPED' WHEN n % 7 = 0 THEN 'UNCONFIRMED' WHEN n % 5 = 0 THEN 'TAKEN_LATE' ELSE 'TAKEN' END,
           answered_at = CASE WHEN n % 11 <> 0 AND n % 7 = 0 THEN NULL
                              WHEN n % 5 = 0 THEN numbered.due_at + interval '75 minutes'
                              ELSE numbered.due_at + interval '5 minutes' END,
           answered_by = CASE WHEN n % 11 <> 0 AND n % 7 = 0 THEN NULL ELSE ${patientUserId}::uuid END
      FROM numbered WHERE numbered.id = i.id`);
  await expandIntakes(tx, data.tenantId, {
    from: now,
    to: new Date(now.getTime() + INTAKE_EXTEND_HOURS * 3_600_000),
    prescriptionId: id,
  });
  await tx.execute(sql`
    INSERT INTO care_reminders (tenant_id, id, patient_id, title, note, schedule, created_by, created_at)
    VALUES (${data.tenantId}, ${uuidv7()}, ${patient.id}, 'Measure your blood pressure', 'Sit quietly for 5 minutes first.',
            ${JSON.stringify(daily([{ label: 'Morning', time: '07:30' }]))}::jsonb, ${doctorId}, ${now.toISOString()}::timestamptz)`);
}
