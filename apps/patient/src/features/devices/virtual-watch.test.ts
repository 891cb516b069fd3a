import { describe, expect, it } from 'vitest';
import { newVirtualWatch, readingsUntil } from './virtual-watch';

const start = Date.UTC(2026, 10, 24, 8, 3, 20);
const minute = 60_000;

describe('the virtual watch', () => {
  it('starts with the current minute’s heart rate and gives one heart rate a minute', () => {
    const watch = newVirtualWatch(11, start);
    const first = readingsUntil(watch, start);
    expect(first.readings.map((reading) => reading.measure)).toContain('HEART_RATE');
    expect(first.readings.every((reading) => Date.parse(reading.measuredAt) === Date.UTC(2026, 10, 24, 8, 3))).toBe(true);
    const tenMinutes = readingsUntil(first.watch, start + 10 * minute);
    expect(tenMinutes.readings.filter((reading) => reading.measure === 'HEART_RATE')).toHaveLength(10);
  });

  it('gives the same readings however often it ticks, none twice', () => {
    const watch = newVirtualWatch(5, start);
    const once = readingsUntil(watch, start + 40 * minute).readings;
    let state = watch;
    const ticked = [];
    for (let at = start; at <= start + 40 * minute; at += 37_000) {
      const step = readingsUntil(state, at);
      ticked.push(...step.readings);
      state = step.watch;
    }
    ticked.push(...readingsUntil(state, start + 40 * minute).readings);
    expect(ticked.map((reading) => reading.key).sort()).toEqual(once.map((reading) => reading.key).sort());
    expect(new Set(once.map((reading) => reading.key)).size).toBe(once.length);
    expect(ticked.map((reading) => reading.value)).toEqual(expect.arrayContaining(once.map((reading) => reading.value)));
  });

  it('stays within plausible ranges and never gives a reading from the future', () => {
    const { readings } = readingsUntil(newVirtualWatch(3, start), start + 120 * minute);
    for (const reading of readings) expect(Date.parse(reading.measuredAt)).toBeLessThanOrEqual(start + 120 * minute);
    const heart = readings.filter((reading) => reading.measure === 'HEART_RATE').map((reading) => reading.value);
    expect(Math.min(...heart)).toBeGreaterThan(35);
    expect(Math.max(...heart)).toBeLessThan(200);
  });
});
