import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from './format-date';

describe('date formats of spec §9', () => {
  // Built from local parts so the test holds in every time zone.
  const morning = new Date(2021, 10, 3, 9, 5);

  it('formats dates as dd/MM/yyyy with zero padding', () => {
    expect(formatDate(morning)).toBe('03/11/2021');
    expect(formatDate(new Date(1999, 11, 31))).toBe('31/12/1999');
  });

  it('formats times as 24-hour HH:mm', () => {
    expect(formatTime(morning)).toBe('09:05');
    expect(formatTime(new Date(2021, 0, 1, 23, 59))).toBe('23:59');
    expect(formatTime(new Date(2021, 0, 1, 0, 0))).toBe('00:00');
  });

  it('joins both and accepts ISO strings', () => {
    expect(formatDateTime(morning)).toBe('03/11/2021 09:05');
    expect(formatDateTime(morning.toISOString())).toBe('03/11/2021 09:05');
  });

  it('shows nothing for an invalid date rather than "NaN/NaN/NaN"', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime(Number.NaN)).toBe('');
  });
});
