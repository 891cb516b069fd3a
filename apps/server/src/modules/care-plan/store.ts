import type {
  IntakeState,
  MedicineInput,
  PrescriptionInput,
  PrescriptionListQuery,
  ReminderSchedule,
} from '@rpm/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';

/**
 * The care plan's queries (migration 0038). Every one runs in the caller's transaction, so the
 * database's access rule (tenant, center, no followers, no patient writes) decides what exists.
 */

/** A user's full name from the users row aliased `alias` (empty parts left out). */
export const fullName = (alias: string) =>
  sql.raw(
    `concat_ws(' ', nullif(${alias}.first_name, ''), nullif(${alias}.middle_name, ''), nullif(${alias}.last_name, ''))`,
  );

/** A page of a list as the API answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}

export interface PrescriptionRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  name: string;
  rx_number: string | null;
  diagnosis: string | null;
  note_for_patient: string | null;
  start_date: string;
  end_date: string;
  refills: number;
  doctor_in_charge_id: string;
  doctor_in_charge_name: string;
  created_by: string;
  created_by_name: string;
  created_at: Date;
  deactivated_at: Date | null;
  deactivated_by: string | null;
  deactivated_by_name: string | null;
  replaces_id: string | null;
  replaced_by_id: string | null;
  medicine_count: number;
  total: number;
}

const PRESCRIPTION_COLUMNS = sql`
  p.id, p.patient_id, p.name, p.rx_number, p.diagnosis, p.note_for_patient,
  p.start_date::text AS start_date, p.end_date::text AS end_date, p.refills,
  p.doctor_in_charge_id, ${fullName('doctor')} AS doctor_in_charge_name,
  p.created_by, coalesce(${fullName('creator')}, '') AS created_by_name, p.created_at,
  p.deactivated_at, p.deactivated_by, ${fullName('deactivator')} AS deactivated_by_name,
  p.replaces_id, successor.id AS replaced_by_id,
  (SELECT count(*)::int FROM prescription_medicines m WHERE m.tenant_id = p.tenant_id AND m.prescription_id = p.id) AS medicine_count`;

const PRESCRIPTION_JOINS = sql`
  JOIN users doctor ON doctor.tenant_id = p.tenant_id AND doctor.id = p.doctor_in_charge_id
  LEFT JOIN users creator ON creator.tenant_id = p.tenant_id AND creator.id = p.created_by
  LEFT JOIN users deactivator ON deactivator.tenant_id = p.tenant_id AND deactivator.id = p.deactivated_by
  LEFT JOIN prescriptions successor ON successor.tenant_id = p.tenant_id AND successor.replaces_id = p.id`;

/** The SQL condition of a prescription state on the patient's day `today`. */
function stateCondition(state: PrescriptionListQuery['state'], today: string): SQL {
  switch (state) {
    case 'DEACTIVATED':
      return sql`p.deactivated_at IS NOT NULL`;
    case 'EXPIRED':
      return sql`p.deactivated_at IS NULL AND p.end_date < ${today}::date`;
    case 'IN_USE':
      return sql`p.deactivated_at IS NULL AND p.end_date >= ${today}::date`;
    default:
      return sql`true`;
  }
}

const SORT_COLUMNS = {
  start: sql`p.start_date`,
  name: sql`lower(p.name)`,
  created: sql`p.created_at`,
} as const;

