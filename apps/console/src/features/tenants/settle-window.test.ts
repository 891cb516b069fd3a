import { alertSettingsSchema, STATUS_SETTLE_MINUTES_RANGE } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { parseSettleMinutes } from './tenant-settings-model';

describe('the come-down window field', () => {
  it('takes whole minutes within the server’s bounds', () => {
    expect(parseSettleMinutes('5')).toEqual({ minutes: 5 });
    expect(parseSettleMinutes(' 30 ')).toEqual({ minutes: 30 });
    expect(parseSettleMinutes('1440')).toEqual({ minutes: 1440 });
  });

  it('refuses fractions, signs, words, empty text and values out of bounds', () => {
    for (const text of ['4', '1441', '0', '-10', '7.5', '10 min', '', '1e2'])
      expect(parseSettleMinutes(text), text).toEqual({ problem: 'settleWindowRange' });
  });

  it('accepts exactly what the alert settings schema accepts at and around its bounds', () => {
    const [min, max] = STATUS_SETTLE_MINUTES_RANGE;
    const base = { highRiskConfirmSeconds: 15, sosKpiMinutes: 5 };
    for (const minutes of [min - 1, min, max, max + 1]) {
      const byServer = alertSettingsSchema.safeParse({ ...base, statusSettleMinutes: minutes }).success;
      expect('minutes' in parseSettleMinutes(String(minutes)), String(minutes)).toBe(byServer);
    }
  });
});
