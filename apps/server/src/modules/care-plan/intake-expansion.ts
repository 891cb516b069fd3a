import type { ReminderSchedule } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { expandSchedule } from './schedule.js';

/**
 * Doses are always made at least this far ahead (the app shows tomorrow's, and missed job runs lose
 * nothing); a medicine whose doses run out sooner is extended to INTAKE_EXTEND_HOURS ahead, so each
 * medicine is extended about once a day whatever the pass's period.
 */
export const INTAKE_HORIZON_HOURS = 48;
export const INTAKE_EXTEND_HOURS = 72;

interface ScheduledMedicine extends Record<string, unknown> {
  id: string;
  patient_id: string;
  schedule: ReminderSchedule;
  doses_made_until: Date | null;
  start_date: string;
  end_date: string;
  zone: string;
}

/**
 * The schedule within its prescription: a reminder never starts before the prescription nor runs
 * past its end date (a schedule "forever" ends with the prescription).
 */
export function boundedSchedule(
  schedule: ReminderSchedule,
  startDate: string,
  endDate: string,
): ReminderSchedule {
  const start = schedule.startDate > startDate ? schedule.startDate : startDate;
  const end = schedule.endDate === null || schedule.endDate > endDate ? endDate : schedule.endDate;
  return { ...schedule, startDate: start, endDate: end };
}

/**
 * Makes the doses due in [from, to) of every medicine on schedule of live prescriptions (one
 * prescription's, or all the transaction's tenant holds), in each patient's time zone, from where
 * each medicine's doses were made until (never twice), and records the new end. With `onlyBelow`,
 * only medicines whose doses end before it are extended (the periodic pass). Idempotent: a dose
 * exists once per medicine and time (the unique key), so runs may overlap. Returns how many doses
 * were made.
 */
export async function expandIntakes(
  tx: TenantTransaction,
  tenantId: string,
  window: { from: Date; to: Date; prescriptionId?: string; onlyBelow?: Date },
): Promise<number> {
  const fromDay = window.from.toISOString().slice(0, 10);
  const medicines = await tx.execute<ScheduledMedicine>(sql`
    SELECT m.id, m.patient_id, m.schedule, m.doses_made_until, p.start_date::text AS start_date, p.end_date::text AS end_date,
           patient_time_zone(m.patient_id) AS zone
      FROM prescription_medicines m
      JOIN prescriptions p ON p.tenant_id = m.tenant_id AND p.id = m.prescription_id
      JOIN patients patient ON patient.tenant_id = p.tenant_id AND patient.id = p.patient_id
     WHERE m.mode = 'ON_SCHEDULE' AND p.deactivated_at IS NULL
       AND patient.account_state = 'ACTIVE'
       AND p.end_date >= ${fromDay}::date - 1
       AND ${window.prescriptionId === undefined ? sql`true` : sql`p.id = ${window.prescriptionId}::uuid`}
       AND ${
         window.onlyBelow === undefined
           ? sql`true`
           : sql`(m.doses_made_until IS NULL OR m.doses_made_until < ${window.onlyBelow.toISOString()}::timestamptz)`
       }`);
  const extended: string[] = [];
  const rows = medicines.rows.flatMap((medicine) => {
    const madeUntil = medicine.doses_made_until === null ? null : new Date(medicine.doses_made_until);
    const from = madeUntil !== null && madeUntil > window.from ? madeUntil : window.from;
    if (from >= window.to) return [];
    extended.push(medicine.id);
    return expandSchedule(
      boundedSchedule(medicine.schedule, medicine.start_date, medicine.end_date),
      medicine.zone,
      from,
      window.to,
    ).map(
      (occurrence) =>
        sql`(${tenantId}, ${uuidv7()}, ${medicine.patient_id}, ${medicine.id}, ${occurrence.at.toISOString()}::timestamptz,
             ${occurrence.localDate}::date, ${occurrence.localTime}, ${occurrence.label})`,
    );
  });
  let made = 0;
  for (let start = 0; start < rows.length; start += 1000) {
    const inserted = await tx.execute(sql`
      INSERT INTO medication_intakes (tenant_id, id, patient_id, medicine_id, due_at, local_date, local_time, label)
      VALUES ${sql.join(rows.slice(start, start + 1000), sql`, `)}
      ON CONFLICT (tenant_id, medicine_id, due_at) DO NOTHING
      RETURNING id`);
    made += inserted.rows.length;
  }
  for (let start = 0; start < extended.length; start += 1000) {
    await tx.execute(sql`
      UPDATE prescription_medicines
         SET doses_made_until = greatest(doses_made_until, ${window.to.toISOString()}::timestamptz)
       WHERE id IN (${sql.join(
         extended.slice(start, start + 1000).map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`);
  }
  return made;
}

/**
 * Doses still to take whose time passed `windowMinutes` ago (the tenant's INTAKE_WINDOW_MINUTES):
 * unconfirmed; they can still be answered, late. Returns how many.
 */
export async function markUnconfirmed(tx: TenantTransaction, now: Date, windowMinutes: number): Promise<number> {
  const cutoff = new Date(now.getTime() - windowMinutes * 60_000);
  const result = await tx.execute(sql`
    UPDATE medication_intakes SET state = 'UNCONFIRMED'
     WHERE state = 'TO_TAKE' AND due_at < ${cutoff.toISOString()}::timestamptz
    RETURNING id`);
  return result.rows.length;
}
