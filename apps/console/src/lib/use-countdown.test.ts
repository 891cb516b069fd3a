import { describe, expect, it } from 'vitest';
import { formatCountdown } from './use-countdown';

describe('formatCountdown', () => {
  it('reads as minutes and seconds', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(299.4)).toBe('4:59');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
