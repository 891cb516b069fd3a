import type { AppointmentStatus } from '@rpm/contracts';
import { addDays, mondayOf, todayIn, zonedPlace } from '../schedules/calendar-days';

/**
 * The appointments' time arithmetic, pure so it is tested without a page: the instants a list's
 * period covers in the user's zone, and how far an appointment waiting to start is from its start.
 */

const MINUTE_MS = 60_000;

/** The instant (ISO) a calendar day (yyyy-MM-dd) begins in a time zone. */
export function zonedDayStart(day: string, timeZone: string): string {
  const wall = Date.parse(`${day}T00:00:00Z`);
  let instant = wall;
  // Twice: the zone's offset at the first guess may differ from the offset at midnight (DST).
  for (let round = 0; round < 2; round++) {
    const place = zonedPlace(new Date(instant), timeZone);
    const shownAs = Date.parse(`${place.day}T00:00:00Z`) + place.minute * MINUTE_MS;
    instant += wall - shownAs;
  }
  return new Date(instant).toISOString();
}

export const PERIODS = ['today', 'week', 'upcoming', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const isPeriod = (value: string | null): value is Period =>
  PERIODS.some((period) => period === value);

/** The start instants a list's period covers: [from, to), either open (null). */
export function periodRange(
  period: Period,
  timeZone: string,
  now: Date = new Date(),
): { from: string | null; to: string | null } {
  const today = todayIn(timeZone, now);
  switch (period) {
    case 'today':
      return { from: zonedDayStart(today, timeZone), to: zonedDayStart(addDays(today, 1), timeZone) };
    case 'week': {
      const monday = mondayOf(today);
      return { from: zonedDayStart(monday, timeZone), to: zonedDayStart(addDays(monday, 7), timeZone) };
    }
    case 'upcoming':
      // From the start of today: today's appointments still waiting (overdue ones) stay in sight.
      return { from: zonedDayStart(today, timeZone), to: null };
    case 'all':
      return { from: null, to: null };
  }
}

/** States in which the appointment still waits for its examination to begin. */
export const isWaitingToStart = (status: AppointmentStatus) =>
  status === 'UPCOMING' || status === 'WAITING_FOR_DOCTOR';

/** How far ahead a "Starts in" is worth saying. */
const SOON_MINUTES = 24 * 60;

export type StartDistance =
  | { kind: 'overdue'; minutes: number }
  | { kind: 'startsIn'; minutes: number }
  | null;

/**
 * An appointment waiting to start, seen at `now`: overdue by how many whole minutes once past its
 * start (spec §4 overdue indicator), else starting in how many (rounded up) within the next day.
 */
export function startDistance(
  appointment: { status: AppointmentStatus; startAt: string },
  now: Date,
): StartDistance {
  if (!isWaitingToStart(appointment.status)) return null;
  const difference = Date.parse(appointment.startAt) - now.getTime();
  if (Number.isNaN(difference)) return null;
  if (difference < 0) return { kind: 'overdue', minutes: Math.floor(-difference / MINUTE_MS) };
  const minutes = Math.ceil(difference / MINUTE_MS);
  return minutes <= SOON_MINUTES ? { kind: 'startsIn', minutes } : null;
}

/** Minutes as hours and minutes: 135 → { hours: 2, minutes: 15 }. */
export function hoursAndMinutes(total: number): { hours: number; minutes: number } {
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}
