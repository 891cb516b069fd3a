import { describe, expect, it } from 'vitest';
import { dayText, timeText } from '../appointments/format';
import { appPathOf, notificationText, textParams } from './notification-text';

const translate = (key: string, options?: Record<string, unknown>) => `${key} ${JSON.stringify(options ?? {})}`;

describe('notification text', () => {
  it('writes a message as its sender wrote it', () => {
    expect(notificationText(translate, 'en', { kind: 'message', params: {}, title: 'Clinic closed', body: 'Closed on Monday.' })).toEqual({
      title: 'Clinic closed',
      body: 'Closed on Monday.',
    });
  });

  it('fills any other kind from the catalogue, instants in the reader language', () => {
    const startsAt = '2026-03-02T01:30:00.000Z';
    const text = notificationText(translate, 'vi', {
      kind: 'appointment.booked',
      params: { otherName: 'Dr An', startsAt },
      title: null,
      body: null,
    });
    const written = `${dayText('vi', startsAt)}, ${timeText('vi', startsAt)}`;
    expect(text.title).toBe(`kinds.appointment.booked.title ${JSON.stringify({ otherName: 'Dr An', startsAt: written })}`);
    expect(text.body.startsWith('kinds.appointment.booked.body')).toBe(true);
  });

  it('writes calendar days as days, whatever the zone, and nulls as nothing', () => {
    const params = textParams('en', { startDate: '2026-01-15', reason: null, count: 2 });
    expect(params.startDate).toMatch(/15/);
    expect(params.startDate).toMatch(/Jan/);
    expect(params.reason).toBe('');
    expect(params.count).toBe(2);
  });

  it('follows only paths of this app', () => {
    expect(appPathOf('/appointments/1')).toBe('/appointments/1');
    expect(appPathOf('//evil.example/x')).toBeNull();
    expect(appPathOf('https://evil.example')).toBeNull();
    expect(appPathOf(null)).toBeNull();
  });
});
