import {
  adherencePercent,
  isPatientRole,
  prescriptionProblems,
  prescriptionState,
  prescriptionTotalDays,
  type FieldError,
  type IntakeCounts,
  type Medicine,
  type PrescriptionDetail,
  type PrescriptionInput,
  type PrescriptionListQuery,
  type PrescriptionSummary,
  type UsageHistory,
} from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { notifyPatient } from '../notifications/notify.js';
import { assignableDoctor, reachablePatient } from '../doctors/care-team-service.js';
import { todayOf } from '../doctors/store.js';
import { requireProfile } from '../followers/profile.js';
import { expandIntakes, INTAKE_EXTEND_HOURS } from './intake-expansion.js';
import * as store from './store.js';
import type { Page } from './store.js';

export interface CarePlanEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

/** Spec §4: deactivation hides a prescription from the patient (and its doses from the app). */
export const showsDeactivated = (auth: AuthContext) => !isPatientRole(auth.role);

/** The patient's calendar day now, in their time zone (migration 0027's patient_time_zone). */
export async function patientToday(tx: TenantTransaction, patientId: string, now: Date): Promise<string> {
  const result = await tx.execute<{ day: string }>(
    sql`SELECT (${now.toISOString()}::timestamptz AT TIME ZONE patient_time_zone(${patientId}::uuid))::date::text AS day`,
  );
  return result.rows[0]?.day ?? todayOf(now);
}

function toSummary(row: store.PrescriptionRow, today: string): PrescriptionSummary {
  return {
    id: row.id,
    name: row.name,
    rxNumber: row.rx_number,
    state: prescriptionState({ endDate: row.end_date, deactivatedAt: row.deactivated_at }, today),
    startDate: row.start_date,
    endDate: row.end_date,
    totalDays: prescriptionTotalDays(row.start_date, row.end_date),
    refills: row.refills,
    doctorInCharge: { id: row.doctor_in_charge_id, fullName: row.doctor_in_charge_name },
    medicineCount: row.medicine_count,
    replacesId: row.replaces_id,
    replacedById: row.replaced_by_id,
    createdAt: new Date(row.created_at).toISOString(),
    deactivatedAt: row.deactivated_at === null ? null : new Date(row.deactivated_at).toISOString(),
  };
}

function toMedicine(row: store.MedicineRow): Medicine {
  return {
    id: row.id,
    position: row.position,
    catalogueId: row.catalogue_id,
    name: row.name,
    dose: row.dose,
    doseUnit: row.dose_unit as Medicine['doseUnit'],
    strength: row.strength,
    quantity: row.quantity,
    sideEffects: row.side_effects,
    instructions: row.instructions,
    note: row.note,
    route: row.route as Medicine['route'],
    form: row.form as Medicine['form'],
    frequencyCycle: row.frequency_cycle as Medicine['frequencyCycle'],
    timesOfDay: row.times_of_day as Medicine['timesOfDay'],
    meal: row.meal as Medicine['meal'],
    imageId: row.image_id,
    color: row.color,
    mode: row.mode as Medicine['mode'],
    schedule: row.schedule,
  };
}

async function toDetail(
  tx: TenantTransaction,
  row: store.PrescriptionRow,
  today: string,
): Promise<PrescriptionDetail> {
  const medicines = await store.medicinesOf(tx, [row.id]);
  return {
    ...toSummary(row, today),
    patientId: row.patient_id,
    diagnosis: row.diagnosis,
    noteForPatient: row.note_for_patient,
    medicines: medicines.map(toMedicine),
    createdBy: { id: row.created_by, fullName: row.created_by_name },
    deactivatedBy:
      row.deactivated_by === null
        ? null
        : { id: row.deactivated_by, fullName: row.deactivated_by_name ?? '' },
  };
}

/** Spec §5: every rule of the prescription and its medicines, as field errors (carePlan:problems.* messages). */
function assertValid(input: PrescriptionInput): void {
  const problems = prescriptionProblems(input);
  if (problems.length === 0) return;
  const fieldErrors: FieldError[] = problems.map((problem) => ({
    field: `body.${problem.path}`,
    code: problem.code,
    message: `carePlan:problems.${problem.code}`,
  }));
  throw new AppError('prescription.invalid', { fieldErrors });
}