export async function listPrescriptions(
  tx: TenantTransaction,
  patientId: string,
  query: PrescriptionListQuery,
  options: { today: string; withDeactivated: boolean },
): Promise<PrescriptionRow[]> {
  const search = query.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<PrescriptionRow>(sql`
    SELECT ${PRESCRIPTION_COLUMNS}, count(*) OVER ()::int AS total
      FROM prescriptions p ${PRESCRIPTION_JOINS}
     WHERE p.patient_id = ${patientId}::uuid
       AND ${stateCondition(query.state, options.today)}
       AND ${options.withDeactivated ? sql`true` : sql`p.deactivated_at IS NULL`}
       AND (${pattern}::text IS NULL OR p.name ILIKE ${pattern} OR p.rx_number ILIKE ${pattern})
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, p.created_at DESC, p.id
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

export async function findPrescription(
  tx: TenantTransaction,
  patientId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PrescriptionRow | undefined> {
  if (options.lock === true) {
    const locked = await tx.execute(
      sql`SELECT id FROM prescriptions WHERE id = ${id}::uuid AND patient_id = ${patientId}::uuid FOR UPDATE`,
    );
    if (locked.rows.length === 0) return undefined;
  }
  const result = await tx.execute<PrescriptionRow>(sql`
    SELECT ${PRESCRIPTION_COLUMNS}, 1 AS total
      FROM prescriptions p ${PRESCRIPTION_JOINS}
     WHERE p.id = ${id}::uuid AND p.patient_id = ${patientId}::uuid`);
  return result.rows[0];
}

export interface MedicineRow extends Record<string, unknown> {
  id: string;
  prescription_id: string;
  position: number;
  catalogue_id: string | null;
  name: string;
  dose: number;
  dose_unit: string;
  strength: string | null;
  quantity: number | null;
  side_effects: string | null;
  instructions: string | null;
  note: string | null;
  route: string;
  form: string;
  frequency_cycle: string;
  times_of_day: string[];
  meal: string;
  image_id: string | null;
  color: string | null;
  mode: string;
  schedule: ReminderSchedule | null;
}

export async function medicinesOf(
  tx: TenantTransaction,
  prescriptionIds: readonly string[],
): Promise<MedicineRow[]> {
  if (prescriptionIds.length === 0) return [];
  const result = await tx.execute<MedicineRow>(sql`
    SELECT id, prescription_id, position, catalogue_id, name, dose::float8 AS dose, dose_unit, strength, quantity,
           side_effects, instructions, note, route, form, frequency_cycle, times_of_day, meal, image_id, color, mode, schedule
      FROM prescription_medicines
     WHERE prescription_id IN (${sql.join(
       prescriptionIds.map((id) => sql`${id}::uuid`),
       sql`, `,
     )})
     ORDER BY prescription_id, position`);
  return result.rows;
}

/** Stores a prescription and its medicines; returns the new id. */
export async function insertPrescription(
  tx: TenantTransaction,
  values: {
    tenantId: string;
    patientId: string;
    input: PrescriptionInput;
    createdBy: string;
    now: Date;
    replacesId: string | null;
  },
): Promise<string> {
  const { input } = values;
  const id = uuidv7();
  await tx.execute(sql`
    INSERT INTO prescriptions (tenant_id, id, patient_id, name, rx_number, diagnosis, doctor_in_charge_id, note_for_patient,
                               start_date, end_date, refills, replaces_id, created_by, created_at)
    VALUES (${values.tenantId}, ${id}, ${values.patientId}, ${input.name}, ${input.rxNumber ?? null}, ${input.diagnosis ?? null},
            ${input.doctorInChargeId}, ${input.noteForPatient ?? null}, ${input.startDate}::date, ${input.endDate}::date,
            ${input.refills}, ${values.replacesId}, ${values.createdBy}, ${values.now.toISOString()}::timestamptz)`);
  const rows = input.medicines.map((medicine: MedicineInput, position) => {
    const timesOfDay = `{${[...new Set(medicine.timesOfDay)].join(',')}}`;
    return sql`(${values.tenantId}, ${uuidv7()}, ${id}, ${values.patientId}, ${position}, ${medicine.catalogueId ?? null},
      ${medicine.name}, ${medicine.dose}, ${medicine.doseUnit}, ${medicine.strength ?? null}, ${medicine.quantity ?? null},
      ${medicine.sideEffects ?? null}, ${medicine.instructions ?? null}, ${medicine.note ?? null}, ${medicine.route},
      ${medicine.form}, ${medicine.frequencyCycle}, ${timesOfDay}::text[], ${medicine.meal}, ${medicine.imageId ?? null},
      ${medicine.color ?? null}, ${medicine.mode}, ${medicine.schedule === null ? null : JSON.stringify(medicine.schedule)}::jsonb)`;
  });
  if (rows.length > 0) {
    await tx.execute(sql`
      INSERT INTO prescription_medicines (tenant_id, id, prescription_id, patient_id, position, catalogue_id, name, dose,
        dose_unit, strength, quantity, side_effects, instructions, note, route, form, frequency_cycle, times_of_day, meal,
        image_id, color, mode, schedule)
      VALUES ${sql.join(rows, sql`, `)}`);
  }
  return id;
}

export async function deactivate(tx: TenantTransaction, id: string, by: string, now: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE prescriptions SET deactivated_at = ${now.toISOString()}::timestamptz, deactivated_by = ${by}::uuid
     WHERE id = ${id}::uuid AND deactivated_at IS NULL`);
}

