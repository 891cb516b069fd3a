import {
  evidenceToRecord,
  planClose,
  planManualChange,
  planReadings,
  planReview,
  statusReasonText,
  type AlertLevel,
  type LevelEvidence,
  type StatusChange,
  type StatusPlan,
  type StatusReason,
  type VitalStatus,
} from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database, TenantTransaction } from '../../db/database.js';
import { patients, patientStatusChanges } from '../../db/schema.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { signalLevel } from '../alerts/signals.js';
import { cancelJob, scheduleJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';
import { latestValues } from './fetch-store.js';
import {
  capForAccount,
  evaluateReadings,
  isThresholdMetric,
  type DirectSos,
  type Evaluation,
  type PatientState,
  type StatusDecision,
} from './status-rules.js';
import { loadLifecycle, type LoadedLifecycle } from './status-state.js';
import { ageOn, patientThresholdsOf } from './thresholds-store.js';
import { readVitals } from './vitals-database.js';

/**
 * The status engine (spec §4 patient status and alerts in the patient app): every new current
 * reading is evaluated against the patient's thresholds in the transaction that stores it. The
 * rules are pure and live in contracts status-lifecycle.ts (docs/status-lifecycle.md): the status
 * rises at once to the worst level seen and comes back down when readings stayed within a lower
 * level for the tenant's window and no SOS case is open (at ingestion, or by the per-patient job
 * `vitals.statusSettle`); alert episodes decide what is alerted. Each entry point (a batch, an SOS
 * press or hotline call, a closed case or ticket, the come-down job, a manual change) loads the
 * lifecycle state, asks contracts for a StatusPlan and hands it to the one executor,
 * {@link applyStatusPlan}; an alert the plan opens goes to the alerting side (signalLevel).
 */

export {
  loadForReadings,
  readingsStateColumns,
  readingsStateOf,
  touchLastReading,
  type LoadedLifecycle,
  type ReadingsState,
  type ReadingsStateRow,
} from './status-state.js';

export {
  alertTypeOf,
  capForAccount,
  decideStatus,
  evaluateReadings,
  type DirectSos,
  type EvaluatedReading,
  type Evaluation,
  type PatientState,
  type StatusDecision,
} from './status-rules.js';

export interface PatientForStatus extends PatientState {
  tenantId: string;
  id: string;
  healthCenterId: string | null;
}

/** The job that looks again at a patient's status at the end of the come-down window. */
export const STATUS_SETTLE_TASK = 'vitals.statusSettle';
export const statusSettleJobKey = (patientId: string) => `status-settle:${patientId}`;

const storedEvidence = (evidence: LevelEvidence): Record<string, number> => evidenceToRecord(evidence);

/**
 * Writes a status change: the history row with its reason as text and as data, and the live
 * event. Returns the history row's id.
 */
export async function recordStatusChange(
  tx: TenantTransaction,
  at: Date,
  patient: { tenantId: string; id: string; healthCenterId: string | null },
  change: StatusChange,
  changedBy: string | null,
): Promise<string> {
  const id = uuidv7();
  await tx.insert(patientStatusChanges).values({
    tenantId: patient.tenantId,
    id,
    patientId: patient.id,
    fromStatus: change.from,
    toStatus: change.to,
    reason: statusReasonText(change.reason),
    reasonCode: change.reason.code,
    reasonParams: change.reason.params,
    changedBy,
    changedAt: at,
  });
  await publishEvent(tx, patient.tenantId, {
    type: 'patient.statusChanged',
    patientId: patient.id,
    healthCenterId: patient.healthCenterId,
    payload: {
      patientId: patient.id,
      from: change.from,
      to: change.to,
      reason: statusReasonText(change.reason),
      reasonCode: change.reason.code,
      reasonParams: change.reason.params,
      automatic: changedBy === null,
    },
  });
  return id;
}

/** What applying a status plan did. */
export interface AppliedStatusPlan {
  status: VitalStatus;
  /** The history row of the change, null when the status did not change. */
  changeId: string | null;
  /** Whether the patient row's write moved its latest reading time too (`lastReadingAt` given). */
  movedLastReading: boolean;
}

/**
 * The one executor of the lifecycle's plans (contracts planReadings, planReview, planClose,
 * planManualChange), in the caller's transaction: the patient row's status, evidence and episode,
 * the history row and live event of the change, the come-down job. The alert a plan opens is the
 * caller's to signal (it knows the readings and the alert type). With `lastReadingAt`, a write of
 * the patient row also moves its latest reading time forward to it (one row version, not two).
 */
export async function applyStatusPlan(
  tx: TenantTransaction,
  now: Date,
  patient: { tenantId: string; id: string; healthCenterId: string | null; status: VitalStatus },
  plan: StatusPlan,
  changedBy: string | null,
  lastReadingAt: Date | null = null,
): Promise<AppliedStatusPlan> {
  const writes = plan.write !== null || plan.change !== null;
  if (writes) {
    const episode = plan.write?.episode ?? null;
    await tx
      .update(patients)
      .set({
        ...(plan.write === null ? {} : { levelEvidence: storedEvidence(plan.write.evidence) }),
        ...(plan.change === null ? {} : { status: plan.change.to, updatedAt: now }),
        ...(episode === null
          ? {}
          : { alertEpisodeLevel: episode.level, alertsSuppressedUntilNormal: episode.suppressed }),
        // greatest() passes over a null: a first reading time is set.
        ...(lastReadingAt === null
          ? {}
          : { lastReadingAt: sql`greatest(${patients.lastReadingAt}, ${lastReadingAt.toISOString()}::timestamptz)` }),
      })
      .where(and(eq(patients.tenantId, patient.tenantId), eq(patients.id, patient.id)));
  }
  const changeId =
    plan.change === null ? null : await recordStatusChange(tx, now, patient, plan.change, changedBy);
  if (plan.review?.kind === 'CANCEL') await cancelJob(tx, statusSettleJobKey(patient.id));
  if (plan.review?.kind === 'SCHEDULE') {
    await scheduleJob(
      tx,
      patient.tenantId,
      STATUS_SETTLE_TASK,
      { patientId: patient.id },
      { runAt: new Date(plan.review.atMs), jobKey: statusSettleJobKey(patient.id) },
    );
  }
  return { status: plan.change?.to ?? patient.status, changeId, movedLastReading: writes && lastReadingAt !== null };
}

/**
 * A batch's decisions, in the caller's transaction (the patient row is locked by the ingest):
 * loads the lifecycle state, asks the contracts rules for the plan (planReadings), applies it,
 * then tells the alerting side of the alert the episode rule opened (alerts, SOS cases, escalation
 * messages and timers), so all of it exists exactly when the readings do. `decision` is
 * {@link decideStatus}'s preliminary form (alert type, source, reason).
 */
export async function applyStatusDecision(
  tx: TenantTransaction,
  clock: Clock,
  patient: PatientForStatus,
  decision: StatusDecision,
  context: {
    evaluation: Evaluation;
    direct: readonly DirectSos[];
    changedBy: string | null;
    /** The lifecycle read with the batch's thresholds (loadForReadings); else read here. */
    lifecycle?: LoadedLifecycle | undefined;
    /** A later latest reading time, moved by the patient row's write if there is one (applyStatusPlan). */
    lastReadingAt?: Date | null;
  },
): Promise<{ status: VitalStatus; movedLastReading: boolean }> {
  const now = clock.now();
  const loaded = context.lifecycle ?? (await loadLifecycle(tx, patient.tenantId, patient.id, false));
  if (loaded === undefined) return { status: patient.status, movedLastReading: false };
  const cap = (level: VitalStatus) => capForAccount(level, patient.accountKind);
  const direct = context.direct[0];
  const plan = planReadings(
    { ...loaded.state, status: patient.status },
    {
      items: [
        ...context.evaluation.judged.map((item) => ({ ...item, level: cap(item.level) })),
        ...context.direct.map((event) => ({
          level: cap('SOS'),
          atMs: Math.min(event.at.getTime(), now.getTime()),
        })),
      ],
      reached: context.evaluation.evaluatedCount > 0 ? cap(context.evaluation.worst) : null,
      direct: direct === undefined ? null : (cap('SOS') as AlertLevel),
      trigger: decision.statusReason,
    },
    now.getTime(),
    loaded.windowMs,
  );
  const { status, movedLastReading } = await applyStatusPlan(tx, now, patient, plan, context.changedBy, context.lastReadingAt ?? null);

  if (plan.alert !== null) {
    // A press or a fall carries no readings of its own: the vitals at SOS time are then the
    // patient's latest values of the last day.
    const vitals =
      context.evaluation.triggering.length > 0 || direct === undefined
        ? context.evaluation.triggering
        : (await latestValues(tx, patient.tenantId, patient.id))
            .filter((reading) => isThresholdMetric(reading.measure) && now.getTime() - reading.atMs <= DAY)
            .map((reading) => ({
              measure: reading.measure,
              value: reading.value,
              measuredAt: new Date(reading.atMs),
            }));
    await signalLevel(tx, clock, {
      tenantId: patient.tenantId,
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      level: plan.alert.level,
      // The alerting side compares with the level already alerted in this episode.
      previousStatus: plan.alert.episodeBefore,
      alertType: decision.alertType,
      vitals: vitals.map((reading) => ({ ...reading })),
      location: direct?.location ?? null,
      source: decision.source,
    });
  }
  return { status, movedLastReading };
}

/**
 * A fall, an SOS press or a hotline call outside a readings batch (the SOS calls of the alerting
 * side, which open the case themselves): the same plan as for a batch carrying the event, applied
 * without signalling. Returns the level the episode rule alerts at, or null.
 */
export async function applyStatusEvent(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patientId: string,
  reason: StatusReason & { code: 'EVENT' },
  changedBy: string | null,
): Promise<AlertLevel | null> {
  const now = clock.now();
  const loaded = await loadLifecycle(tx, tenantId, patientId, true);
  if (loaded === undefined) return null;
  const level = capForAccount('SOS', loaded.accountKind) as AlertLevel;
  const plan = planReadings(
    loaded.state,
    { items: [{ level, atMs: now.getTime() }], reached: null, direct: level, trigger: reason },
    now.getTime(),
    loaded.windowMs,
  );
  const patient = {
    tenantId,
    id: patientId,
    healthCenterId: loaded.healthCenterId,
    status: loaded.state.status,
  };
  await applyStatusPlan(tx, now, patient, plan, changedBy);
  return plan.alert?.level ?? null;
}

/**
 * A staff member's status change (spec §4; the caller has checked PATIENT_STATUS_TRANSITIONS):
 * contracts planManualChange applied by the same executor, reason MANUAL with the note and the
 * acting user in the history. Returns the history row's id.
 */
export async function applyManualStatusChange(
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patientId: string,
  change: { to: VitalStatus; note: string; changedBy: string },
): Promise<string | null> {
  const now = clock.now();
  const loaded = await loadLifecycle(tx, tenantId, patientId, true);
  if (loaded === undefined) return null;
  const plan = planManualChange(loaded.state, change.to, change.note, now.getTime(), loaded.windowMs);
  const patient = {
    tenantId,
    id: patientId,
    healthCenterId: loaded.healthCenterId,
    status: loaded.state.status,
  };
  return (await applyStatusPlan(tx, now, patient, plan, change.changedBy)).changeId;
}

/** The patient's current level: the worst of the latest value of each measure of the last day. */
async function currentLevel(
  database: Database,
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  birthday: string | null,
  now: Date,
): Promise<VitalStatus> {
  const stored = await readVitals(database, tx, { tenantId, id: patientId }, (vitals) => latestValues(vitals, tenantId, patientId));
  const latest = stored.filter(
    (reading) => isThresholdMetric(reading.measure) && now.getTime() - reading.atMs <= DAY,
  );
  if (latest.length === 0) return 'NORMAL';
  const { thresholds } = await patientThresholdsOf(tx, tenantId, patientId, ageOn(birthday, now));
  return evaluateReadings(
    latest.map((reading) => ({
      measure: reading.measure,
      value: reading.value,
      measuredAt: new Date(reading.atMs),
    })),
    thresholds,
  ).worst;
}

/**
 * An SOS case or a ticket of the patient was closed (in that transaction): unless another case is
 * still open, the status is set from the current readings, with a history row, and the episode
 * comes down with it (contracts planClose).
 */
export async function settleStatusOnClose(
  database: Database,
  tx: TenantTransaction,
  clock: Clock,
  tenantId: string,
  patientId: string,
  closed: 'CASE_CLOSED' | 'TICKET_CLOSED',
  changedBy: string | null,
): Promise<void> {
  const now = clock.now();
  const loaded = await loadLifecycle(tx, tenantId, patientId, true);
  if (loaded === undefined || loaded.state.hasOpenCase) return;
  const level = capForAccount(
    await currentLevel(database, tx, tenantId, patientId, loaded.birthday, now),
    loaded.accountKind,
  );
  const plan = planClose(loaded.state, level, closed, now.getTime(), loaded.windowMs);
  const patient = {
    tenantId,
    id: patientId,
    healthCenterId: loaded.healthCenterId,
    status: loaded.state.status,
  };
  await applyStatusPlan(tx, now, patient, plan, changedBy);
}

/**
 * The come-down job (vitals.statusSettle) at the end of a patient's window: the status comes down
 * if readings stayed within a lower level (a device that stopped sending after normal readings
 * too), and the job is scheduled again while the status is still above NORMAL (contracts
 * planReview). Idempotent.
 */
export async function runStatusSettle(
  context: { tenantId: string; database: Pick<Database, 'withTenant'>; clock: Clock },
  payload: { patientId: string },
): Promise<{ status: VitalStatus | null }> {
  return context.database.withTenant(context.tenantId, async (tx) => {
    const loaded = await loadLifecycle(tx, context.tenantId, payload.patientId, true);
    if (loaded === undefined) return { status: null };
    const now = context.clock.now();
    const plan = planReview(loaded.state, now.getTime(), loaded.windowMs);
    const patient = {
      tenantId: context.tenantId,
      id: payload.patientId,
      healthCenterId: loaded.healthCenterId,
      status: loaded.state.status,
    };
    return { status: (await applyStatusPlan(tx, now, patient, plan, null)).status };
  });
}
