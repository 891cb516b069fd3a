import {
  bloodPressureProblem,
  FUTURE_SKEW_MS,
  manualValueProblem,
  PLAUSIBLE_RANGE,
  THRESHOLD_METRICS,
  type CollectorBatch,
  type ItemProblem,
  type ItemProblemCode,
  type ManualEntryProblem,
  type Measure,
  type ReadingInput,
  type ThresholdMetric,
  type UnitPreferences,
} from '@rpm/contracts';
import { canonicalOf } from './units.js';

/**
 * Per-item checks of a batch (spec §5 for manual entries, plausibility for devices, no future
 * dates for all): valid items become rows in canonical units, invalid ones problems with their
 * index and code. Pure, so the rules are tested without a database.
 */

export interface ReadingRow {
  measure: Measure;
  measuredAt: Date;
  value: number;
  source: ReadingInput['source'];
  /** The batch item the row comes from (a blood-pressure pair gives two rows). */
  item: number;
}

const PROBLEM_CODES: Record<ManualEntryProblem, ItemProblemCode> = {
  outOfRange: 'health.valueOutOfRange',
  pulsePressure: 'health.pulsePressure',
  futureDate: 'health.futureDate',
};

const isThresholdMetric = (measure: string): measure is ThresholdMetric =>
  (THRESHOLD_METRICS as readonly string[]).includes(measure);

/** A device or OCR value: within what a device could report (threshold metrics), never negative. */
function implausible(measure: Measure, value: number): boolean {
  if (!Number.isFinite(value)) return true;
  if (isThresholdMetric(measure)) {
    const [min, max] = PLAUSIBLE_RANGE[measure];
    return value < min || value > max;
  }
  return value < 0;
}

export function isInFuture(at: Date, now: Date): boolean {
  return at.getTime() > now.getTime() + FUTURE_SKEW_MS;
}

export function checkReading(
  reading: ReadingInput,
  index: number,
  units: UnitPreferences,
  now: Date,
): { rows: ReadingRow[]; problem: null } | { rows: null; problem: Omit<ItemProblem, 'kind'> } {
  const fail = (code: ItemProblemCode, field: string) => ({ rows: null, problem: { index, code, field } });
  const measuredAt = new Date(reading.measuredAt);
  if (isInFuture(measuredAt, now)) return fail('health.futureDate', 'measuredAt');
  const isManual = reading.source === 'MANUAL';
  if (reading.measure === 'BLOOD_PRESSURE') {
    const { systolic, diastolic } = reading;
    if (systolic === undefined) return fail('health.valueRequired', 'systolic');
    if (diastolic === undefined) return fail('health.valueRequired', 'diastolic');
    if (isManual) {
      const problem = bloodPressureProblem(systolic, diastolic);
      if (problem !== null)
        return fail(
          PROBLEM_CODES[problem],
          problem === 'pulsePressure'
            ? 'systolic'
            : manualValueProblem('SYSTOLIC', systolic) === null
              ? 'diastolic'
              : 'systolic',
        );
    } else {
      if (implausible('SYSTOLIC', systolic)) return fail('health.valueOutOfRange', 'systolic');
      if (implausible('DIASTOLIC', diastolic)) return fail('health.valueOutOfRange', 'diastolic');
    }
    return {
      rows: [
        { measure: 'SYSTOLIC', measuredAt, value: systolic, source: reading.source, item: index },
        { measure: 'DIASTOLIC', measuredAt, value: diastolic, source: reading.source, item: index },
      ],
      problem: null,
    };
  }
  if (reading.value === undefined) return fail('health.valueRequired', 'value');
  const value = canonicalOf(reading.measure, reading.value, units);
  const problem = isManual
    ? manualValueProblem(reading.measure, value)
    : implausible(reading.measure, value)
      ? 'outOfRange'
      : null;
  if (problem !== null) return fail(PROBLEM_CODES[problem], 'value');
  return {
    rows: [{ measure: reading.measure, measuredAt, value, source: reading.source, item: index }],
    problem: null,
  };
}

export interface CheckedBatch {
  readings: ReadingRow[];
  ecg: { item: number; input: CollectorBatch['ecg'][number] }[];
  sleep: { item: number; input: CollectorBatch['sleep'][number] }[];
  sport: { item: number; input: CollectorBatch['sport'][number] }[];
  events: { item: number; input: CollectorBatch['events'][number] }[];
  problems: ItemProblem[];
}

export function checkBatch(batch: CollectorBatch, units: UnitPreferences, now: Date): CheckedBatch {
  const checked: CheckedBatch = { readings: [], ecg: [], sleep: [], sport: [], events: [], problems: [] };
  batch.readings.forEach((reading, index) => {
    const result = checkReading(reading, index, units, now);
    if (result.problem === null) checked.readings.push(...result.rows);
    else checked.problems.push({ kind: 'readings', ...result.problem });
  });
  batch.ecg.forEach((input, index) => {
    if (isInFuture(new Date(input.measuredAt), now))
      checked.problems.push({ kind: 'ecg', index, code: 'health.futureDate', field: 'measuredAt' });
    else if (
      input.samples.length === 0 ||
      input.samples.length > Math.ceil(input.durationSeconds * input.sampleRate * 1.05)
    )
      checked.problems.push({ kind: 'ecg', index, code: 'health.invalidRecord', field: 'samples' });
    else checked.ecg.push({ item: index, input });
  });
  batch.sleep.forEach((input, index) => {
    const start = new Date(input.startAt);
    const end = new Date(input.endAt);
    if (isInFuture(end, now))
      checked.problems.push({ kind: 'sleep', index, code: 'health.futureDate', field: 'endAt' });
    else if (
      end <= start ||
      input.deepMinutes + input.lightMinutes + input.remMinutes > input.totalMinutes + 1
    )
      checked.problems.push({
        kind: 'sleep',
        index,
        code: 'health.invalidRecord',
        field: end <= start ? 'endAt' : 'totalMinutes',
      });
    else checked.sleep.push({ item: index, input });
  });
  batch.sport.forEach((input, index) => {
    if (isInFuture(new Date(input.startAt), now))
      checked.problems.push({ kind: 'sport', index, code: 'health.futureDate', field: 'startAt' });
    else checked.sport.push({ item: index, input });
  });
  batch.events.forEach((input, index) => {
    if (isInFuture(new Date(input.at), now))
      checked.problems.push({ kind: 'events', index, code: 'health.futureDate', field: 'at' });
    else checked.events.push({ item: index, input });
  });
  return checked;
}
