import {
  bloodPressureProblem,
  displayUnit,
  isLateReading,
  itemTimeProblem,
  MANUAL_ENTRY_RANGES,
  manualValueProblem,
  PLAUSIBLE_RANGE,
  THRESHOLD_METRICS,
  toCanonical,
  type CollectorBatch,
  type ItemProblem,
  type ItemProblemCode,
  type ManualEntryProblem,
  type Measure,
  type ReadingInput,
  type ThresholdMetric,
  type UnitPreferences,
} from '@rpm/contracts';

/**
 * Per-item checks of a batch (spec §5 for manual entries, plausibility for devices and OCR, the
 * time rule of contracts health.ts for all): valid items become rows in canonical units, flagged
 * late or not, invalid ones problems with their index and code. Pure, so the rules are tested
 * without a database.
 */

export interface ReadingRow {
  measure: Measure;
  measuredAt: Date;
  value: number;
  source: ReadingInput['source'];
  /** The batch item the row comes from (a blood-pressure pair gives two rows). */
  item: number;
  /** Arrived after the tenant's late-data horizon: stored, never judged. */
  late: boolean;
}

/** What the checks need besides the items. */
export interface CheckContext {
  /** When the items arrive. */
  now: Date;
  /** Units of device readings (the tenant's). */
  deviceUnits: UnitPreferences;
  /** Units of manual and photo (OCR) entries (the entering user's own, else the tenant's). */
  enteredUnits: UnitPreferences;
  /** The patient's account creation: nothing may be dated before it. */
  accountSince: Date | null;
  /** For the device's own items: the later of the account creation and the device's binding. */
  deviceSince: Date | null;
  lateHorizonMinutes: number;
}

const PROBLEM_CODES: Record<ManualEntryProblem, ItemProblemCode> = {
  outOfRange: 'health.valueOutOfRange',
  pulsePressure: 'health.pulsePressure',
  futureDate: 'health.futureDate',
};

const isThresholdMetric = (measure: string): measure is ThresholdMetric =>
  (THRESHOLD_METRICS as readonly string[]).includes(measure);

/** A device or OCR value (canonical): within what a device could report (threshold metrics), never negative. */
function implausible(measure: Measure, value: number): boolean {
  if (!Number.isFinite(value)) return true;
  if (isThresholdMetric(measure)) {
    const [min, max] = PLAUSIBLE_RANGE[measure];
    return value < min || value > max;
  }
  return value < 0;
}

/** The time rule for one item: a device's item also not before the device was bound. */
function timeProblem(at: Date, fromDevice: boolean, context: CheckContext) {
  return itemTimeProblem(at, {
    now: context.now,
    monitoredSince: fromDevice ? context.deviceSince : context.accountSince,
  });
}

export function checkReading(
  reading: ReadingInput,
  index: number,
  context: CheckContext,
): { rows: ReadingRow[]; problem: null } | { rows: null; problem: Omit<ItemProblem, 'kind'> } {
  const fail = (code: ItemProblemCode, field: string) => ({ rows: null, problem: { index, code, field } });
  const measuredAt = new Date(reading.measuredAt);
  const fromDevice = reading.source === 'WIRELESS_DEVICE';
  const late = timeProblem(measuredAt, fromDevice, context);
  if (late !== null) return fail(late, 'measuredAt');
  const isLate = isLateReading(measuredAt, context.now, context.lateHorizonMinutes);
  const isManual = reading.source === 'MANUAL';
  const row = (measure: Measure, value: number): ReadingRow => ({
    measure,
    measuredAt,
    value,
    source: reading.source,
    item: index,
    late: isLate,
  });
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
    return { rows: [row('SYSTOLIC', systolic), row('DIASTOLIC', diastolic)], problem: null };
  }
  if (reading.value === undefined) return fail('health.valueRequired', 'value');
  // Devices send the tenant's units; a person enters (or confirms a photo) in their own.
  const unit = displayUnit(reading.measure, fromDevice ? context.deviceUnits : context.enteredUnits);
  const value = toCanonical(reading.measure, reading.value, unit);
  // Manual entries follow spec §5 in the unit they were entered in; measures §5 does not list
  // are held, like devices and OCR, to what a device could report.
  const problem =
    isManual && MANUAL_ENTRY_RANGES[reading.measure] !== undefined
      ? manualValueProblem(reading.measure, reading.value, unit)
      : implausible(reading.measure, value)
        ? 'outOfRange'
        : null;
  if (problem !== null) return fail(PROBLEM_CODES[problem], 'value');
  return { rows: [row(reading.measure, value)], problem: null };
}

export interface CheckedBatch {
  readings: ReadingRow[];
  ecg: { item: number; input: CollectorBatch['ecg'][number] }[];
  sleep: { item: number; input: CollectorBatch['sleep'][number] }[];
  sport: { item: number; input: CollectorBatch['sport'][number] }[];
  events: { item: number; input: CollectorBatch['events'][number] }[];
  problems: ItemProblem[];
}

export function checkBatch(batch: CollectorBatch, context: CheckContext): CheckedBatch {
  const checked: CheckedBatch = { readings: [], ecg: [], sleep: [], sport: [], events: [], problems: [] };
  batch.readings.forEach((reading, index) => {
    const result = checkReading(reading, index, context);
    if (result.problem === null) checked.readings.push(...result.rows);
    else checked.problems.push({ kind: 'readings', ...result.problem });
  });
  batch.ecg.forEach((input, index) => {
    const problem = timeProblem(new Date(input.measuredAt), input.source === 'WIRELESS_DEVICE', context);
    if (problem !== null) checked.problems.push({ kind: 'ecg', index, code: problem, field: 'measuredAt' });
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
    const problem = timeProblem(end, true, context);
    if (problem !== null) checked.problems.push({ kind: 'sleep', index, code: problem, field: 'endAt' });
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
    const problem = timeProblem(new Date(input.startAt), true, context);
    if (problem !== null) checked.problems.push({ kind: 'sport', index, code: problem, field: 'startAt' });
    else checked.sport.push({ item: index, input });
  });
  batch.events.forEach((input, index) => {
    const problem = timeProblem(new Date(input.at), true, context);
    if (problem !== null) checked.problems.push({ kind: 'events', index, code: problem, field: 'at' });
    else checked.events.push({ item: index, input });
  });
  return checked;
}
