/**
 * The console's one formatting layer (spec §9, ARCHITECTURE "Front ends"): numbers, percentages,
 * file sizes and relative ages through Intl in the console's language (vi writes 5.008 and 36,6),
 * dates and times in the product's fixed order (dd/MM/yyyy, HH:mm, whatever the language) in the
 * user's time zone (the profile's, else the browser's), and the typed dates of forms.
 *
 * The language is read from i18n at each call and the zone is set once the profile is known, so
 * call sites stay one plain function call; tests and charts pass both explicitly.
 */
import { currentLanguage, translateKey } from '../i18n';

export interface FormatContext {
  /** A console language ("en", "vi"); defaults to the current one. */
  language?: string;
  /** An IANA zone; defaults to the user's (see {@link setDisplayTimeZone}). */
  timeZone?: string;
}

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

let userTimeZone: string | undefined;

/** A zone Intl knows, else the browser's. */
export function usableTimeZone(zone: string | null | undefined): string {
  if (zone === null || zone === undefined || zone === '') return browserTimeZone();
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return browserTimeZone();
  }
}

/** The user's profile zone, once it is known (an unknown zone falls back to the browser's). */
export function setDisplayTimeZone(zone: string | null | undefined): void {
  userTimeZone = zone === null || zone === undefined || zone === '' ? undefined : usableTimeZone(zone);
}

/** The zone dates are shown in: the user's, else the browser's. */
export function displayTimeZone(): string {
  return userTimeZone ?? browserTimeZone();
}

function languageOf(context: FormatContext | undefined): string {
  return context?.language ?? currentLanguage();
}

// Intl formatters are costly to build and the same few are asked for on every table row.
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${language}|${JSON.stringify(options)}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(language, { numberingSystem: 'latn', ...options });
    cache.set(key, formatter);
  }
  return formatter as Intl.NumberFormat;
}

function dateParts(date: Date, context: FormatContext | undefined): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  const language = languageOf(context);
  const timeZone = context?.timeZone ?? displayTimeZone();
  const key = `d|${language}|${timeZone}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(language, {
      timeZone,
      numberingSystem: 'latn',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    cache.set(key, formatter);
  }
  const parts = { day: '', month: '', year: '', hour: '', minute: '' };
  for (const part of (formatter as Intl.DateTimeFormat).formatToParts(date)) {
    if (part.type in parts) parts[part.type as keyof typeof parts] = part.value;
  }
  return parts;
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "03/11/2021" in the user's zone; "" for an unreadable date. */
export function formatDate(value: Date | string | number, context?: FormatContext): string {
  const date = toDate(value);
  if (!date) return '';
  const parts = dateParts(date, context);
  return `${parts.day}/${parts.month}/${parts.year}`;
}

/** "09:05" (24-hour) in the user's zone; "" for an unreadable date. */
export function formatTime(value: Date | string | number, context?: FormatContext): string {
  const date = toDate(value);
  if (!date) return '';
  const parts = dateParts(date, context);
  return `${parts.hour}:${parts.minute}`;
}

/** "03/11/2021 09:05" in the user's zone; "" for an unreadable date. */
export function formatDateTime(value: Date | string | number, context?: FormatContext): string {
  const date = toDate(value);
  if (!date) return '';
  const parts = dateParts(date, context);
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/**
 * A number in the console's language: with exactly `decimals` digits after the separator when
 * given (a measure's precision: 36,6 °C), else up to two. "" for a missing or non-finite value.
 */
export function formatNumber(value: number | null | undefined, decimals?: number, context?: FormatContext): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const options: Intl.NumberFormatOptions =
    decimals === undefined
      ? { maximumFractionDigits: 2 }
      : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return numberFormat(languageOf(context), options).format(value);
}

/** A share of a whole (0.425) as a percentage in the console's language: "43%" / "42,5 %" per locale rules. */
export function formatPercent(ratio: number, decimals = 0, context?: FormatContext): string {
  if (!Number.isFinite(ratio)) return '';
  return numberFormat(languageOf(context), {
    style: 'percent',
    minimumFractionDigits: 0,
    maximumFractionDigits: decimals,
  }).format(ratio);
}

/** A measure's unit as stored (contracts MEASURES and the unit conversions) -> its message key. */
const UNIT_KEYS: Record<string, string> = {
  bpm: 'bpm',
  '%': 'percent',
  ms: 'ms',
  mmHg: 'mmHg',
  C: 'celsius',
  F: 'fahrenheit',
  'mg/dL': 'mgPerDl',
  'mmol/L': 'mmolPerL',
  'umol/L': 'umolPerL',
  kg: 'kg',
  lbs: 'lbs',
  cm: 'cm',
  in: 'inch',
  'kg/m2': 'kgPerM2',
  count: 'count',
  kcal: 'kcal',
  '/min': 'perMinute',
};

/** A measure's unit in the console's language ("/min" -> "lần/phút"); an unknown unit as stored. */
export function formatUnit(unit: string): string {
  const key = UNIT_KEYS[unit];
  return key === undefined ? unit : translateKey(`health:units.${key}`);
}

/** A value with its unit: "36,6 °C", "72 nhịp/phút" ("%" sits close to the number). */
export function formatMeasure(value: number | null | undefined, unit: string, decimals?: number, context?: FormatContext): string {
  const number = formatNumber(value, decimals, context);
  if (number === '') return '';
  const label = formatUnit(unit);
  return unit === '%' ? `${number}${label}` : `${number} ${label}`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** A file size for people: 512 B, 1.5 MB (1,5 MB in vi). */
export function formatBytes(bytes: number, context?: FormatContext): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${formatNumber(value, digits, context)} ${BYTE_UNITS[unit] ?? 'B'}`;
}

