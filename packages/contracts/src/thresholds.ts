/**
 * Vital-sign thresholds and the status they imply (spec §3 Thresholds, §4 patient status, §9
 * reference ranges). Pure data and functions: the server evaluates every reading with them inside
 * the transaction that stores it, and the apps use the same ones to warn while a value is typed.
 *
 * A threshold set holds, per metric and per level (AT_RISK, HIGH_RISK, SOS), a lower and an upper
 * bound. A reading is at a level when it is below that level's lower bound or above its upper
 * bound; its status is the worst such level, or NORMAL. Bands nest: the SOS band is the widest,
 * so lower bounds fall and upper bounds rise from AT_RISK to SOS (checked by
 * {@link thresholdProblems}). A missing bound (null) never triggers.
 */

export const THRESHOLD_METRICS = [
  'HEART_RATE',
  'HRV',
  'SPO2',
  'SYSTOLIC',
  'DIASTOLIC',
  'TEMPERATURE',
  'GLUCOSE',
] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];

/** Alert levels from mildest to worst; NORMAL is below all of them. */
export const ALERT_LEVELS = ['AT_RISK', 'HIGH_RISK', 'SOS'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export type VitalStatus = 'NORMAL' | AlertLevel;

/** Canonical units the thresholds (and stored readings) use. */
export const THRESHOLD_UNITS: Record<ThresholdMetric, string> = {
  HEART_RATE: 'bpm',
  HRV: 'ms',
  SPO2: '%',
  SYSTOLIC: 'mmHg',
  DIASTOLIC: 'mmHg',
  TEMPERATURE: '°C',
  GLUCOSE: 'mg/dL',
};

export interface Bounds {
  lower: number | null;
  upper: number | null;
}
export type MetricThresholds = Record<AlertLevel, Bounds>;
export type ThresholdSet = Record<ThresholdMetric, MetricThresholds>;

/** Spec §9: maximum heart rate = 205.8 − 0.685 × age. */
export function maxHeartRate(ageYears: number): number {
  return Math.round((205.8 - 0.685 * ageYears) * 10) / 10;
}

const band = (lower: number | null, upper: number | null): Bounds => ({ lower, upper });

/**
 * Default thresholds for a patient of the given age (spec §9 reference ranges, completed with the
 * usual clinical cut-offs where the spec gives none):
 * - SpO2: normal 94–100; below 94 at risk; below 92 high risk (the spec's alert line); below 88
 *   SOS (the lowest value manual entry accepts).
 * - Blood pressure: systolic < 120 and diastolic < 80 normal; stage 1 (130–139 or 80–89) at
 *   risk; stage 2 (≥ 140 or ≥ 90) high risk; crisis (> 180 or > 120) SOS. Low pressure: systolic
 *   < 90 / 80 / 70, diastolic < 60 / 50 / 40.
 * - Heart rate: resting 50–100 normal; 40–120 high-risk band; SOS below 30 or above the age's
 *   maximum heart rate (205.8 − 0.685 × age), never below 130.
 * - HRV (SDNN, ms): below 20 at risk, below 15 high risk.
 * - Temperature: 35.5–37.5 normal, 35.0–38.5 high-risk band, 34.0–40.0 SOS band.
 * - Glucose (mg/dL): 70–180 normal, 54–250 high-risk band, 40–300 SOS band.
 */
export function defaultThresholds(ageYears: number | null): ThresholdSet {
  const heartRateCeiling = Math.max(130, maxHeartRate(ageYears ?? 40));
  return {
    HEART_RATE: { AT_RISK: band(50, 100), HIGH_RISK: band(40, 120), SOS: band(30, heartRateCeiling) },
    HRV: { AT_RISK: band(20, null), HIGH_RISK: band(15, null), SOS: band(null, null) },
    SPO2: { AT_RISK: band(94, null), HIGH_RISK: band(92, null), SOS: band(88, null) },
    SYSTOLIC: { AT_RISK: band(90, 129), HIGH_RISK: band(80, 139), SOS: band(70, 180) },
    DIASTOLIC: { AT_RISK: band(60, 79), HIGH_RISK: band(50, 89), SOS: band(40, 120) },
    TEMPERATURE: { AT_RISK: band(35.5, 37.5), HIGH_RISK: band(35, 38.5), SOS: band(34, 40) },
    GLUCOSE: { AT_RISK: band(70, 180), HIGH_RISK: band(54, 250), SOS: band(40, 300) },
  };
}

const isOutside = (value: number, bounds: Bounds) =>
  (bounds.lower !== null && value < bounds.lower) || (bounds.upper !== null && value > bounds.upper);

/** The level one value of one metric reaches against a patient's thresholds. */
export function levelOf(metric: ThresholdMetric, value: number, thresholds: ThresholdSet): VitalStatus {
  const levels = thresholds[metric];
  for (const level of [...ALERT_LEVELS].reverse()) {
    if (isOutside(value, levels[level])) return level;
  }
  return 'NORMAL';
}

const SEVERITY: Record<VitalStatus, number> = { NORMAL: 0, AT_RISK: 1, HIGH_RISK: 2, SOS: 3 };

/** The worse of two statuses. */
export function worseStatus(a: VitalStatus, b: VitalStatus): VitalStatus {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

export function isWorse(a: VitalStatus, than: VitalStatus): boolean {
  return SEVERITY[a] > SEVERITY[than];
}

/**
 * What is wrong with a threshold set, as `METRIC.LEVEL.bound` paths: a bound outside the metric's
 * plausible range, a lower bound not below the upper one, or bands that do not nest (each level's
 * lower bound at or below the milder level's, each upper bound at or above it).
 */
export function thresholdProblems(thresholds: ThresholdSet): string[] {
  const problems: string[] = [];
  for (const metric of THRESHOLD_METRICS) {
    const [min, max] = PLAUSIBLE_RANGE[metric];
    let previous = null as Bounds | null;
    for (const level of ALERT_LEVELS) {
      const bounds = thresholds[metric][level];
      for (const side of ['lower', 'upper'] as const) {
        const value = bounds[side];
        if (value !== null && (!Number.isFinite(value) || value < min || value > max))
          problems.push(`${metric}.${level}.${side}`);
      }
      if (bounds.lower !== null && bounds.upper !== null && bounds.lower >= bounds.upper)
        problems.push(`${metric}.${level}.upper`);
      if (previous !== null) {
        if (bounds.lower !== null && previous.lower !== null && bounds.lower > previous.lower)
          problems.push(`${metric}.${level}.lower`);
        if (bounds.upper !== null && previous.upper !== null && bounds.upper < previous.upper)
          problems.push(`${metric}.${level}.upper`);
      }
      previous = {
        lower: bounds.lower ?? previous?.lower ?? null,
        upper: bounds.upper ?? previous?.upper ?? null,
      };
    }
  }
  return [...new Set(problems)];
}

/** Values a device or a person could plausibly report, per metric (canonical units). */
export const PLAUSIBLE_RANGE: Record<ThresholdMetric, readonly [number, number]> = {
  HEART_RATE: [20, 300],
  HRV: [0, 500],
  SPO2: [50, 100],
  SYSTOLIC: [40, 300],
  DIASTOLIC: [20, 300],
  TEMPERATURE: [25, 45],
  GLUCOSE: [10, 1000],
};

/** ECG QT interval reference (spec §9): prolonged, dangerous and short, in milliseconds. */
export const QT_REFERENCE = { prolongedMale: 440, prolongedFemale: 460, dangerous: 500, short: 350 } as const;

/** Sleep references (spec §9). */
export const SLEEP_REFERENCE = {
  cycleMinutes: 90,
  perfectCycles: 5,
  onsetMinutes: [10, 20],
  awakenings: [0, 2],
  deepPercent: [13, 23],
  lightPercent: [50, 60],
  remPercent: [20, 25],
  respirationPerMinute: [12, 20],
  maxMovements: 20,
} as const;
