import { describe, expect, it } from 'vitest';
import { badgeText, consoleLink, displayParams } from './notification-text';

describe('displayParams', () => {
  it('shows instants in the given zone as dd/MM/yyyy HH:mm and calendar days as dd/MM/yyyy', () => {
    const shown = displayParams({
      otherName: 'Hung Pham',
      startsAt: '2026-03-01T02:30:00.000Z',
      startDate: '2026-03-09',
      count: 2,
      isOnline: true,
      reason: null,
    });
    expect(shown.otherName).toBe('Hung Pham');
    expect(shown.startsAt).toMatch(/^\d{2}\/\d{2}\/2026 \d{2}:30$/);
    expect(shown.startDate).toBe('09/03/2026');
    expect(shown.count).toBe(2);
    expect(shown.isOnline).toBe('true');
    expect(shown.reason).toBe('');
  });

  it('keeps a value that is not a date as sent', () => {
    expect(displayParams({ startsAt: 'soon', startDate: 'later' })).toEqual({
      startsAt: 'soon',
      startDate: 'later',
    });
  });
});

describe('consoleLink', () => {
  it('puts a console path in the user’s area', () => {
    expect(consoleLink('doctor', '/appointments/42')).toBe('/doctor/appointments/42');
    expect(consoleLink('doctor', '/doctor/appointments/42')).toBe('/doctor/appointments/42');
    expect(consoleLink('doctor', '/doctor')).toBe('/doctor');
    expect(consoleLink('doctor', '/doctors/7')).toBe('/doctor/doctors/7');
  });

  it('leads nowhere for no link or anything but a path of this site', () => {
    expect(consoleLink('doctor', null)).toBeNull();
    expect(consoleLink('doctor', '//evil.example/x')).toBeNull();
    expect(consoleLink('doctor', 'https://evil.example')).toBeNull();
    expect(consoleLink('doctor', '/\\evil.example')).toBeNull();
  });
});

describe('badgeText', () => {
  it('shows the count up to 99, then 99+', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(2500)).toBe('99+');
  });
});
