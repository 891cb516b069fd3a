/**
 * The calendar's day arithmetic, on calendar days written yyyy-MM-dd (no time zone: a day is a
 * day), and where an instant falls in a time zone. Pure, so the views are tested without a page.
 */

export type CalendarView = 'day' | 'week' | 'month';

const DAY_MS = 86_400_000;

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** ISO day of the week: 1 Monday … 7 Sunday. */
export function isoWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The Monday of the week holding `day`. */
export function mondayOf(day: string): string {
  return addDays(day, 1 - isoWeekday(day));
}

/** The days from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The days a view shows around `anchor`: one day, its week, or the whole weeks of its month. */
export function viewDays(view: CalendarView, anchor: string): string[] {
  if (view === 'day') return [anchor];
  if (view === 'week') return daysFrom(mondayOf(anchor), addDays(mondayOf(anchor), 6));
  const first = `${anchor.slice(0, 8)}01`;
  const last = addDays(`${addDays(first, 31).slice(0, 8)}01`, -1);
  return daysFrom(mondayOf(first), addDays(mondayOf(last), 6));
}

/** The anchor one step back (-1) or on (+1) in a view. */
export function stepAnchor(view: CalendarView, anchor: string, direction: -1 | 1): string {
  if (view === 'day') return addDays(anchor, direction);
  if (view === 'week') return addDays(anchor, 7 * direction);
  const [year = 0, month = 1] = anchor.split('-').map(Number);
  const shifted = new Date(Date.UTC(year, month - 1 + direction, 1));
  return shifted.toISOString().slice(0, 10);
}

const partsCache = new Map<string, Intl.DateTimeFormat>();

/** An instant as the day (yyyy-MM-dd) and minute of that day it is in a time zone. */
export function zonedPlace(instant: string | Date, timeZone: string): { day: string; minute: number } {
  let formatter = partsCache.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    partsCache.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(typeof instant === 'string' ? new Date(instant) : instant);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '00';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    minute: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

/** Today (yyyy-MM-dd) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return zonedPlace(now, timeZone).day;
}

/**
 * Side-by-side lanes for the periods of one day that overlap: each period gets a lane, and the
 * number of lanes of the group of periods it overlaps with (so they share the column's width).
 */
export function laneLayout<T extends { start: number; end: number }>(
  periods: readonly T[],
): { period: T; lane: number; lanes: number }[] {
  const sorted = [...periods].sort((a, b) => a.start - b.start || a.end - b.end);
  const placed: { period: T; lane: number; lanes: number }[] = [];
  let group: { period: T; lane: number; lanes: number }[] = [];
  let groupEnd = -1;
  const closeGroup = () => {
    const lanes = Math.max(1, ...group.map((item) => item.lane + 1));
    for (const item of group) item.lanes = lanes;
    placed.push(...group);
    group = [];
  };
  for (const period of sorted) {
    if (period.start >= groupEnd && group.length > 0) closeGroup();
    const laneEnds: number[] = [];
    for (const item of group) laneEnds[item.lane] = Math.max(laneEnds[item.lane] ?? -1, item.period.end);
    let lane = laneEnds.findIndex((end) => end <= period.start);
    if (lane === -1) lane = laneEnds.length;
    group.push({ period, lane, lanes: 1 });
    groupEnd = Math.max(groupEnd, period.end);
  }
  if (group.length > 0) closeGroup();
  return placed;
}

/** "0800" → "08:00" while a time is typed: digits only, the colon comes by itself. */
export function formatTimeTyping(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}