/** A prescription the caller sees (a patient session never sees a deactivated one); else prescription.notFound. */
async function visiblePrescription(
  tx: TenantTransaction,
  auth: AuthContext,
  patientId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<store.PrescriptionRow> {
  const row = await store.findPrescription(tx, patientId, id, options);
  if (row === undefined || (row.deactivated_at !== null && !showsDeactivated(auth)))
    throw new AppError('prescription.notFound');
  return row;
}

async function livePatient(tx: TenantTransaction, patientId: string, options: { lock?: boolean } = {}) {
  const patient = await reachablePatient(tx, patientId, options);
  if (patient.accountState !== 'ACTIVE') throw new AppError('patient.accountDeleted');
  return patient;
}

// Reads ---------------------------------------------------------------------------------------------

async function listIn(
  tx: TenantTransaction,
  environment: CarePlanEnvironment,
  patientId: string,
  subjectUserId: string | null,
  query: PrescriptionListQuery,
): Promise<Page<PrescriptionSummary>> {
  const today = await patientToday(tx, patientId, environment.clock.now());
  const rows = await store.listPrescriptions(tx, patientId, query, {
    today,
    withDeactivated: showsDeactivated(environment.auth),
  });
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action: 'PRESCRIPTIONS_LISTED',
      patientIds: [patientId],
      subjectUserId,
      targetId: patientId,
      details: { shown: rows.length },
    },
    environment.clock.now(),
  );
  return {
    items: rows.map((row) => toSummary(row, today)),
    page: query.page,
    size: query.size,
    total: rows[0]?.total ?? 0,
  };
}

async function detailIn(
  tx: TenantTransaction,
  environment: CarePlanEnvironment,
  patientId: string,
  subjectUserId: string | null,
  id: string,
): Promise<PrescriptionDetail> {
  const row = await visiblePrescription(tx, environment.auth, patientId, id);
  const detail = await toDetail(tx, row, await patientToday(tx, patientId, environment.clock.now()));
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action: 'PRESCRIPTION_VIEWED',
      patientIds: [patientId],
      subjectUserId,
      targetType: 'prescription',
      targetId: id,
    },
    environment.clock.now(),
  );
  return detail;
}

/** A patient's prescriptions (paged, searchable by name or RX number, filterable by state). Audited. */
export function listPrescriptions(
  environment: CarePlanEnvironment,
  patientId: string,
  query: PrescriptionListQuery,
): Promise<Page<PrescriptionSummary>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    return listIn(tx, environment, patientId, patient.userId, query);
  });
}

export function readPrescription(
  environment: CarePlanEnvironment,
  patientId: string,
  id: string,
): Promise<PrescriptionDetail> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    return detailIn(tx, environment, patientId, patient.userId, id);
  });
}

// Writes (spec §4: an edit deactivates and creates; deactivation is permanent) ---------------------

async function writeIn(
  tx: TenantTransaction,
  environment: CarePlanEnvironment,
  patientId: string,
  input: PrescriptionInput,
  replaces: store.PrescriptionRow | null,
): Promise<PrescriptionDetail> {
  const now = environment.clock.now();
  const patient = await livePatient(tx, patientId, { lock: true });
  await assignableDoctor(tx, input.doctorInChargeId, todayOf(now));
  if (replaces !== null) {
    if (replaces.deactivated_at !== null) throw new AppError('prescription.deactivated');
    await store.deactivate(tx, replaces.id, environment.auth.userId, now);
    await store.dropFutureIntakes(tx, replaces.id, now);
  }
  const id = await store.insertPrescription(tx, {
    tenantId: environment.auth.tenantId,
    patientId,
    input,
    createdBy: environment.auth.userId,
    now,
    replacesId: replaces?.id ?? null,
  });
  await expandIntakes(tx, environment.auth.tenantId, {
    from: now,
    to: new Date(now.getTime() + INTAKE_EXTEND_HOURS * 3_600_000),
    prescriptionId: id,
  });
  await recordAudit(tx, environment.auth.tenantId, environment.audit, {
    action: replaces === null ? 'PRESCRIPTION_CREATED' : 'PRESCRIPTION_REPLACED',
    subjectUserId: patient.userId,
    targetType: 'prescription',
    targetId: id,
    details: {
      patientId,
      medicines: input.medicines.length,
      ...(replaces === null ? {} : { replacesId: replaces.id }),
    },
  });
  await notifyPatient(tx, environment.auth.tenantId, patientId, {
    kind: replaces === null ? 'prescription.created' : 'prescription.replaced',
    params: { prescriptionName: input.name, doctorName: environment.auth.fullName },
    link: `/medicines/prescriptions/${id}`,
    senderId: environment.auth.userId,
    at: now,
  });
  const row = await store.findPrescription(tx, patientId, id);
  if (row === undefined) throw new Error('a prescription just written is not visible');
  return toDetail(tx, row, await patientToday(tx, patientId, now));
}

/** Writes a prescription (spec §2 add; §5 rules, with a field error per rule broken). Audited. */
export function createPrescription(
  environment: CarePlanEnvironment,
  patientId: string,
  input: PrescriptionInput,
): Promise<PrescriptionDetail> {
  assertValid(input);
  return withCaller(environment.database, environment.auth, (tx) =>
    writeIn(tx, environment, patientId, input, null),
  );
}

/**
 * Edits a prescription (spec §4): in one transaction the old one is deactivated (its doses still to
 * come dropped) and its successor is written, naming it. A deactivated or already replaced one is
 * prescription.deactivated. Audited.
 */
