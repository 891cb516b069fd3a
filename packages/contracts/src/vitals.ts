/**
 * Health measures (spec §3), their canonical units, unit conversion (tenant settings
 * UNIT_SYSTEM, THERMAL_UNIT, BLOOD_GLUCOSE_UNIT, ACID_URIC_UNIT) and the manual-entry rules of
 * spec §5. Readings are stored in canonical units only; conversion happens on the way in and out.
 */

/** Scalar measures a reading can carry, with their canonical unit. */
export const MEASURES = {
  HEART_RATE: 'bpm',
  SPO2: '%',
  HRV: 'ms',
  SYSTOLIC: 'mmHg',
  DIASTOLIC: 'mmHg',
  TEMPERATURE: 'C',
  GLUCOSE: 'mg/dL',
  CHOLESTEROL: 'mg/dL',
  URIC_ACID: 'mg/dL',
  WEIGHT: 'kg',
  HEIGHT: 'cm',
  BMI: 'kg/m2',
  BODY_FAT_RATE: '%',
  BODY_WATER_RATE: '%',
  BODY_MUSCLE_RATE: '%',
  BODY_MUSCLE_MASS: 'kg',
  BONE_MASS: 'kg',
  BONE_RATE: '%',
  STEPS: 'count',
  CALORIES: 'kcal',
  RESPIRATION: '/min',
} as const;
export type Measure = keyof typeof MEASURES;
export const MEASURE_CODES = Object.keys(MEASURES) as [Measure, ...Measure[]];

/** Spec §3 "Device data source". */
export const DATA_SOURCES = ['WIRELESS_DEVICE', 'PHOTO_OCR', 'MANUAL'] as const;
export type DataSource = (typeof DATA_SOURCES)[number];

// Units ----------------------------------------------------------------------------------------

export type ChemistryUnit = 'mg/dL' | 'mmol/L' | 'umol/L';
export interface UnitPreferences {
  unitSystem: 'METRIC' | 'IMPERIAL';
  thermalUnit: 'CELSIUS' | 'FAHRENHEIT';
  glucoseUnit: ChemistryUnit;
  uricAcidUnit: ChemistryUnit;
}

/** Molar masses (g/mol) for mg/dL ↔ mmol/L: 1 mmol/L = molarMass / 10 mg/dL. */
const MOLAR_MASS = { GLUCOSE: 180.16, URIC_ACID: 168.11, CHOLESTEROL: 386.65 } as const;
const POUNDS_PER_KG = 2.2046226218;
const CM_PER_INCH = 2.54;

/** The unit a measure is shown and entered in under the given preferences. */
export function displayUnit(measure: Measure, preferences: UnitPreferences): string {
  switch (measure) {
    case 'TEMPERATURE':
      return preferences.thermalUnit === 'FAHRENHEIT' ? 'F' : 'C';
    case 'GLUCOSE':
      return preferences.glucoseUnit;
    case 'URIC_ACID':
      return preferences.uricAcidUnit;
    case 'WEIGHT':
    case 'BODY_MUSCLE_MASS':
    case 'BONE_MASS':
      return preferences.unitSystem === 'IMPERIAL' ? 'lbs' : 'kg';
    case 'HEIGHT':
      return preferences.unitSystem === 'IMPERIAL' ? 'in' : 'cm';
    default:
      return MEASURES[measure];
  }
}

function chemistryFactor(measure: 'GLUCOSE' | 'URIC_ACID' | 'CHOLESTEROL', unit: string): number {
  // Value in `unit` times the factor gives mg/dL.
  if (unit === 'mmol/L') return MOLAR_MASS[measure] / 10;
  if (unit === 'umol/L') return MOLAR_MASS[measure] / 10000;
  return 1;
}

/** A value entered in `unit` converted to the measure's canonical unit. */
export function toCanonical(measure: Measure, value: number, unit: string): number {
  switch (unit) {
    case 'F':
      return ((value - 32) * 5) / 9;
    case 'lbs':
      return value / POUNDS_PER_KG;
    case 'in':
      return value * CM_PER_INCH;
    case 'mmol/L':
    case 'umol/L':
      if (measure === 'GLUCOSE' || measure === 'URIC_ACID' || measure === 'CHOLESTEROL')
        return value * chemistryFactor(measure, unit);
      return value;
    default:
      return value;
  }
}

