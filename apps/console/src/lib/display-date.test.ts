import { describe, expect, it } from 'vitest';
import { displayDateForSchema, formatDateTyping, parseDisplayDate, toDisplayDate } from './display-date';
import { formatCountdown } from './use-countdown';

describe('typed dates (dd/MM/yyyy)', () => {
  it('turns a real date into ISO and refuses impossible ones', () => {
    expect(parseDisplayDate('15/06/1990')).toBe('1990-06-15');
    expect(parseDisplayDate(' 29/02/2024 ')).toBe('2024-02-29');
    expect(parseDisplayDate('29/02/2023')).toBeNull();
    expect(parseDisplayDate('31/04/1990')).toBeNull();
    expect(parseDisplayDate('1990-06-15')).toBeNull();
    expect(parseDisplayDate('5/6/1990')).toBeNull();
  });

  it('shows an ISO date as typed, and nothing for anything else', () => {
    expect(toDisplayDate('1986-04-12')).toBe('12/04/1986');
    expect(toDisplayDate(null)).toBe('');
    expect(toDisplayDate('12/04/1986')).toBe('');
  });

  it('hands the schema undefined, the ISO date, or the text as typed', () => {
    expect(displayDateForSchema('  ')).toBeUndefined();
    expect(displayDateForSchema('15/06/1990')).toBe('1990-06-15');
    expect(displayDateForSchema('99/99/1990')).toBe('99/99/1990');
  });

  it('puts the slashes in while typing, and only before digits', () => {
    expect(formatDateTyping('1')).toBe('1');
    expect(formatDateTyping('15')).toBe('15');
    expect(formatDateTyping('150')).toBe('15/0');
    expect(formatDateTyping('15061990')).toBe('15/06/1990');
    expect(formatDateTyping('15/06/')).toBe('15/06');
    expect(formatDateTyping('15a06b19901234')).toBe('15/06/1990');
  });
});

describe('formatCountdown', () => {
  it('reads as minutes and seconds', () => {
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(299.4)).toBe('4:59');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
