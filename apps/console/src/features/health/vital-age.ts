/**
 * How old a shown vital is, and whether it is stale: every vital the console shows next to a
 * decision (the SOS case, the latest values) says its age ("12 minutes ago", in the console's
 * language through Intl.RelativeTimeFormat) and is marked stale past {@link STALE_AFTER_MINUTES}.
 */
export const STALE_AFTER_MINUTES = 30;

export interface VitalAge {
  /** Whole minutes since the reading (0 for a reading dated in the future by clock skew). */
  minutes: number;
  /** The amount and unit the age is said in. */
  value: number;
  unit: 'second' | 'minute' | 'hour' | 'day';
  isStale: boolean;
}

/** The age of a reading taken at `measuredAt`, seen at `now`; null for an unreadable time. */
export function vitalAge(
  measuredAt: string | Date,
  now: Date,
  staleAfterMinutes: number = STALE_AFTER_MINUTES,
): VitalAge | null {
  const taken = measuredAt instanceof Date ? measuredAt : new Date(measuredAt);
  if (Number.isNaN(taken.getTime())) return null;
  const seconds = Math.max(0, Math.floor((now.getTime() - taken.getTime()) / 1000));
  const minutes = Math.floor(seconds / 60);
  const isStale = seconds > staleAfterMinutes * 60;
  if (minutes < 1) return { minutes, value: 0, unit: 'second', isStale };
  if (minutes < 60) return { minutes, value: minutes, unit: 'minute', isStale };
  if (minutes < 24 * 60) return { minutes, value: Math.floor(minutes / 60), unit: 'hour', isStale };
  return { minutes, value: Math.floor(minutes / (24 * 60)), unit: 'day', isStale };
}

/** "12 minutes ago" / "12 phút trước"; a reading of the last minute is "now" / "bây giờ". */
export function formatVitalAge(age: VitalAge, language: string): string {
  return new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'long' }).format(-age.value, age.unit);
}
