/**
 * Times on the charts as the console shows them everywhere (spec §9: dd/MM/yyyy, HH:mm), in a
 * given time zone (the user's profile zone, else the browser's), through the console's one
 * formatting layer.
 */
import { formatDate, formatDateTime, formatTime } from '../../lib/format';

export { usableTimeZone } from '../../lib/format';

/** "01/04/2025" in the zone. */
export function chartDate(seconds: number, timeZone: string): string {
  return formatDate(seconds * 1000, { timeZone });
}

/** "01/04/2025 16:05" in the zone. */
export function chartDateTime(seconds: number, timeZone: string): string {
  return formatDateTime(seconds * 1000, { timeZone });
}

/**
 * The x axis labels: hours for a span up to a day and a half (with the date where the day
 * changes, and on the first tick), dates beyond.
 */
export function chartAxisLabels(ticks: readonly number[], timeZone: string): string[] {
  const span = ticks.length > 1 ? (ticks.at(-1) ?? 0) - (ticks[0] ?? 0) : 0;
  if (span > 36 * 3600) return ticks.map((tick) => chartDate(tick, timeZone));
  let previousDay = '';
  return ticks.map((tick) => {
    const day = chartDate(tick, timeZone);
    const time = formatTime(tick * 1000, { timeZone });
    const label = day === previousDay ? time : `${time}\n${day}`;
    previousDay = day;
    return label;
  });
}
