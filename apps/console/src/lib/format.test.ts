import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import {
  displayDateForSchema,
  formatBytes,
  formatDate,
  formatDateTime,
  formatDateTyping,
  formatMeasure,
  formatNumber,
  formatPercent,
  formatRelativeAge,
  formatTime,
  formatUnit,
  parseDisplayDate,
  toDisplayDate,
  usableTimeZone,
} from './format';

const en = { language: 'en', timeZone: 'UTC' };
const vi = { language: 'vi', timeZone: 'UTC' };
// 2025-04-01T23:30:00Z: 1 April in UTC, already 2 April in Ho Chi Minh City.
const lateEvening = new Date(Date.UTC(2025, 3, 1, 23, 30));

describe('numbers in the console language', () => {
  it('uses English separators in en and Vietnamese ones in vi', () => {
    expect(formatNumber(5008, undefined, en)).toBe('5,008');
    expect(formatNumber(5008, undefined, vi)).toBe('5.008');
    expect(formatNumber(36.6, 1, en)).toBe('36.6');
    expect(formatNumber(36.6, 1, vi)).toBe('36,6');
    expect(formatNumber(1_234_567.891, 2, vi)).toBe('1.234.567,89');
  });

  it('keeps the measure’s decimals, rounds without them to at most two', () => {
    expect(formatNumber(37, 1, vi)).toBe('37,0');
    expect(formatNumber(72.4, 0, en)).toBe('72');
    expect(formatNumber(0.125, undefined, en)).toBe('0.13');
  });

  it('shows nothing for a missing or non-finite value', () => {
    expect(formatNumber(null, 1, en)).toBe('');
    expect(formatNumber(undefined, undefined, vi)).toBe('');
    expect(formatNumber(Number.NaN, undefined, vi)).toBe('');
  });

  it('writes percentages per language', () => {
    expect(formatPercent(0.43, 0, en)).toBe('43%');
    expect(formatPercent(0.425, 1, en)).toBe('42.5%');
    expect(formatPercent(0.425, 1, vi)).toBe('42,5%');
  });

  it('writes file sizes with the language’s decimal separator', () => {
    expect(formatBytes(0, en)).toBe('0 B');
    expect(formatBytes(512, en)).toBe('512 B');
    expect(formatBytes(1536, en)).toBe('1.5 KB');
    expect(formatBytes(1536, vi)).toBe('1,5 KB');
    expect(formatBytes(500 * 1024 * 1024, vi)).toBe('500 MB');
  });
});

describe('dates of spec §9 in the user’s time zone', () => {
  it('writes dd/MM/yyyy and HH:mm in both languages, never US order', () => {
    for (const context of [en, vi]) {
      expect(formatDate(lateEvening, context)).toBe('01/04/2025');
      expect(formatTime(lateEvening, context)).toBe('23:30');
      expect(formatDateTime(lateEvening, context)).toBe('01/04/2025 23:30');
    }
  });

  it('turns the day in the user’s zone', () => {
    expect(formatDateTime(lateEvening, { language: 'vi', timeZone: 'Asia/Ho_Chi_Minh' })).toBe('02/04/2025 06:30');
    expect(formatDate(lateEvening.toISOString(), { language: 'en', timeZone: 'America/New_York' })).toBe('01/04/2025');
  });

  it('writes midnight as 00:00 and pads single digits', () => {
    expect(formatDateTime(Date.UTC(2021, 10, 3, 0, 5), vi)).toBe('03/11/2021 00:05');
  });

  it('shows nothing for an unreadable date rather than "NaN/NaN/NaN"', () => {
    expect(formatDate('not a date', en)).toBe('');
    expect(formatDateTime(Number.NaN, vi)).toBe('');
  });

  it('falls back to the browser zone for an unknown or empty zone', () => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(usableTimeZone('Mars/Olympus')).toBe(browser);
    expect(usableTimeZone('')).toBe(browser);
    expect(usableTimeZone('Asia/Ho_Chi_Minh')).toBe('Asia/Ho_Chi_Minh');
  });
});

describe('relative ages', () => {
  const now = new Date(Date.UTC(2025, 3, 1, 12, 0));
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it('says the age in the console language', () => {
    expect(formatRelativeAge(ago(20), now, en)).toBe('now');
    expect(formatRelativeAge(ago(20), now, vi)).toBe('bây giờ');
    expect(formatRelativeAge(ago(5 * 60), now, en)).toBe('5 minutes ago');
    expect(formatRelativeAge(ago(5 * 60), now, vi)).toBe('5 phút trước');
    expect(formatRelativeAge(ago(3 * 3600), now, vi)).toBe('3 giờ trước');
    expect(formatRelativeAge(ago(2 * 86_400), now, en)).toBe('2 days ago');
  });

  it('treats a time in the future (clock skew) as now', () => {
    expect(formatRelativeAge(ago(-90), now, en)).toBe('now');
  });
});

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

describe('units in the console language', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it('translates the units people read and keeps the symbols', () => {
    changeLanguage('en');
    expect(formatUnit('count')).toBe('steps');
    expect(formatUnit('C')).toBe('°C');
    expect(formatMeasure(72, 'bpm', 0)).toBe('72 bpm');
    changeLanguage('vi');
    expect(formatUnit('/min')).toBe('lần/phút');
    expect(formatUnit('count')).toBe('bước');
    expect(formatUnit('mmHg')).toBe('mmHg');
    expect(formatMeasure(36.6, 'C', 1)).toBe('36,6 °C');
    expect(formatMeasure(97.5, '%', 1)).toBe('97,5%');
    expect(formatMeasure(5008, 'count', 0)).toBe('5.008 bước');
  });

  it('shows an unknown unit as stored', () => {
    changeLanguage('vi');
    expect(formatUnit('furlongs')).toBe('furlongs');
  });
});
