import { describe, expect, it } from 'vitest';
import { isAnswerable, localDay, shiftDay } from './day';

describe('care-plan days', () => {
  it('shifts across month and year ends and leap days', () => {
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDay('2028-03-01', -1)).toBe('2028-02-29');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2026-11-01', 0)).toBe('2026-11-01');
  });

  it('formats the device day with zero padding', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  it('answers a dose from 12 hours before it is due', () => {
    const due = '2026-12-01T12:00:00.000Z';
    expect(isAnswerable(due, Date.parse('2026-12-01T00:00:00.000Z'), 12)).toBe(true);
    expect(isAnswerable(due, Date.parse('2026-11-30T23:59:00.000Z'), 12)).toBe(false);
    expect(isAnswerable(due, Date.parse('2026-12-02T00:00:00.000Z'), 12)).toBe(true);
  });
});
