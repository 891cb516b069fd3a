import {
  appIntakeState,
  INTAKE_ANSWER_AHEAD_HOURS,
  takenState,
  type DoseUnit,
  type Intake,
  type IntakeAnswer,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { reachablePatient } from '../doctors/care-team-service.js';
import { assertProfileWritable, requireProfile } from '../followers/profile.js';
import { patientToday, showsDeactivated, type CarePlanEnvironment } from './prescription-service.js';
import { intakeWindowOf } from './intake-window.js';
import * as store from './store.js';

/**
 * Doses (spec §4 medication intake): a patient's doses of a day for the care team and the app, and
 * the patient's answer to one (taken on time, early or late, or skipped).
 */

function toIntake(row: store.IntakeRow): Intake {
  return {
    id: row.id,
    patientId: row.patient_id,
    prescriptionId: row.prescription_id,
    prescriptionName: row.prescription_name,
    medicineId: row.medicine_id,
    medicineName: row.medicine_name,
    dose: row.dose,
    doseUnit: row.dose_unit as DoseUnit,
    strength: row.strength,
    meal: row.meal as Intake['meal'],
    instructions: row.instructions,
    color: row.color,
    dueAt: new Date(row.due_at).toISOString(),
    localDate: row.local_date,
    localTime: row.local_time,
    label: row.label,
    state: row.state,
    appState: appIntakeState(row.state),
    answeredAt: row.answered_at === null ? null : new Date(row.answered_at).toISOString(),
  };
}

async function dayIn(
  tx: TenantTransaction,
  environment: CarePlanEnvironment,
  patientId: string,
  subjectUserId: string | null,
  date: string | undefined,
): Promise<Intake[]> {
  const day = date ?? (await patientToday(tx, patientId, environment.clock.now()));
  const rows = await store.intakesOfDay(tx, patientId, day, {
    withDeactivated: showsDeactivated(environment.auth),
  });
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action: 'INTAKES_VIEWED',
      patientIds: [patientId],
      subjectUserId,
      targetId: patientId,
      details: { date: day },
    },
    environment.clock.now(),
  );
  return rows.map(toIntake);
}

/** A patient's doses of one local day (default today), in time order. Audited. */
export function listIntakes(
  environment: CarePlanEnvironment,
  patientId: string,
  date: string | undefined,
): Promise<Intake[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const patient = await reachablePatient(tx, patientId);
    return dayIn(tx, environment, patientId, patient.userId, date);
  });
}

export function listMyIntakes(environment: CarePlanEnvironment, date: string | undefined): Promise<Intake[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    return dayIn(tx, environment, profile.patientId, environment.auth.userId, date);
  });
}

/**
 * The patient answers a dose: taken (on time, early or late by the tenant's dose window, from when it
 * was taken) or skipped. A dose is answered once; one still unconfirmed may be answered late. It can
 * be answered from INTAKE_ANSWER_AHEAD_HOURS before it is due, and never taken in the future.
 * A followed patient's dose is read only. Audited.
 */
export function answerMyIntake(
  environment: CarePlanEnvironment,
  id: string,
  answer: IntakeAnswer,
): Promise<Intake> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const profile = await requireProfile(tx, environment.auth);
    assertProfileWritable(profile);
    const now = environment.clock.now();
    const row = await store.findIntake(tx, profile.patientId, id);
    // A dose of a deactivated prescription is gone for the patient (spec §4).
    if (row?.deactivated_at !== null) throw new AppError('intake.notFound');
    if (row.state !== 'TO_TAKE' && row.state !== 'UNCONFIRMED') throw new AppError('intake.alreadyAnswered');
    const dueAt = new Date(row.due_at);
    const at = answer.takenAt === undefined ? now : new Date(answer.takenAt);
    if (at.getTime() > now.getTime() + 60_000) throw new AppError('intake.notYetDue');
    if (dueAt.getTime() - now.getTime() > INTAKE_ANSWER_AHEAD_HOURS * 3_600_000)
      throw new AppError('intake.notYetDue');
    const window = await intakeWindowOf(environment.database.system, environment.auth.tenantId);
    const state = answer.answer === 'SKIPPED' ? 'SKIPPED' : takenState(dueAt, at, window);
    await store.answerIntake(tx, id, {
      state,
      at: answer.answer === 'SKIPPED' ? now : at,
      by: environment.auth.userId,
    });
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'INTAKE_ANSWERED',
      subjectUserId: environment.auth.userId,
      targetType: 'intake',
      targetId: id,
      details: { patientId: profile.patientId, state },
    });
    const after = await store.findIntake(tx, profile.patientId, id);
    if (after === undefined) throw new Error('a dose just answered is not visible');
    return toIntake(after);
  });
}
