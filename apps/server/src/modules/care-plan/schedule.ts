import { parseMonthDays, type ReminderSchedule } from '@rpm/contracts';
import { Temporal } from 'temporal-polyfill';

/**
 * A reminder schedule turned into the instants a dose is due, in the patient's time zone (spec §3
 * Reminder). Wall-clock times are the patient's: "08:00" stays 08:00 across a daylight-saving
 * change. A time that does not exist that day (02:30 when clocks spring forward) is taken at the
 * same distance after the gap (03:30); a time that happens twice (01:30 when clocks fall back) is
 * taken once, at its first occurrence. An hour cycle counts real hours from its first dose ("every 8
 * hours" is 8 hours apart whatever the clocks do). A day of the month the month does not have (31
 * in April, 29 to 31 in February) is taken on the month's last day, once: a monthly dose is never
 * skipped because of the calendar (docs/decisions.md).
 *
 * Temporal (temporal-polyfill) does the zone arithmetic: JavaScript's Date has no wall-clock
 * arithmetic in a named zone, and the polyfill follows the standard that Node will ship.
 */

export interface Occurrence {
  /** When the dose is due. */
  at: Date;
  /** The patient's local date and time of it ("2026-12-01", "08:00"). */
  localDate: string;
  localTime: string;
  /** The schedule time's label ("Morning"). */
  label: string;
}

/** The occurrences with `from <= at < to`, in time order. */
export function expandSchedule(
  schedule: ReminderSchedule,
  timeZone: string,
  from: Date,
  to: Date,
): Occurrence[] {
  if (schedule.times.length === 0 || from >= to) return [];
  const start = Temporal.PlainDate.from(schedule.startDate);
  const end = schedule.endDate === null ? null : Temporal.PlainDate.from(schedule.endDate);
  const fromInstant = Temporal.Instant.fromEpochMilliseconds(from.getTime());
  const toInstant = Temporal.Instant.fromEpochMilliseconds(to.getTime());
  const occurrences =
    schedule.repeat.kind === 'HOUR_CYCLE'
      ? hourCycle(schedule, schedule.repeat.everyHours, timeZone, start, end, fromInstant, toInstant)
      : byDay(schedule, timeZone, start, end, fromInstant, toInstant);
  return occurrences.sort((a, b) => a.at.getTime() - b.at.getTime());
}

function occurrenceOf(zoned: Temporal.ZonedDateTime, label: string): Occurrence {
  return {
    at: new Date(zoned.epochMilliseconds),
    localDate: zoned.toPlainDate().toString(),
    localTime: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
    label,
  };
}

/** The local dates to look at: the window's dates in the zone, a day either side, within the schedule. */
function datesToScan(
  timeZone: string,
  start: Temporal.PlainDate,
  end: Temporal.PlainDate | null,
  from: Temporal.Instant,
  to: Temporal.Instant,
): Temporal.PlainDate[] {
  let first = from.toZonedDateTimeISO(timeZone).toPlainDate().subtract({ days: 1 });
  let last = to.toZonedDateTimeISO(timeZone).toPlainDate().add({ days: 1 });
  if (Temporal.PlainDate.compare(first, start) < 0) first = start;
  if (end !== null && Temporal.PlainDate.compare(last, end) > 0) last = end;
  const dates: Temporal.PlainDate[] = [];
  for (let date = first; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 }))
    dates.push(date);
  return dates;
}

function isDueOn(schedule: ReminderSchedule, start: Temporal.PlainDate, date: Temporal.PlainDate): boolean {
  const { repeat } = schedule;
  const daysFromStart = start.until(date, { largestUnit: 'days' }).days;
  switch (repeat.kind) {
    case 'WEEKDAYS':
      return repeat.weekdays.includes(date.dayOfWeek);
    case 'MONTH_DAYS': {
      const days = parseMonthDays(repeat.days) ?? [];
      // A day past the month's end falls on its last day; the last day counts once.
      return days.some((day) => Math.min(day, date.daysInMonth) === date.day);
    }
    case 'DAY_CYCLE':
      return daysFromStart % (repeat.activeDays + repeat.inactiveDays) < repeat.activeDays;
    case 'EVERY_N_DAYS':
      return daysFromStart % repeat.everyDays === 0;
    case 'HOUR_CYCLE':
      return true;
  }
}

function byDay(
  schedule: ReminderSchedule,
  timeZone: string,
  start: Temporal.PlainDate,
  end: Temporal.PlainDate | null,
  from: Temporal.Instant,
  to: Temporal.Instant,
): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (const date of datesToScan(timeZone, start, end, from, to)) {
    if (!isDueOn(schedule, start, date)) continue;
    for (const time of schedule.times) {
      const zoned = date
        .toPlainDateTime(Temporal.PlainTime.from(time.time))
        .toZonedDateTime(timeZone, { disambiguation: 'compatible' });
      const instant = zoned.toInstant();
      if (Temporal.Instant.compare(instant, from) >= 0 && Temporal.Instant.compare(instant, to) < 0) {
        occurrences.push(occurrenceOf(zoned, time.label));
      }
    }
  }
  return occurrences;
}

function hourCycle(
  schedule: ReminderSchedule,
  everyHours: number,
  timeZone: string,
  start: Temporal.PlainDate,
  end: Temporal.PlainDate | null,
  from: Temporal.Instant,
  to: Temporal.Instant,
): Occurrence[] {
  const first = schedule.times[0];
  if (first === undefined) return [];
  const firstDose = start
    .toPlainDateTime(Temporal.PlainTime.from(first.time))
    .toZonedDateTime(timeZone, { disambiguation: 'compatible' });
  // The last moment of the end date, in the zone: doses run to the end of that day.
  const stop = end === null ? null : end.add({ days: 1 }).toZonedDateTime({ timeZone }).toInstant();
  const step = everyHours * 3_600_000;
  const firstMs = firstDose.epochMilliseconds;
  // Jump straight to the first dose at or after `from`.
  const skip = Math.max(0, Math.ceil((from.epochMilliseconds - firstMs) / step));
  const occurrences: Occurrence[] = [];
  for (let ms = firstMs + skip * step; ms < to.epochMilliseconds; ms += step) {
    const instant = Temporal.Instant.fromEpochMilliseconds(ms);
    if (stop !== null && Temporal.Instant.compare(instant, stop) >= 0) break;
    occurrences.push(occurrenceOf(instant.toZonedDateTimeISO(timeZone), first.label));
  }
  return occurrences;
}
