import { describe, expect, it } from 'vitest';
import { formatVitalAge, STALE_AFTER_MINUTES, vitalAge } from './vital-age';

const now = new Date('2025-04-01T09:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

describe('vitalAge', () => {
  it('says the age in the largest whole unit', () => {
    expect(vitalAge(ago(30), now)).toMatchObject({ value: 0, unit: 'second', minutes: 0 });
    expect(vitalAge(ago(12 * 60 + 59), now)).toMatchObject({ value: 12, unit: 'minute', minutes: 12 });
    expect(vitalAge(ago(18 * 3600 + 120), now)).toMatchObject({ value: 18, unit: 'hour' });
    expect(vitalAge(ago(3 * 86400), now)).toMatchObject({ value: 3, unit: 'day' });
  });

  it('is stale strictly past the threshold (30 minutes by default), fresh at it', () => {
    expect(STALE_AFTER_MINUTES).toBe(30);
    expect(vitalAge(ago(30 * 60), now)?.isStale).toBe(false);
    expect(vitalAge(ago(30 * 60 + 1), now)?.isStale).toBe(true);
    expect(vitalAge(ago(18 * 3600), now)?.isStale).toBe(true);
    expect(vitalAge(ago(10 * 60), now, 5)?.isStale).toBe(true);
  });

  it('treats a reading dated after now (clock skew) as new, and an unreadable time as unknown', () => {
    expect(vitalAge(new Date(now.getTime() + 90_000), now)).toMatchObject({ value: 0, isStale: false });
    expect(vitalAge('not a date', now)).toBeNull();
  });
});

describe('formatVitalAge', () => {
  it('speaks the console’s language through Intl.RelativeTimeFormat', () => {
    const twelve = vitalAge(ago(12 * 60), now);
    const eighteen = vitalAge(ago(18 * 3600), now);
    if (twelve === null || eighteen === null) throw new Error('unreadable');
    expect(formatVitalAge(twelve, 'en')).toBe('12 minutes ago');
    expect(formatVitalAge(twelve, 'vi')).toBe('12 phút trước');
    expect(formatVitalAge(eighteen, 'en')).toBe('18 hours ago');
    expect(formatVitalAge(eighteen, 'vi')).toBe('18 giờ trước');
    const fresh = vitalAge(ago(5), now);
    if (fresh === null) throw new Error('unreadable');
    expect(formatVitalAge(fresh, 'en')).toBe('now');
  });
});
