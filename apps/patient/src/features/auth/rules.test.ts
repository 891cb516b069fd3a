import { describe, expect, it } from 'vitest';
import { appPasswordProblems, isAdult, isOtpCode, normaliseTenantCode } from './rules';

describe('app password rule (spec §5)', () => {
  it('accepts 8 characters with a lower-case letter, a capital, a digit and one of the app specials', () => {
    for (const special of ['-', '_', ',', '.', '!', '@', '#', '*', '%']) {
      expect(appPasswordProblems(`Kx7q${special}mzr`), special).toEqual([]);
    }
  });

  it('refuses fewer than 8 characters', () => {
    expect(appPasswordProblems('Kx7q-mz')).toEqual(['tooShort']);
  });

  it('needs each kind of character', () => {
    expect(appPasswordProblems('kx7q-mzrt')).toContain('needsUpper');
    expect(appPasswordProblems('KX7Q-MZRT')).toContain('needsLower');
    expect(appPasswordProblems('Kxzq-mzrt')).toContain('needsDigit');
    expect(appPasswordProblems('Kx7qnmzrt')).toContain('needsSpecial');
  });

  it('refuses specials outside the app list (the console’s $ ^ & among them)', () => {
    expect(appPasswordProblems('Kx7q$mzr')).toEqual(['needsSpecial', 'invalidCharacters']);
    expect(appPasswordProblems('Kx7q-mz&r')).toEqual(['invalidCharacters']);
  });
});

describe('tenant code (spec §5: must be entered)', () => {
  it('is required', () => {
    expect(normaliseTenantCode('')).toBeUndefined();
    expect(normaliseTenantCode('   ')).toBeUndefined();
  });

  it('is sent trimmed', () => {
    expect(normaliseTenantCode('  demo  ')).toBe('demo');
  });

  it('has at most 64 characters', () => {
    expect(normaliseTenantCode('x'.repeat(65))).toBeUndefined();
  });
});

describe('registration age and codes', () => {
  const today = new Date(2026, 5, 15);
  it('is 18 on the 18th birthday, not the day before', () => {
    expect(isAdult('2008-06-15', today)).toBe(true);
    expect(isAdult('2008-06-16', today)).toBe(false);
    expect(isAdult('', today)).toBe(false);
  });

  it('takes six digits as a code', () => {
    expect(isOtpCode('123456')).toBe(true);
    expect(isOtpCode('12345')).toBe(false);
    expect(isOtpCode('12345a')).toBe(false);
  });
});
