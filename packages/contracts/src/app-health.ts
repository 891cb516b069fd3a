/**
 * The patient app's health pages: the calls' shapes shared by the server and the app, and the pure
 * rules behind them (period statistics and navigation, sleep timings, the oxygen desaturation
 * index of the OSAHS screening).
 */
import { z } from 'zod';
import {
  HEALTH_VIEWS,
  latestReadingSchema,
  latestReadingsSchema,
  VITAL_STATUSES,
  type HealthPoint,
  type HealthView,
} from './health.js';
import { MEASURE_CODES, type Measure } from './vitals.js';

// Dashboard ------------------------------------------------------------------------------------

/** GET /health/me/dashboard: the latest values, each with its level against the patient's thresholds. */
export const dashboardSchema = latestReadingsSchema.extend({
  readings: z.array(
    latestReadingSchema.extend({
      /** The value's level against the patient's thresholds; null for measures without thresholds. */
      level: z.enum(VITAL_STATUSES).nullable(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// Reports --------------------------------------------------------------------------------------

/** GET /health/me/data: one measure over the local period (day, week, month, year) holding `date`. */
export const meDataQuerySchema = z.object({
  measure: z.enum(MEASURE_CODES),
  view: z.enum(HEALTH_VIEWS),
  date: z.iso.date().describe('A local calendar date (YYYY-MM-DD) in the patient’s time zone'),
});
export type MeDataQuery = z.infer<typeof meDataQuerySchema>;

/** A measure in the app's addresses: HEART_RATE ↔ heart-rate. */
export const measureSlug = (measure: Measure): string => measure.toLowerCase().replaceAll('_', '-');
export function measureOfSlug(slug: string): Measure | null {
  const code = slug.toUpperCase().replaceAll('-', '_');
  return (MEASURE_CODES as readonly string[]).includes(code) ? (code as Measure) : null;
}

export interface PeriodStats {
  min: number;
  max: number;
  /** Mean of every reading in the period (rollup means weighted by their counts). */
  average: number;
  count: number;
}

/** Min, max and average of a period's points (raw readings or rollups); null when there are none. */
export function periodStats(
  points: readonly Pick<HealthPoint, 'value' | 'min' | 'max' | 'count'>[],
): PeriodStats | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  for (const point of points) {
    const weight = Math.max(1, point.count);
    min = Math.min(min, point.min);
    max = Math.max(max, point.max);
    sum += point.value * weight;
    count += weight;
  }
  return count === 0 ? null : { min, max, average: sum / count, count };
}

const pad = (value: number) => String(value).padStart(2, '0');
const dateText = (date: Date) =>
  `${String(date.getUTCFullYear()).padStart(4, '0')}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;

/**
 * The local date `steps` periods of `view` away from `date` (YYYY-MM-DD): days, weeks (7 days),
 * months or years; a month step from the 31st lands on the first of the month (any day of the
 * period stands for it, the first is always valid).
 */
export function shiftPeriod(date: string, view: HealthView, steps: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (view === 'day' || view === 'week') {
    return dateText(new Date(Date.UTC(year, month - 1, day + steps * (view === 'week' ? 7 : 1))));
  }
  if (view === 'month') return dateText(new Date(Date.UTC(year, month - 1 + steps, 1)));
  return dateText(new Date(Date.UTC(year + steps, 0, 1)));
}

/** The first day (YYYY-MM-DD) of the period of `view` holding `date`; weeks start on Monday. */
export function periodStart(date: string, view: HealthView): string {
  if (view === 'day') return date;
  if (view === 'month') return `${date.slice(0, 7)}-01`;
  if (view === 'year') return `${date.slice(0, 4)}-01-01`;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return dateText(new Date(Date.UTC(year, month - 1, day - ((weekday + 6) % 7))));
}

// Sleep ----------------------------------------------------------------------------------------

export interface SleepStageSpan {
  stage: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM';
  from: string;
  to: string;
}

export interface SleepTimings {
  /** Minutes from going to bed (the record's start) to the first sleep stage. */
  fallingAsleepMinutes: number | null;
  /**
   * Re-sleep time: minutes awake after the first sleep onset before sleeping again — the sum of
   * the awake spans that lie between two sleep stages (the final awakening is not counted).
   */
  reSleepMinutes: number | null;
  /** Awake spans between two sleep stages. */
  awakenings: number;
  minutes: Record<SleepStageSpan['stage'], number>;
}

const minutesBetween = (from: string, to: string) =>
  Math.max(0, (Date.parse(to) - Date.parse(from)) / 60_000);

/**
 * A night's timings from its stages; without stages, the watch's own figures (`stored`) are kept.
 */
export function sleepTimings(
  record: { startAt: string; stages: readonly SleepStageSpan[] },
  stored: { fallingAsleepMinutes: number | null; reSleepMinutes: number | null },
): SleepTimings {
  const minutes = { AWAKE: 0, LIGHT: 0, DEEP: 0, REM: 0 };
  const stages = [...record.stages].sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  for (const span of stages) minutes[span.stage] += minutesBetween(span.from, span.to);
  const sleeping = stages.map((span) => span.stage !== 'AWAKE');
  const first = sleeping.indexOf(true);
  const last = sleeping.lastIndexOf(true);
  if (first === -1) return { ...stored, awakenings: 0, minutes };
  let reSleep = 0;
  let awakenings = 0;
  for (let index = first + 1; index < last; index += 1) {
    const span = stages[index];
    if (span?.stage !== 'AWAKE') continue;
    reSleep += minutesBetween(span.from, span.to);
    if (sleeping[index - 1] === true) awakenings += 1;
  }
  const firstSpan = stages[first];
  return {
    fallingAsleepMinutes:
      firstSpan === undefined ? null : Math.round(minutesBetween(record.startAt, firstSpan.from)),
    reSleepMinutes: Math.round(reSleep),
    awakenings,
    minutes,
  };
}

// OSAHS screening ------------------------------------------------------------------------------

/** A dip counts when SpO2 falls this many percentage points below the rolling baseline. */
export const DESATURATION_POINTS = 3;
/** The rolling baseline: mean SpO2 of the non-dip readings in this window before each reading. */
export const BASELINE_WINDOW_MS = 5 * 60_000;
/** Readings outside this range are sensor artefacts and ignored. */
export const PLAUSIBLE_SPO2 = { min: 50, max: 100 } as const;

export const OSAHS_SEVERITIES = ['NORMAL', 'MILD', 'MODERATE', 'SEVERE'] as const;
export type OsahsSeverity = (typeof OSAHS_SEVERITIES)[number];

/** Severity bands per hour of sleep: normal < 5, mild 5–15, moderate 15–30, severe ≥ 30. */
export function osahsSeverity(odi: number): OsahsSeverity {
  if (odi < 5) return 'NORMAL';
  if (odi < 15) return 'MILD';
  if (odi < 30) return 'MODERATE';
  return 'SEVERE';
}

export interface SpO2Sample {
  atMs: number;
  value: number;
}

export interface Desaturations {
  dips: number;
  /** Readings used (inside the window, plausible). */
  samples: number;
  lowest: number | null;
  average: number | null;
}

/**
 * Counts desaturation dips in the readings inside [startMs, endMs): a dip starts at a reading at
 * least {@link DESATURATION_POINTS} below the baseline (mean of the non-dip readings of the
 * preceding {@link BASELINE_WINDOW_MS}; the first reading starts the baseline) and lasts until a
 * reading comes back above that dip's baseline minus the points. The dip's readings stay out of
 * the baseline, so a long dip does not lower it.
 */
export function countDesaturations(
  samples: readonly SpO2Sample[],
  startMs: number,
  endMs: number,
): Desaturations {
  const night = samples
    .filter(
      (s) =>
        s.atMs >= startMs && s.atMs < endMs && s.value >= PLAUSIBLE_SPO2.min && s.value <= PLAUSIBLE_SPO2.max,
    )
    .sort((a, b) => a.atMs - b.atMs);
  const window: SpO2Sample[] = [];
  let dips = 0;
  let dipBaseline: number | null = null;
  for (const sample of night) {
    while (window.length > 0 && (window[0]?.atMs ?? 0) < sample.atMs - BASELINE_WINDOW_MS) window.shift();
    const baseline =
      window.length === 0 ? sample.value : window.reduce((sum, s) => sum + s.value, 0) / window.length;
    if (dipBaseline !== null) {
      if (sample.value > dipBaseline - DESATURATION_POINTS) dipBaseline = null;
      else continue;
    } else if (sample.value <= baseline - DESATURATION_POINTS) {
      dips += 1;
      dipBaseline = baseline;
      continue;
    }
    window.push(sample);
  }
  const values = night.map((s) => s.value);
  return {
    dips,
    samples: night.length,
    lowest: values.length === 0 ? null : Math.min(...values),
    average: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
  };
}

export const osahsResultSchema = z.object({
  sleepId: z.uuid(),
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  /** Hours of sleep the index is per (the record's total sleep). */
  sleepHours: z.number(),
  samples: z.number().int(),
  dips: z.number().int(),
  /** Dips per hour of sleep, one decimal; null without readings or sleep. */
  odi: z.number().nullable(),
  severity: z.enum(OSAHS_SEVERITIES).nullable(),
  lowestSpo2: z.number().nullable(),
  averageSpo2: z.number().nullable(),
});
export type OsahsResult = z.infer<typeof osahsResultSchema>;

/** The OSAHS screening of one night: dips inside the sleep window, per hour of total sleep. */
export function osahsScreening(
  night: { id: string; startAt: string; endAt: string; totalMinutes: number },
  samples: readonly SpO2Sample[],
): OsahsResult {
  const found = countDesaturations(samples, Date.parse(night.startAt), Date.parse(night.endAt));
  const sleepHours = night.totalMinutes / 60;
  const odi = found.samples === 0 || sleepHours <= 0 ? null : Math.round((found.dips / sleepHours) * 10) / 10;
  return {
    sleepId: night.id,
    startAt: night.startAt,
    endAt: night.endAt,
    sleepHours: Math.round(sleepHours * 100) / 100,
    samples: found.samples,
    dips: found.dips,
    odi,
    severity: odi === null ? null : osahsSeverity(odi),
    lowestSpo2: found.lowest,
    averageSpo2: found.average === null ? null : Math.round(found.average * 10) / 10,
  };
}
