import { SOS_MESSAGE_CHOICES, appSosRaiseSchema } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { formatWhen } from './format';
import { secondsLeft } from './modal';

describe('secondsLeft (the countdowns of the SOS button and the high-risk confirmation)', () => {
  const deadline = 1_000_000;
  it('rounds up, so the last second shows 1 until it is over', () => {
    expect(secondsLeft(deadline, deadline - 15_000)).toBe(15);
    expect(secondsLeft(deadline, deadline - 14_001)).toBe(15);
    expect(secondsLeft(deadline, deadline - 14_000)).toBe(14);
    expect(secondsLeft(deadline, deadline - 1)).toBe(1);
  });
  it('is zero at and after the deadline, never negative', () => {
    expect(secondsLeft(deadline, deadline)).toBe(0);
    expect(secondsLeft(deadline, deadline + 60_000)).toBe(0);
  });
});

describe('the SOS the app sends', () => {
  it('takes one of the message choices, or none; location optional', () => {
    for (const message of SOS_MESSAGE_CHOICES)
      expect(appSosRaiseSchema.safeParse({ source: 'SOS_BUTTON', message }).success).toBe(true);
    expect(appSosRaiseSchema.safeParse({ source: 'SOS_BUTTON', location: { lat: 10.7, lng: 106.7 } }).success).toBe(true);
    expect(appSosRaiseSchema.safeParse({ source: 'SOS_BUTTON', message: 'HELLO' }).success).toBe(false);
    expect(appSosRaiseSchema.safeParse({ source: 'SOS_BUTTON', location: { lat: 91, lng: 0 } }).success).toBe(false);
  });
});

describe('notification times', () => {
  it('read dd/MM/yyyy HH:mm (spec §9)', () => {
    expect(formatWhen(new Date(2026, 10, 5, 7, 3))).toBe('05/11/2026 07:03');
  });
});
