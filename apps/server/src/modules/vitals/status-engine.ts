import {
  isWorse,
  levelOf,
  THRESHOLD_METRICS,
  type AlertLevel,
  type AlertType,
  type ThresholdMetric,
  type ThresholdSet,
  type VitalStatus,
} from '@rpm/contracts';
import { and, eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { patients, patientStatusChanges } from '../../db/schema.js';
import { DAY, type Clock } from '../../lib/clock.js';
import { signalLevel, type LevelSignal } from '../alerts/signals.js';
import { publishEvent } from '../realtime/publish.js';
import { latestValues } from './fetch-store.js';

/**
 * The status engine (spec §4 patient status and alerts in the patient app): every new reading is
 * evaluated against the patient's thresholds in the transaction that stores it; the patient's
 * status rises to the worst level seen (never falls by itself: that is a manual change with a
 * reason, or the alerting side closing a case). The decision is pure; {@link applyStatusDecision}
 * writes it.
 */

export interface EvaluatedReading {
  measure: string;
  value: number;
  measuredAt: Date;
}

export interface Evaluation {
  worst: VitalStatus;
  /** The readings at the worst level (for "vitals at SOS time"). */
  triggering: EvaluatedReading[];
  /** Readings that have thresholds (other measures are stored, not judged). */
  evaluatedCount: number;
}

const isThresholdMetric = (measure: string): measure is ThresholdMetric =>
  (THRESHOLD_METRICS as readonly string[]).includes(measure);

/** The worst level a set of readings (canonical units) reaches against the thresholds. */
export function evaluateReadings(
  readings: readonly EvaluatedReading[],
  thresholds: ThresholdSet,
): Evaluation {
  let worst: VitalStatus = 'NORMAL';
  let triggering: EvaluatedReading[] = [];
  let evaluatedCount = 0;
  for (const reading of readings) {
    if (!isThresholdMetric(reading.measure)) continue;
    evaluatedCount += 1;
    const level = levelOf(reading.measure, reading.value, thresholds);
    if (level === 'NORMAL') continue;
    if (isWorse(level, worst)) {
      worst = level;
      triggering = [reading];
    } else if (level === worst) {
      triggering.push(reading);
    }
  }
  return { worst, triggering, evaluatedCount };
}

/** Spec §6: SOS is for main users only; a sub-user's level stops at HIGH_RISK. */
export function capForAccount(level: VitalStatus, accountKind: string): VitalStatus {
  return accountKind === 'SUB_USER' && level === 'SOS' ? 'HIGH_RISK' : level;
}

/** The alert type of spec §3 a measure belongs to. */
export function alertTypeOf(measure: string): AlertType {
  switch (measure) {
    case 'SYSTOLIC':
    case 'DIASTOLIC':
      return 'BLOOD_PRESSURE';
    case 'SPO2':
      return 'SPO2';
    case 'TEMPERATURE':
      return 'TEMPERATURE';
    case 'GLUCOSE':
      return 'GLUCOSE';
    default:
      return 'HEART_RATE';
  }
}

export interface PatientState {
  status: VitalStatus;
  accountKind: string;
  alertsSuppressedUntilNormal: boolean;
}

/** A fall, an SOS button press or a hotline call: SOS at once (capped for sub-users). */
export interface DirectSos {
  source: 'FALL' | 'SOS_BUTTON' | 'HOTLINE_CALL';
  at: Date;
  location: { lat: number; lng: number } | null;
}

export interface StatusDecision {
  /** The new status, or null when it does not rise. */
  raiseTo: AlertLevel | null;
  /**
   * The level the alerting side is told of: the new status, or — for a fall or an SOS press — the
   * level it reaches even when the patient is already there (a second press joins the open case).
   */
  signalAt: AlertLevel | null;
  /** Whether the alerting side is told (not while "I am fine" holds, below SOS). */
  signal: boolean;
  clearSuppression: boolean;
  alertType: AlertType;
  source: LevelSignal['source'];
  reason: string;
}

const formatValue = (value: number) => String(Math.round(value * 100) / 100);

/** What a batch does to a patient's status. */
export function decideStatus(
  patient: PatientState,
  evaluation: Evaluation,
  direct: readonly DirectSos[],
): StatusDecision {
  const firstDirect = direct[0];
  const reached: VitalStatus = firstDirect === undefined ? evaluation.worst : 'SOS';
  const level = capForAccount(reached, patient.accountKind);
  // "I am fine" lasts until a batch evaluates all NORMAL (spec §4: "until values normalize").
  const clearSuppression =
    patient.alertsSuppressedUntilNormal &&
    firstDirect === undefined &&
    evaluation.evaluatedCount > 0 &&
    evaluation.worst === 'NORMAL';
  const isSuppressed = patient.alertsSuppressedUntilNormal && !clearSuppression;
  const raiseTo = level !== 'NORMAL' && isWorse(level, patient.status) ? level : null;
  const trigger = evaluation.triggering[0];
  let alertType: AlertType = 'CALL';
  let source: LevelSignal['source'] = 'READING';
  let reason = 'automatic';
  if (firstDirect !== undefined) {
    alertType = firstDirect.source === 'FALL' ? 'FALL' : 'CALL';
    source = firstDirect.source;
    reason = `automatic: ${firstDirect.source}`;
  } else if (trigger !== undefined) {
    alertType = alertTypeOf(trigger.measure);
    reason = `automatic: ${trigger.measure} ${formatValue(trigger.value)}`;
  }
  const signalAt = raiseTo ?? (firstDirect !== undefined && level !== 'NORMAL' ? level : null);
  return {
    raiseTo,
    signalAt,
    signal: signalAt !== null && !(isSuppressed && signalAt !== 'SOS'),
    clearSuppression,
    alertType,
    source,
    reason,
  };
}

export interface PatientForStatus extends PatientState {
  tenantId: string;
  id: string;
  healthCenterId: string | null;
}

/**
 * Writes a decision in the caller's transaction: the status and its history row, the live event,
 * and the signal to the alerting side (alerts, SOS cases, escalation), so all of it exists exactly
 * when the readings do.
 */
export async function applyStatusDecision(
  tx: TenantTransaction,
  clock: Clock,
  patient: PatientForStatus,
  decision: StatusDecision,
  context: { evaluation: Evaluation; direct: readonly DirectSos[]; changedBy: string | null },
): Promise<VitalStatus> {
  const now = clock.now();
  const changes: Partial<typeof patients.$inferInsert> = {};
  if (decision.clearSuppression) changes.alertsSuppressedUntilNormal = false;
  if (decision.raiseTo !== null) {
    changes.status = decision.raiseTo;
    changes.updatedAt = now;
  }
  if (Object.keys(changes).length > 0) {
    await tx
      .update(patients)
      .set(changes)
      .where(and(eq(patients.tenantId, patient.tenantId), eq(patients.id, patient.id)));
  }
  if (decision.raiseTo !== null) {
    await tx.insert(patientStatusChanges).values({
      tenantId: patient.tenantId,
      id: uuidv7(),
      patientId: patient.id,
      fromStatus: patient.status,
      toStatus: decision.raiseTo,
      reason: decision.reason,
      changedBy: context.changedBy,
      changedAt: now,
    });
    await publishEvent(tx, patient.tenantId, {
      type: 'patient.statusChanged',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: {
        patientId: patient.id,
        from: patient.status,
        to: decision.raiseTo,
        reason: decision.reason,
        automatic: true,
      },
    });
  }
  if (decision.signal && decision.signalAt !== null) {
    const direct = context.direct[0];
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
      level: decision.signalAt,
      previousStatus: patient.status,
      alertType: decision.alertType,
      vitals: vitals.map((reading) => ({ ...reading })),
      location: direct?.location ?? null,
      source: decision.source,
    });
  }
  return decision.raiseTo ?? patient.status;
}