/** A canonical value converted to `unit` for display. */
export function fromCanonical(measure: Measure, value: number, unit: string): number {
  switch (unit) {
    case 'F':
      return (value * 9) / 5 + 32;
    case 'lbs':
      return value * POUNDS_PER_KG;
    case 'in':
      return value / CM_PER_INCH;
    case 'mmol/L':
    case 'umol/L':
      if (measure === 'GLUCOSE' || measure === 'URIC_ACID' || measure === 'CHOLESTEROL')
        return value / chemistryFactor(measure, unit);
      return value;
    default:
      return value;
  }
}

// Manual entry (spec §5) -------------------------------------------------------------------------

/**
 * The ranges of spec §5 for manual entry, in canonical units, word for word: "above" and "below"
 * are exclusive (`above` / `below`), "at least" / "at most" inclusive (`atLeast` / `atMost`).
 * - "SpO2 above 88 and below 100 percent": 88 and 100 are refused.
 * - "blood glucose below 300 mg/dL": 300 is refused; the spec gives no lower bound, a glucose of
 *   0 or less is not a measurement, so it must be above 0 (docs/decisions.md).
 * - "heart rate above 30 and below 300 bpm", "weight above 1 and below 700 kg", "temperature above
 *   30 and below 45 C": every bound exclusive.
 * - "Systolic and diastolic below 300 mmHg": 300 refused; above 0 (a pressure of 0 is not one).
 * Steps and calories are counts (never negative). Other measures have no §5 rule; the server
 * holds them to what a device could report.
 */
export const MANUAL_ENTRY_RANGES: Partial<
  Record<Measure, { above?: number; below?: number; atLeast?: number; atMost?: number }>
> = {
  SPO2: { above: 88, below: 100 },
  GLUCOSE: { above: 0, below: 300 },
  HEART_RATE: { above: 30, below: 300 },
  WEIGHT: { above: 1, below: 700 },
  TEMPERATURE: { above: 30, below: 45 },
  SYSTOLIC: { above: 0, below: 300 },
  DIASTOLIC: { above: 0, below: 300 },
  STEPS: { atLeast: 0 },
  CALORIES: { atLeast: 0 },
};

/** Systolic must exceed diastolic by at least this much (spec §5: "by at least 20", inclusive). */
export const MIN_PULSE_PRESSURE = 20;

export type ManualEntryProblem = 'outOfRange' | 'pulsePressure' | 'futureDate';

/**
 * -1, 0 or 1 as `value` is below, on or above `bound`. A value within a billionth (relative) of
 * the bound counts as on it, so a bound converted to another unit (700 kg = 1543.2358352599999
 * lbs, 300 mg/dL = 16.6518... mmol/L) is the same bound whichever way the rounding fell.
 */
function compareToBound(value: number, bound: number): -1 | 0 | 1 {
  if (Math.abs(value - bound) <= 1e-9 * Math.max(1, Math.abs(bound))) return 0;
  return value < bound ? -1 : 1;
}

/** The §5 range of a measure converted to `unit` (the unit the value is entered in). */
export function manualEntryRange(measure: Measure, unit: string = MEASURES[measure]) {
  const range = MANUAL_ENTRY_RANGES[measure];
  if (range === undefined) return undefined;
  const convert = (bound: number | undefined) =>
    bound === undefined ? undefined : fromCanonical(measure, bound, unit);
  return {
    above: convert(range.above),
    below: convert(range.below),
    atLeast: convert(range.atLeast),
    atMost: convert(range.atMost),
  };
}

/**
 * Why a manually entered value is refused, or null when it is accepted. `value` is in `unit`
 * (default: the canonical unit); the bounds are converted to that unit and compared there.
 */
export function manualValueProblem(
  measure: Measure,
  value: number,
  unit: string = MEASURES[measure],
): ManualEntryProblem | null {
  if (!Number.isFinite(value)) return 'outOfRange';
  const range = manualEntryRange(measure, unit);
  if (range === undefined) return null;
  if (range.above !== undefined && compareToBound(value, range.above) <= 0) return 'outOfRange';
  if (range.below !== undefined && compareToBound(value, range.below) >= 0) return 'outOfRange';
  if (range.atLeast !== undefined && compareToBound(value, range.atLeast) < 0) return 'outOfRange';
  if (range.atMost !== undefined && compareToBound(value, range.atMost) > 0) return 'outOfRange';
  return null;
}

/** A manual blood-pressure pair (mmHg): both in range and systolic ≥ diastolic + 20. */
export function bloodPressureProblem(systolic: number, diastolic: number): ManualEntryProblem | null {
  return (
    manualValueProblem('SYSTOLIC', systolic) ??
    manualValueProblem('DIASTOLIC', diastolic) ??
    (compareToBound(systolic - diastolic, MIN_PULSE_PRESSURE) >= 0 ? null : 'pulsePressure')
  );
}
