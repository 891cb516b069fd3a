import { describe, expect, it } from 'vitest';
import { daysUntilExpiry, isExpiringSoon, isRestorable, restoreDaysLeft } from './doctor-account.js';

describe('restoring a deactivated doctor', () => {
  const deactivatedAt = new Date('2026-01-01T10:00:00Z');
  it('allows 30 days, to the minute', () => {
    expect(isRestorable(deactivatedAt, new Date('2026-01-31T10:00:00Z'))).toBe(true);
    expect(isRestorable(deactivatedAt, new Date('2026-01-31T10:00:01Z'))).toBe(false);
    expect(restoreDaysLeft(deactivatedAt, new Date('2026-01-01T10:00:00Z'))).toBe(30);
    expect(restoreDaysLeft(deactivatedAt, new Date('2026-01-30T12:00:00Z'))).toBe(0);
    expect(restoreDaysLeft(deactivatedAt, new Date('2026-02-02T10:00:00Z'))).toBe(-2);
  });
});

describe('license expiry', () => {
  it('counts calendar days to the last valid day', () => {
    expect(daysUntilExpiry('2026-03-10', '2026-03-10')).toBe(0);
    expect(daysUntilExpiry('2026-03-10', '2026-02-08')).toBe(30);
    expect(daysUntilExpiry('2026-03-10', '2026-03-11')).toBe(-1);
    expect(isExpiringSoon('2026-03-10', '2026-02-08')).toBe(true);
    expect(isExpiringSoon('2026-03-10', '2026-02-07')).toBe(false);
    expect(isExpiringSoon('2026-03-10', '2026-03-11')).toBe(false);
  });
});
