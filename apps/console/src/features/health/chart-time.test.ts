import { describe, expect, it } from 'vitest';
import { chartAxisLabels, chartDate, chartDateTime, usableTimeZone } from './chart-time';

// 2025-04-01T23:30:00Z: 1 April in UTC and New York, already 2 April in Ho Chi Minh City.
const instant = Date.UTC(2025, 3, 1, 23, 30) / 1000;

describe('chart times', () => {
  it('writes dd/MM/yyyy and HH:mm in the given zone, never US order', () => {
    expect(chartDateTime(instant, 'Asia/Ho_Chi_Minh')).toBe('02/04/2025 06:30');
    expect(chartDateTime(instant, 'America/New_York')).toBe('01/04/2025 19:30');
    expect(chartDate(instant, 'UTC')).toBe('01/04/2025');
  });

  it('labels hours with the date where the day changes, and dates for long spans', () => {
    const hour = 3600;
    const day = [instant - 2 * hour, instant - hour, instant, instant + hour];
    expect(chartAxisLabels(day, 'UTC')).toEqual(['21:30\n01/04/2025', '22:30', '23:30', '00:30\n02/04/2025']);
    const week = [0, 1, 2].map((index) => instant + index * 86_400);
    expect(chartAxisLabels(week, 'Asia/Ho_Chi_Minh')).toEqual(['02/04/2025', '03/04/2025', '04/04/2025']);
  });

  it('falls back to the browser zone for an unknown or empty zone', () => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(usableTimeZone('Mars/Olympus')).toBe(browser);
    expect(usableTimeZone('')).toBe(browser);
    expect(usableTimeZone('Asia/Ho_Chi_Minh')).toBe('Asia/Ho_Chi_Minh');
  });
});
