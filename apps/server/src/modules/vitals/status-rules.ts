import {
  isWorse,
  levelOf,
  readingReason,
  THRESHOLD_METRICS,
  type AlertType,
  type JudgedItem,
  type StatusReason,
  type ThresholdMetric,
  type ThresholdSet,
  type VitalStatus,
} from '@rpm/contracts';
import type { LevelSignal } from '../alerts/escalation-plan.js';

/*
 * The status engine's pure half (no database): a batch's readings judged against the patient's
 * thresholds, the account's cap, the alert type and the trigger of a rise. status-engine.ts loads
 * the state and applies the contracts plans.
 */

export const isThresholdMetric = (measure: string): measure is ThresholdMetric =>
  (THRESHOLD_METRICS as readonly string[]).includes(measure);

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
  /** Each judged reading at its level, for the lifecycle's evidence. */
  judged: JudgedItem[];
}

/** The worst level a set of readings (canonical units) reaches against the thresholds. */
export function evaluateReadings(
  readings: readonly EvaluatedReading[],
  thresholds: ThresholdSet,
): Evaluation {
  let worst: VitalStatus = 'NORMAL';
  let triggering: EvaluatedReading[] = [];
  let evaluatedCount = 0;
  const judged: JudgedItem[] = [];
  for (const reading of readings) {
    if (!isThresholdMetric(reading.measure)) continue;
    evaluatedCount += 1;
    const level = levelOf(reading.measure, reading.value, thresholds);
    judged.push({ level, atMs: reading.measuredAt.getTime(), measure: reading.measure });
    if (level === 'NORMAL') continue;
    if (isWorse(level, worst)) {
      worst = level;
      triggering = [reading];
    } else if (level === worst) {
      triggering.push(reading);
    }
  }
  return { worst, triggering, evaluatedCount, judged };
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

/**
 * What raised a batch's status, if it rises: the alert type and source the alerting side is told,
 * and the reason as data (history row reason_code / reason_params).
 */
export interface StatusDecision {
  alertType: AlertType;
  source: LevelSignal['source'];
  statusReason: StatusReason;
}

/**
 * What a batch's trigger is (a fall or an SOS press first, else the first reading at the worst
 * level). Everything the batch does — rise, come-down, episode, alert — is the contracts plan
 * {@link applyStatusDecision} asks for under the patient's lock.
 */
export function decideStatus(
  _patient: PatientState,
  evaluation: Evaluation,
  direct: readonly DirectSos[],
): StatusDecision {
  const firstDirect = direct[0];
  const trigger = evaluation.triggering[0];
  if (firstDirect !== undefined) {
    return {
      alertType: firstDirect.source === 'FALL' ? 'FALL' : 'CALL',
      source: firstDirect.source,
      statusReason: { code: 'EVENT', params: { source: firstDirect.source } },
    };
  }
  if (trigger !== undefined) {
    return {
      alertType: alertTypeOf(trigger.measure),
      source: 'READING',
      statusReason: readingReason(trigger.measure, trigger.value),
    };
  }
  return {
    alertType: 'CALL',
    source: 'READING',
    statusReason: { code: 'READING', params: { measure: '', value: 0, unit: '' } },
  };
}
