import {
  ALERT_LEVELS,
  fromCanonical,
  THRESHOLD_METRICS,
  toCanonical,
  type ThresholdMetric,
  type ThresholdSet,
} from '@rpm/contracts';

/** The tenant settings that choose the units thresholds are shown and entered in. */
export interface ThresholdUnitSettings {
  THERMAL_UNIT?: string | undefined;
  BLOOD_GLUCOSE_UNIT?: string | undefined;
}

export type ThresholdUnits = Record<ThresholdMetric, string>;

/**
 * The unit of each metric in the tenant's settings (temperature in C or F, glucose in mg/dL or
 * mmol/L); the other metrics have one unit only. Thresholds are stored in canonical units (C,
 * mg/dL) and converted with the contracts' unit conversion, as readings are.
 */
export function thresholdUnitsOf(settings: ThresholdUnitSettings): ThresholdUnits {
  return {
    HEART_RATE: 'bpm',
    HRV: 'ms',
    SPO2: '%',
    SYSTOLIC: 'mmHg',
    DIASTOLIC: 'mmHg',
    TEMPERATURE: settings.THERMAL_UNIT === 'F' ? 'F' : 'C',
    GLUCOSE: settings.BLOOD_GLUCOSE_UNIT === 'mmol/L' ? 'mmol/L' : 'mg/dL',
  };
}

/** Decimals a bound is shown and entered with, in its unit. */
export function thresholdDecimals(unit: string): number {
  return unit === 'mmol/L' ? 2 : 1;
}

function rounded(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** A canonical bound as shown in `unit` (rounded to the unit's decimals). */
export function displayBound(metric: ThresholdMetric, canonical: number | null, unit: string): number | null {
  return canonical === null ? null : rounded(fromCanonical(metric, canonical, unit), thresholdDecimals(unit));
}

/** Every bound of a canonical set, as shown in the tenant's units. */
export function toDisplaySet(set: ThresholdSet, units: ThresholdUnits): ThresholdSet {
  const shown = structuredClone(set);
  for (const metric of THRESHOLD_METRICS)
    for (const level of ALERT_LEVELS)
      for (const side of ['lower', 'upper'] as const)
        shown[metric][level][side] = displayBound(metric, set[metric][level][side], units[metric]);
  return shown;
}

/**
 * A set entered in the tenant's units, back in canonical units. A bound shown as it was loaded
 * keeps its stored value exactly (so saving never drifts an untouched bound by a rounding); a
 * changed one is converted and kept to 4 decimals, which shows again as entered.
 */
export function toCanonicalSet(
  entered: ThresholdSet,
  stored: ThresholdSet,
  units: ThresholdUnits,
): ThresholdSet {
  const canonical = structuredClone(entered);
  for (const metric of THRESHOLD_METRICS)
    for (const level of ALERT_LEVELS)
      for (const side of ['lower', 'upper'] as const) {
        const value = entered[metric][level][side];
        const before = stored[metric][level][side];
        const unit = units[metric];
        canonical[metric][level][side] =
          value === null
            ? null
            : value === displayBound(metric, before, unit)
              ? before
              : rounded(toCanonical(metric, value, unit), 4);
      }
  return canonical;
}
