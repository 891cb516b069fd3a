import { periodStart, type HealthView } from '@rpm/contracts';
import type { TFunction } from 'i18next';

/** Units the catalogue words (steps, per minute); symbols (bpm, %, mmHg, °C) read the same everywhere. */
const UNIT_KEYS: Partial<Record<string, string>> = { count: 'count', '/min': 'perMinute' };

/** A unit as the patient reads it, in their language. */
export function unitLabel(t: TFunction, unit: string): string {
  const key = UNIT_KEYS[unit];
  return key === undefined ? unit : t(`health:units.${key}`);
}

/**
 * Today's calendar date (YYYY-MM-DD) in `timeZone` (the patient's zone, in which the server cuts
 * days and weeks), or on the phone while that zone is not known yet.
 */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** A calendar date (YYYY-MM-DD) as an instant at noon UTC, to format in UTC without shifting the day. */
const noonOf = (date: string) => new Date(`${date}T12:00:00Z`);

/** The period of `view` holding `date`, in the user's language: a day, a Monday–Sunday week, a month, a year. */
export function periodLabel(date: string, view: HealthView, language: string): string {
  const utc = { timeZone: 'UTC' } as const;
  if (view === 'day')
    return new Intl.DateTimeFormat(language, {
      ...utc,
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(noonOf(date));
  if (view === 'month')
    return new Intl.DateTimeFormat(language, { ...utc, month: 'long', year: 'numeric' }).format(noonOf(date));
  if (view === 'year')
    return new Intl.DateTimeFormat(language, { ...utc, year: 'numeric' }).format(noonOf(date));
  const monday = noonOf(periodStart(date, 'week'));
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return new Intl.DateTimeFormat(language, {
    ...utc,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).formatRange(monday, sunday);
}

/** A point's time: the clock time of a raw reading, the day and hour of an hourly bucket, the date of a daily one. */
export function pointLabel(
  at: string,
  resolution: 'raw' | 'hour' | 'day',
  timeZone: string,
  language: string,
): string {
  const options: Intl.DateTimeFormatOptions =
    resolution === 'raw'
      ? { hour: '2-digit', minute: '2-digit' }
      : resolution === 'hour'
        ? { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
        : { weekday: 'short', day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(language, { ...options, timeZone }).format(new Date(at));
}

/** A night's date and times (the phone's time zone). */
export function nightLabel(startAt: string, endAt: string, language: string): string {
  const day = new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric', month: 'short' }).format(
    new Date(startAt),
  );
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' });
  return `${day}, ${time.formatRange(new Date(startAt), new Date(endAt))}`;
}

/** Minutes as hours and minutes (7 h 05 min), in the user's language. */
export function durationText(t: TFunction, minutes: number): string {
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return hours === 0
    ? t('appHealth:duration.minutes', { count: rest })
    : t('appHealth:duration.hours', { hours, minutes: rest });
}