/** Doses not answered yet of a prescription's medicines from `from` on: a deactivated plan reminds no more. */
export async function dropFutureIntakes(
  tx: TenantTransaction,
  prescriptionId: string,
  from: Date,
): Promise<void> {
  await tx.execute(sql`
    DELETE FROM medication_intakes i
     USING prescription_medicines m
     WHERE m.tenant_id = i.tenant_id AND m.id = i.medicine_id AND m.prescription_id = ${prescriptionId}::uuid
       AND i.state = 'TO_TAKE' AND i.due_at >= ${from.toISOString()}::timestamptz`);
}

// Doses ---------------------------------------------------------------------------------------------

export interface IntakeRow extends Record<string, unknown> {
  id: string;
  patient_id: string;
  prescription_id: string;
  prescription_name: string;
  medicine_id: string;
  medicine_name: string;
  dose: number;
  dose_unit: string;
  strength: string | null;
  meal: string;
  instructions: string | null;
  color: string | null;
  due_at: Date;
  local_date: string;
  local_time: string;
  label: string;
  state: IntakeState;
  answered_at: Date | null;
  deactivated_at: Date | null;
}

const INTAKE_SELECT = sql`
  SELECT i.id, i.patient_id, p.id AS prescription_id, p.name AS prescription_name, m.id AS medicine_id,
         m.name AS medicine_name, m.dose::float8 AS dose, m.dose_unit, m.strength, m.meal, m.instructions, m.color,
         i.due_at, i.local_date::text AS local_date, i.local_time, i.label, i.state, i.answered_at, p.deactivated_at
    FROM medication_intakes i
    JOIN prescription_medicines m ON m.tenant_id = i.tenant_id AND m.id = i.medicine_id
    JOIN prescriptions p ON p.tenant_id = m.tenant_id AND p.id = m.prescription_id`;

/** A patient's doses of one local day, in time order. */
export async function intakesOfDay(
  tx: TenantTransaction,
  patientId: string,
  localDate: string,
  options: { withDeactivated: boolean },
): Promise<IntakeRow[]> {
  const result = await tx.execute<IntakeRow>(sql`
    ${INTAKE_SELECT}
     WHERE i.patient_id = ${patientId}::uuid AND i.local_date = ${localDate}::date
       AND ${options.withDeactivated ? sql`true` : sql`p.deactivated_at IS NULL`}
     ORDER BY i.due_at, m.position`);
  return result.rows;
}

export async function findIntake(
  tx: TenantTransaction,
  patientId: string,
  id: string,
): Promise<IntakeRow | undefined> {
  const result = await tx.execute<IntakeRow>(sql`
    ${INTAKE_SELECT}
     WHERE i.id = ${id}::uuid AND i.patient_id = ${patientId}::uuid
     FOR UPDATE OF i`);
  return result.rows[0];
}

export async function answerIntake(
  tx: TenantTransaction,
  id: string,
  values: { state: IntakeState; at: Date; by: string },
): Promise<void> {
  await tx.execute(sql`
    UPDATE medication_intakes SET state = ${values.state}, answered_at = ${values.at.toISOString()}::timestamptz,
           answered_by = ${values.by}::uuid
     WHERE id = ${id}::uuid`);
}

export interface IntakeCountRow extends Record<string, unknown> {
  medicine_id: string;
  local_date: string;
  state: IntakeState;
  count: number;
}

/** The doses of a prescription's medicines per medicine, day and state, between two local days. */
export async function intakeCounts(
  tx: TenantTransaction,
  prescriptionId: string,
  from: string,
  to: string,
): Promise<IntakeCountRow[]> {
  const result = await tx.execute<IntakeCountRow>(sql`
    SELECT i.medicine_id, i.local_date::text AS local_date, i.state, count(*)::int AS count
      FROM medication_intakes i
      JOIN prescription_medicines m ON m.tenant_id = i.tenant_id AND m.id = i.medicine_id
     WHERE m.prescription_id = ${prescriptionId}::uuid
       AND i.local_date BETWEEN ${from}::date AND ${to}::date
     GROUP BY i.medicine_id, i.local_date, i.state
     ORDER BY i.local_date`);
  return result.rows;
}
