import { defaultThresholds, type HealthSeries } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { alignSeries, thresholdLines, valueRange } from './chart-data';
import { hoursAndMinutes, qtFlag, sleepCycles, sleepShares } from './health-rules';

describe('QT flag (spec §9)', () => {
  it.each([
    [349, 'MALE', 'short'],
    [350, 'MALE', 'normal'],
    [440, 'MALE', 'normal'],
    [441, 'MALE', 'prolonged'],
    [460, 'FEMALE', 'normal'],
    [461, 'FEMALE', 'prolonged'],
    [445, null, 'prolonged'],
    [500, 'FEMALE', 'prolonged'],
    [501, 'MALE', 'dangerous'],
  ] as const)('%i ms for %s is %s', (qt, gender, flag) => {
    expect(qtFlag(qt, gender)).toBe(flag);
  });
});

describe('sleep', () => {
  it('gives each stage its share of the time asleep against the spec references', () => {
    const shares = sleepShares({ deepMinutes: 60, lightMinutes: 300, remMinutes: 90 });
    expect(shares).toEqual([
      { stage: 'deep', minutes: 60, percent: 13.3, reference: [13, 23], isWithin: true },
      { stage: 'light', minutes: 300, percent: 66.7, reference: [50, 60], isWithin: false },
      { stage: 'rem', minutes: 90, percent: 20, reference: [20, 25], isWithin: true },
    ]);
    expect(
      sleepShares({ deepMinutes: 0, lightMinutes: 0, remMinutes: 0 }).map((share) => share.percent),
    ).toEqual([0, 0, 0]);
  });

  it('counts full 90-minute cycles and splits durations', () => {
    expect(sleepCycles(449)).toBe(4);
    expect(sleepCycles(450)).toBe(5);
    expect(hoursAndMinutes(425)).toEqual({ hours: 7, minutes: 5 });
  });
});

const series = (measure: 'SYSTOLIC' | 'DIASTOLIC', points: [string, number][]): HealthSeries => ({
  measure,
  unit: 'mmHg',
  view: 'week',
  resolution: 'hour',
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-03-08T00:00:00.000Z',
  points: points.map(([at, value]) => ({
    at,
    value,
    min: value - 5,
    max: value + 5,
    count: 4,
    source: null,
  })),
});

describe('chart data', () => {
  it('joins two series on their bucket times, max/min/mean per series, nulls where one is missing', () => {
    const data = alignSeries([
      series('SYSTOLIC', [
        ['2026-03-01T00:00:00.000Z', 120],
        ['2026-03-01T01:00:00.000Z', 118],
      ]),
      series('DIASTOLIC', [['2026-03-01T01:00:00.000Z', 75]]),
    ]);
    expect(data).toEqual([
      [Date.parse('2026-03-01T00:00:00Z') / 1000, Date.parse('2026-03-01T01:00:00Z') / 1000],
      [125, 123],
      [115, 113],
      [120, 118],
      [null, 80],
      [null, 70],
      [null, 75],
    ]);
  });

  it('breaks the line where the data pauses: a missing hour or day, or three times the readings’ pace', () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const hourly = (resolution: HealthSeries['resolution'], times: string[]) => ({
      ...series('SYSTOLIC', times.map((time) => [time, 70] as [string, number])),
      resolution,
    });
    // Hourly rollups: 01:00 and 02:00 are joined; nothing from 03:00 to 05:00, so a break before 06:00.
    const hours = alignSeries([
      hourly('hour', ['2026-03-01T01:00:00.000Z', '2026-03-01T02:00:00.000Z', '2026-03-01T06:00:00.000Z']),
    ]);
    expect(hours[0]).toEqual([at('2026-03-01T01:00:00Z'), at('2026-03-01T02:00:00Z'), at('2026-03-01T04:00:00Z'), at('2026-03-01T06:00:00Z')]);
    expect(hours[3]).toEqual([70, 70, null, 70]);
    // Daily rollups: a day of 25 hours is no pause; two days apart is.
    const days = alignSeries([
      hourly('day', ['2026-03-01T00:00:00.000Z', '2026-03-02T01:00:00.000Z', '2026-03-04T01:00:00.000Z']),
    ]);
    expect(days[3]).toEqual([70, 70, null, 70]);
    // Raw: a reading a minute (a few late by seconds), then 20 minutes without: broken once.
    const minutes = ['00:00:00', '00:01:00', '00:02:05', '00:03:00', '00:04:00', '00:24:00', '00:25:00'];
    const raw = alignSeries([hourly('raw', minutes.map((time) => `2026-03-01T${time}.000Z`))]);
    expect(raw[3]).toEqual([70, 70, 70, 70, 70, null, 70, 70]);
    expect(raw[0]?.[5]).toBe(at('2026-03-01T00:14:00Z'));
    // Readings every 30 minutes are joined (a pause is 90 minutes for them).
    const sparse = alignSeries([hourly('raw', ['00:00', '00:30', '01:00', '01:30'].map((time) => `2026-03-01T${time}:00.000Z`))]);
    expect(sparse[3]).toEqual([70, 70, 70, 70]);
  });

  it('draws every bound of the chart’s metrics, converted to the shown unit, and widens the range to the at-risk bounds', () => {
    const thresholds = defaultThresholds(40);
    const lines = thresholdLines(['TEMPERATURE'], thresholds, 'F');
    expect(lines).toContainEqual({ metric: 'TEMPERATURE', level: 'AT_RISK', side: 'upper', value: 99.5 });
    expect(lines).toHaveLength(6);
    expect(thresholdLines(['SPO2'], thresholds, '%').map((line) => line.value)).toEqual([94, 92, 88]);
    const range = valueRange([[0], [97], [96], [96.5]], thresholdLines(['SPO2'], thresholds, '%'));
    expect(range?.[0]).toBeLessThan(94);
    expect(range?.[1]).toBeGreaterThan(97);
    expect(valueRange([[], []], [])).toBeNull();
  });
});
