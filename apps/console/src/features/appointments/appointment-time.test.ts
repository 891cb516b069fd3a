import { describe, expect, it } from 'vitest';
import { hoursAndMinutes, periodRange, startDistance, zonedDayStart } from './appointment-time';

describe('zonedDayStart', () => {
  it('gives the instant a day begins in a zone', () => {
    expect(zonedDayStart('2026-12-01', 'Asia/Ho_Chi_Minh')).toBe('2026-11-30T17:00:00.000Z');
    expect(zonedDayStart('2026-12-01', 'UTC')).toBe('2026-12-01T00:00:00.000Z');
    // A day after the clocks went forward in New York (UTC−4, not −5).
    expect(zonedDayStart('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
  });
});

describe('periodRange', () => {
  const now = new Date('2026-12-02T10:15:30Z'); // Wednesday, 17:15 in Ho Chi Minh City
  it('covers today, this week (Monday to Monday) and what is still to come', () => {
    expect(periodRange('today', 'Asia/Ho_Chi_Minh', now)).toEqual({
      from: '2026-12-01T17:00:00.000Z',
      to: '2026-12-02T17:00:00.000Z',
    });
    expect(periodRange('week', 'Asia/Ho_Chi_Minh', now)).toEqual({
      from: '2026-11-29T17:00:00.000Z',
      to: '2026-12-06T17:00:00.000Z',
    });
    expect(periodRange('upcoming', 'Asia/Ho_Chi_Minh', now)).toEqual({
      from: '2026-12-01T17:00:00.000Z',
      to: null,
    });
    expect(periodRange('all', 'Asia/Ho_Chi_Minh', now)).toEqual({ from: null, to: null });
  });
});

describe('startDistance', () => {
  const now = new Date('2026-12-02T10:00:00Z');
  it('says how overdue an appointment waiting to start is, or how soon it starts', () => {
    expect(startDistance({ status: 'UPCOMING', startAt: '2026-12-02T09:47:30Z' }, now)).toEqual({
      kind: 'overdue',
      minutes: 12,
    });
    expect(startDistance({ status: 'WAITING_FOR_DOCTOR', startAt: '2026-12-02T10:34:10Z' }, now)).toEqual({
      kind: 'startsIn',
      minutes: 35,
    });
    expect(startDistance({ status: 'UPCOMING', startAt: '2026-12-04T10:00:00Z' }, now)).toBeNull();
    expect(startDistance({ status: 'EXAMINING', startAt: '2026-12-02T09:00:00Z' }, now)).toBeNull();
    expect(startDistance({ status: 'CANCELED', startAt: '2026-12-02T09:00:00Z' }, now)).toBeNull();
  });

  it('splits minutes into hours and minutes', () => {
    expect(hoursAndMinutes(135)).toEqual({ hours: 2, minutes: 15 });
    expect(hoursAndMinutes(12)).toEqual({ hours: 0, minutes: 12 });
  });
});
