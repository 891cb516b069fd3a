import { describe, expect, it } from 'vitest';
import { todayIn } from './format';

describe('todayIn', () => {
  it('is the calendar date in the given zone, which may differ from UTC', () => {
    // Sunday 19:30 UTC is already Monday 02:30 in Hanoi (UTC+7), and still Sunday in Toronto.
    const sundayEvening = new Date('2026-11-29T19:30:00Z');
    expect(todayIn('UTC', sundayEvening)).toBe('2026-11-29');
    expect(todayIn('Asia/Ho_Chi_Minh', sundayEvening)).toBe('2026-11-30');
    expect(todayIn('America/Toronto', sundayEvening)).toBe('2026-11-29');
  });

  it('pads months and days to two digits', () => {
    expect(todayIn('UTC', new Date('2026-03-05T00:00:00Z'))).toBe('2026-03-05');
  });
});
