import type { HealthSeries } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { alignSeries, hasLateReadings, lateColumns } from './chart-data';

const point = (at: string, value: number, late: boolean | null) => ({
  at,
  value,
  min: value,
  max: value,
  count: 1,
  source: null,
  late,
});
const series = (measure: HealthSeries['measure'], points: HealthSeries['points']): HealthSeries => ({
  measure,
  unit: 'mmHg',
  view: 'day',
  resolution: 'raw',
  from: '2025-05-01T00:00:00.000Z',
  to: '2025-05-02T00:00:00.000Z',
  points,
});

describe('late readings on the charts', () => {
  const systolic = series('SYSTOLIC', [
    point('2025-05-01T08:00:00.000Z', 120, false),
    point('2025-05-01T09:00:00.000Z', 150, true),
  ]);
  const diastolic = series('DIASTOLIC', [
    point('2025-05-01T08:00:00.000Z', 80, true),
    point('2025-05-01T10:00:00.000Z', 85, false),
  ]);

  it('puts each late reading at its aligned time, per series, and nothing else', () => {
    const aligned = alignSeries([systolic, diastolic]);
    expect(lateColumns([systolic, diastolic], aligned[0] ?? [])).toEqual([
      [null, 150, null],
      [80, null, null],
    ]);
  });

  it('knows whether there is any late reading (rollups say null, never late)', () => {
    expect(hasLateReadings([systolic])).toBe(true);
    expect(hasLateReadings([series('SYSTOLIC', [point('2025-05-01T08:00:00.000Z', 120, false)])])).toBe(false);
    expect(hasLateReadings([series('SYSTOLIC', [point('2025-05-01T08:00:00.000Z', 120, null)])])).toBe(false);
  });
});