/**
 * How long ago `value` was, seen at `now`, in the console's language: "5 minutes ago" /
 * "5 phút trước", "now" within the minute, then hours, days, months and years.
 */
export function formatRelativeAge(value: Date | string | number, now: Date = new Date(), context?: FormatContext): string {
  const date = toDate(value);
  if (!date) return '';
  const seconds = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 1000));
  const steps: [limit: number, size: number, unit: Intl.RelativeTimeFormatUnit][] = [
    [60, 1, 'second'],
    [3600, 60, 'minute'],
    [86_400, 3600, 'hour'],
    [30 * 86_400, 86_400, 'day'],
    [365 * 86_400, 30 * 86_400, 'month'],
    [Number.POSITIVE_INFINITY, 365 * 86_400, 'year'],
  ];
  const [, size, unit] = steps.find(([limit]) => seconds < limit) ?? [0, 1, 'second'];
  const amount = unit === 'second' ? 0 : Math.floor(seconds / size);
  const language = languageOf(context);
  const key = `r|${language}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'long' });
    cache.set(key, formatter);
  }
  return (formatter as Intl.RelativeTimeFormat).format(-amount, unit);
}

// Typed dates. Forms take dates as the product shows them (dd/MM/yyyy) and send them as the API
// expects them (ISO yyyy-MM-dd): calendar dates, with no time zone.
const DISPLAY_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "31/12/1990" -> "1990-12-31"; null when it is not a real calendar date (31/02/1990). */
export function parseDisplayDate(text: string): string | null {
  const match = DISPLAY_DATE.exec(text.trim());
  if (!match) return null;
  const [, day = '', month = '', year = ''] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const isSameDay =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day);
  return isSameDay ? `${year}-${month}-${day}` : null;
}

/** "1990-12-31" -> "31/12/1990"; anything else -> "". */
export function toDisplayDate(iso: string | null | undefined): string {
  const match = ISO_DATE.exec(iso ?? '');
  if (!match) return '';
  const [, year = '', month = '', day = ''] = match;
  return `${day}/${month}/${year}`;
}

/**
 * What a form hands to the contract schema for a typed date: undefined when empty (so the
 * schema says "required"), the ISO date when valid, else the text as typed (so the schema says
 * "not a date"). The schema, not this function, decides what is acceptable.
 */
export function displayDateForSchema(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  return parseDisplayDate(text) ?? text;
}

/**
 * Puts the slashes in while a date is typed ("150619" -> "15/06/19"), so people type digits only.
 * A slash appears only once digits follow it, so Backspace removes digits, never gets stuck.
 */
export function formatDateTyping(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  const parts = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 8)].filter((part) => part !== '');
  return parts.join('/');
}
