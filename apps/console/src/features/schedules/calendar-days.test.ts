import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatTimeTyping,
  laneLayout,
  mondayOf,
  stepAnchor,
  viewDays,
  zonedPlace,
} from './calendar-days';

describe('calendar days', () => {
  it('finds the Monday of a week and steps across months and years', () => {
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(stepAnchor('week', '2026-11-28', 1)).toBe('2026-12-05');
    expect(stepAnchor('month', '2026-12-15', 1)).toBe('2027-01-01');
    expect(stepAnchor('month', '2026-01-31', -1)).toBe('2025-12-01');
  });

  it('gives a view its days: a week from Monday, a month in whole weeks', () => {
    expect(viewDays('day', '2026-11-28')).toEqual(['2026-11-28']);
    expect(viewDays('week', '2026-11-28')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    const month = viewDays('month', '2026-02-10');
    expect(month[0]).toBe('2026-01-26');
    expect(month.at(-1)).toBe('2026-03-01');
    expect(month.length % 7).toBe(0);
  });

  it('places an instant in a zone', () => {
    expect(zonedPlace('2026-11-28T01:30:00Z', 'Asia/Ho_Chi_Minh')).toEqual({
      day: '2026-11-28',
      minute: 8 * 60 + 30,
    });
    expect(zonedPlace('2026-11-28T20:00:00Z', 'Asia/Ho_Chi_Minh')).toEqual({
      day: '2026-11-29',
      minute: 180,
    });
  });

  it('puts overlapping periods side by side', () => {
    const layout = laneLayout([
      { id: 'a', start: 480, end: 720 },
      { id: 'b', start: 600, end: 780 },
      { id: 'c', start: 840, end: 900 },
    ]);
    expect(layout.map((item) => [item.period.id, item.lane, item.lanes])).toEqual([
      ['a', 0, 2],
      ['b', 1, 2],
      ['c', 0, 1],
    ]);
  });

  it('puts the colon in a typed time', () => {
    expect(formatTimeTyping('0830')).toBe('08:30');
    expect(formatTimeTyping('08')).toBe('08');
    expect(formatTimeTyping('08:3')).toBe('08:3');
  });
});
