import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countDesaturations,
  measureOfSlug,
  measureSlug,
  osahsScreening,
  osahsSeverity,
  periodStart,
  periodStats,
  shiftPeriod,
  sleepTimings,
  type SpO2Sample,
} from './app-health.js';

const T0 = Date.parse('2026-11-20T22:00:00Z');
const MINUTE = 60_000;
/** One reading a minute from T0. */
const series = (values: readonly number[]): SpO2Sample[] =>
  values.map((value, index) => ({ atMs: T0 + index * MINUTE, value }));

describe('period statistics and navigation', () => {
  it('takes min and max from the buckets and weights the means by their counts', () => {
    expect(
      periodStats([
        { value: 70, min: 60, max: 80, count: 3 },
        { value: 90, min: 85, max: 110, count: 1 },
      ]),
    ).toEqual({ min: 60, max: 110, average: 75, count: 4 });
    expect(periodStats([])).toBeNull();
  });

  it('steps days, weeks, months and years', () => {
    expect(shiftPeriod('2026-11-25', 'day', -1)).toBe('2026-11-24');
    expect(shiftPeriod('2026-11-25', 'week', 1)).toBe('2026-12-02');
    expect(shiftPeriod('2026-01-31', 'month', 1)).toBe('2026-02-01');
    expect(shiftPeriod('2026-01-15', 'month', -1)).toBe('2025-12-01');
    expect(shiftPeriod('2026-11-25', 'year', -1)).toBe('2025-01-01');
  });

  it('finds the first day of a period (weeks from Monday)', () => {
    expect(periodStart('2026-11-25', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-23', 'week')).toBe('2026-11-23');
    expect(periodStart('2026-11-22', 'week')).toBe('2026-11-16');
    expect(periodStart('2026-11-25', 'month')).toBe('2026-11-01');
    expect(periodStart('2026-11-25', 'year')).toBe('2026-01-01');
    expect(periodStart('2026-11-25', 'day')).toBe('2026-11-25');
  });

  it('names measures in addresses both ways', () => {
    expect(measureSlug('HEART_RATE')).toBe('heart-rate');
    expect(measureOfSlug('heart-rate')).toBe('HEART_RATE');
    expect(measureOfSlug('sleep')).toBeNull();
  });
});

describe('sleep timings', () => {
  const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
  const span = (stage: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM', from: number, to: number) => ({
    stage,
    from: at(from),
    to: at(to),
  });

  it('measures falling asleep to the first sleep stage and re-sleep as the awake time between sleep', () => {
    const timings = sleepTimings(
      {
        startAt: at(0),
        stages: [
          span('AWAKE', 0, 15),
          span('LIGHT', 15, 60),
          span('DEEP', 60, 120),
          span('AWAKE', 120, 130),
          span('REM', 130, 160),
          span('AWAKE', 160, 165),
          span('LIGHT', 165, 200),
          span('AWAKE', 200, 230),
        ],
      },
      { fallingAsleepMinutes: 99, reSleepMinutes: 99 },
    );
    expect(timings.fallingAsleepMinutes).toBe(15);
    // 10 + 5 minutes awake between sleep; the final 30 minutes awake are getting up, not re-sleep.
    expect(timings.reSleepMinutes).toBe(15);
    expect(timings.awakenings).toBe(2);
    expect(timings.minutes).toEqual({ AWAKE: 60, LIGHT: 80, DEEP: 60, REM: 30 });
  });

  it('keeps the watch figures when the night has no stages', () => {
    const timings = sleepTimings(
      { startAt: at(0), stages: [] },
      { fallingAsleepMinutes: 12, reSleepMinutes: 4 },
    );
    expect(timings.fallingAsleepMinutes).toBe(12);
    expect(timings.reSleepMinutes).toBe(4);
  });
});

describe('oxygen desaturation index', () => {
  it('counts a drop of 3 points from the baseline once, however long it lasts', () => {
    const found = countDesaturations(series([96, 96, 96, 93, 92, 92, 96, 96, 95, 96]), T0, T0 + 60 * MINUTE);
    expect(found.dips).toBe(1);
    expect(found.lowest).toBe(92);
  });

  it('does not count a drop of 2 points', () => {
    expect(countDesaturations(series([96, 96, 94, 96, 94, 96]), T0, T0 + 60 * MINUTE).dips).toBe(0);
  });

  it('counts only readings inside the sleep window and ignores artefacts', () => {
    const samples = series([96, 96, 90, 96, 96, 96, 10, 96, 96, 90, 96]);
    // The window starts after the first dip; the 10 % reading is an artefact.
    expect(countDesaturations(samples, T0 + 3 * MINUTE, T0 + 60 * MINUTE).dips).toBe(1);
  });

  it('rates the index per hour of sleep in the severity bands', () => {
    expect([4.9, 5, 14.9, 15, 29.9, 30].map(osahsSeverity)).toEqual([
      'NORMAL',
      'MILD',
      'MILD',
      'MODERATE',
      'MODERATE',
      'SEVERE',
    ]);
    // 6 dips in 2 hours of sleep: 3 per hour.
    const values = Array.from({ length: 120 }, (_, index) => (index % 20 === 10 ? 91 : 96));
    const night = {
      id: '0190d9d8-0000-7000-8000-000000000001',
      startAt: new Date(T0).toISOString(),
      endAt: new Date(T0 + 120 * MINUTE).toISOString(),
      totalMinutes: 120,
    };
    const result = osahsScreening(night, series(values));
    expect(result).toMatchObject({ dips: 6, odi: 3, severity: 'NORMAL', samples: 120 });
    expect(osahsScreening(night, []).odi).toBeNull();
  });

  const spo2 = fc.array(fc.integer({ min: 80, max: 100 }), { maxLength: 200 });

  it('a steady night has no dips', () => {
    fc.assert(
      fc.property(fc.integer({ min: 53, max: 100 }), fc.integer({ min: 0, max: 300 }), (value, length) => {
        const found = countDesaturations(series(Array.from({ length }, () => value)), T0, T0 + 400 * MINUTE);
        return found.dips === 0 && found.samples === length;
      }),
    );
  });

  it('shifting every reading by the same amount changes no dip, and dips never outnumber half the readings', () => {
    fc.assert(
      fc.property(spo2, fc.integer({ min: -20, max: 0 }), (values, shift) => {
        const found = countDesaturations(series(values), T0, T0 + 400 * MINUTE);
        const shifted = countDesaturations(series(values.map((v) => v + shift)), T0, T0 + 400 * MINUTE);
        return found.dips === shifted.dips && found.dips <= Math.ceil(values.length / 2);
      }),
    );
  });

  it('readings only rising never dip', () => {
    fc.assert(
      fc.property(spo2, (values) => {
        const rising = [...values].sort((a, b) => a - b);
        return countDesaturations(series(rising), T0, T0 + 400 * MINUTE).dips === 0;
      }),
    );
  });
});