export function replacePrescription(
  environment: CarePlanEnvironment,
  patientId: string,
  id: string,
  input: PrescriptionInput,
): Promise<PrescriptionDetail> {
  assertValid(input);
  return withCaller(environment.database, environment.auth, async (tx) => {
    const old = await visiblePrescription(tx, environment.auth, patientId, id, { lock: true });
    return writeIn(tx, environment, patientId, input, old);
  });
}

/** Deactivates a prescription for good (spec §4): hidden from the patient, its coming doses dropped. Audited. */
export function deactivatePrescription(
  environment: CarePlanEnvironment,
  patientId: string,
  id: string,
): Promise<PrescriptionDetail> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const now = environment.clock.now();
    const patient = await reachablePatient(tx, patientId);
    const row = await visiblePrescription(tx, environment.auth, patientId, id, { lock: true });
    if (row.deactivated_at !== null) throw new AppError('prescription.deactivated');
    await store.deactivate(tx, id, environment.auth.userId, now);
    await store.dropFutureIntakes(tx, id, now);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'PRESCRIPTION_DEACTIVATED',
      subjectUserId: patient.userId,
      targetType: 'prescription',
      targetId: id,
      details: { patientId },
    });
    // A deactivated prescription is hidden from the patient (spec §4): the notice leads to the list.
    await notifyPatient(tx, environment.auth.tenantId, patientId, {
      kind: 'prescription.deactivated',
      params: { prescriptionName: row.name, doctorName: environment.auth.fullName },
      link: '/medicines',
      senderId: environment.auth.userId,
      at: now,
    });
    const after = await store.findPrescription(tx, patientId, id);
    if (after === undefined) throw new Error('a prescription just deactivated is not visible');
    return toDetail(tx, after, await patientToday(tx, patientId, now));
  });
}

// Usage history (spec §2) ---------------------------------------------------------------------------

const emptyCounts = (): Omit<IntakeCounts, 'adherencePercent'> => ({
  due: 0,
  taken: 0,
  takenEarly: 0,
  takenLate: 0,
  skipped: 0,
  unconfirmed: 0,
  toTake: 0,
});
const COUNT_OF_STATE = {
  TO_TAKE: 'toTake',
  TAKEN: 'taken',
  TAKEN_EARLY: 'takenEarly',
  TAKEN_LATE: 'takenLate',
  SKIPPED: 'skipped',
  UNCONFIRMED: 'unconfirmed',
} as const;
const withAdherence = (counts: Omit<IntakeCounts, 'adherencePercent'>): IntakeCounts => ({
  ...counts,
  adherencePercent: adherencePercent(counts),
});

/**
 * The doses of a prescription per medicine and day from its start to today (or its end), with
 * adherence: doses taken (on time, early or late) out of those whose time has come. Audited.
 */
export function readUsageHistory(
  environment: CarePlanEnvironment,
  patientId: string,
  id: string,
): Promise<UsageHistory> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    const row = await visiblePrescription(tx, environment.auth, patientId, id);
    const today = await patientToday(tx, patientId, environment.clock.now());
    const to = row.end_date < today ? row.end_date : today;
    const medicines = await store.medicinesOf(tx, [id]);
    const counted = await store.intakeCounts(tx, id, row.start_date, to);
    const total = emptyCounts();
    const perMedicine = medicines.map((medicine) => {
      const counts = emptyCounts();
      const days = new Map<string, Omit<IntakeCounts, 'adherencePercent'>>();
      for (const entry of counted.filter((candidate) => candidate.medicine_id === medicine.id)) {
        const day = days.get(entry.local_date) ?? emptyCounts();
        days.set(entry.local_date, day);
        for (const target of [counts, day, total]) {
          target[COUNT_OF_STATE[entry.state]] += entry.count;
          target.due += entry.count;
        }
      }
      return {
        medicineId: medicine.id,
        name: medicine.name,
        counts: withAdherence(counts),
        days: [...days.entries()].map(([date, day]) => ({ date, counts: withAdherence(day) })),
      };
    });
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PRESCRIPTION_USAGE_VIEWED',
        patientIds: [patientId],
        subjectUserId: patient.userId,
        targetType: 'prescription',
        targetId: id,
      },
      environment.clock.now(),
    );
    return {
      prescriptionId: id,
      from: row.start_date,
      to,
      total: withAdherence(total),
      medicines: perMedicine,
    };
  });
}

// The patient app: the session's profile ------------------------------------------------------------

export function listMyPrescriptions(
  environment: CarePlanEnvironment,
  query: PrescriptionListQuery,
): Promise<Page<PrescriptionSummary>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    return listIn(tx, environment, profile.patientId, environment.auth.userId, query);
  });
}

export function readMyPrescription(
  environment: CarePlanEnvironment,
  id: string,
): Promise<PrescriptionDetail> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    return detailIn(tx, environment, profile.patientId, environment.auth.userId, id);
  });
}
