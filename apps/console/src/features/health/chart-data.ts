import {
  ALERT_LEVELS,
  fromCanonical,
  longestJoinedGap,
  type AlertLevel,
  type HealthSeries,
  type Measure,
  type ThresholdMetric,
  type ThresholdSet,
} from '@rpm/contracts';
import { formatUnit } from '../../lib/format';

/** A measure of the picker: one chart, one or two series (blood pressure), their thresholds. */
export interface ChartMeasure {
  key: ChartMeasureKey;
  series: readonly Measure[];
  thresholds: readonly ThresholdMetric[];
  decimals: number;
}

export const CHART_MEASURES = [
  { key: 'HEART_RATE', series: ['HEART_RATE'], thresholds: ['HEART_RATE'], decimals: 0 },
  { key: 'SPO2', series: ['SPO2'], thresholds: ['SPO2'], decimals: 1 },
  {
    key: 'BLOOD_PRESSURE',
    series: ['SYSTOLIC', 'DIASTOLIC'],
    thresholds: ['SYSTOLIC', 'DIASTOLIC'],
    decimals: 0,
  },
  { key: 'HRV', series: ['HRV'], thresholds: ['HRV'], decimals: 0 },
  { key: 'TEMPERATURE', series: ['TEMPERATURE'], thresholds: ['TEMPERATURE'], decimals: 1 },
  { key: 'GLUCOSE', series: ['GLUCOSE'], thresholds: ['GLUCOSE'], decimals: 1 },
  { key: 'RESPIRATION', series: ['RESPIRATION'], thresholds: [], decimals: 0 },
  { key: 'WEIGHT', series: ['WEIGHT'], thresholds: [], decimals: 1 },
  { key: 'STEPS', series: ['STEPS'], thresholds: [], decimals: 0 },
  { key: 'CALORIES', series: ['CALORIES'], thresholds: [], decimals: 0 },
] as const satisfies readonly (Omit<ChartMeasure, 'key'> & { key: string })[];
export type ChartMeasureKey = (typeof CHART_MEASURES)[number]['key'];

/** How a unit is written for people, in the console's language (the API says C and F for the thermal units). */
export function unitLabel(unit: string): string {
  return formatUnit(unit);
}

/** Severity colours, the same as the patient status badge. */
export const LEVEL_COLORS: Record<AlertLevel, string> = {
  AT_RISK: '#fab005',
  HIGH_RISK: '#fd7e14',
  SOS: '#fa5252',
};
export const SERIES_COLORS = ['#1c7ed6', '#7048e8'] as const;

/**
 * uPlot's aligned data for one or more series: x in seconds, then per series max, min and mean
 * (the band is drawn between max and min). Series are joined on their bucket times; a time one
 * series lacks is null there. Where the data pauses for longer than longestJoinedGap (contracts), a time with
 * no value is put in the middle, so that the line breaks there (the series draw with spanGaps off)
 * instead of drawing readings that were never taken.
 */
export function alignSeries(series: readonly HealthSeries[]): (number | null)[][] {
  const measured = [...new Set(series.flatMap((item) => item.points.map((point) => Date.parse(point.at))))].sort(
    (a, b) => a - b,
  );
  const joined = longestJoinedGap(series[0]?.resolution ?? 'raw', measured);
  const times = measured.flatMap((time, index) => {
    const next = measured[index + 1];
    return next !== undefined && next - time > joined ? [time, (time + next) / 2] : [time];
  });
  const columns: (number | null)[][] = [times.map((time) => time / 1000)];
  for (const item of series) {
    const byTime = new Map(item.points.map((point) => [Date.parse(point.at), point]));
    columns.push(times.map((time) => byTime.get(time)?.max ?? null));
    columns.push(times.map((time) => byTime.get(time)?.min ?? null));
    columns.push(times.map((time) => byTime.get(time)?.value ?? null));
  }
  return columns;
}

/**
 * Late readings (measured longer before they arrived than the tenant's late-data horizon: stored
 * and shown, never judged) are drawn as hollow points over the line. Only raw readings carry the
 * flag; rollups say null.
 */
export function hasLateReadings(series: readonly HealthSeries[]): boolean {
  return series.some((item) => item.points.some((point) => point.late === true));
}

/** Per series, the value of each late reading at the aligned times (x in seconds), null elsewhere. */
export function lateColumns(series: readonly HealthSeries[], times: readonly (number | null)[]): (number | null)[][] {
  return series.map((item) => {
    const late = new Map(
      item.points.filter((point) => point.late === true).map((point) => [Date.parse(point.at) / 1000, point.value]),
    );
    return times.map((time) => (time === null ? null : (late.get(time) ?? null)));
  });
}

/** A threshold line to draw: a bound of one level, in the unit the series is shown in. */
export interface ThresholdLine {
  metric: ThresholdMetric;
  level: AlertLevel;
  side: 'lower' | 'upper';
  value: number;
}

/** The bounds of the chart's metrics, converted from canonical units to the series' unit. */
export function thresholdLines(
  metrics: readonly ThresholdMetric[],
  thresholds: ThresholdSet | undefined,
  unit: string,
): ThresholdLine[] {
  if (thresholds === undefined) return [];
  return metrics.flatMap((metric) =>
    ALERT_LEVELS.flatMap((level) =>
      (['lower', 'upper'] as const).flatMap((side) => {
        const bound = thresholds[metric][level][side];
        return bound === null ? [] : [{ metric, level, side, value: fromCanonical(metric, bound, unit) }];
      }),
    ),
  );
}

/**
 * The y range: the data, widened to show the at-risk bounds (so a normal week still shows where
 * the alert zones start), with a margin.
 */
export function valueRange(
  data: readonly (readonly (number | null)[])[],
  lines: readonly ThresholdLine[],
): [number, number] | null {
  const values = data.slice(1).flatMap((column) => column.filter((value): value is number => value !== null));
  if (values.length === 0) return null;
  let low = Math.min(...values);
  let high = Math.max(...values);
  for (const line of lines.filter((item) => item.level === 'AT_RISK')) {
    low = Math.min(low, line.value);
    high = Math.max(high, line.value);
  }
  const margin = Math.max((high - low) * 0.08, Math.abs(high) * 0.01, 1);
  return [low - margin, high + margin];
}
