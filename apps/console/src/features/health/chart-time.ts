/**
 * Times on the charts as the console shows them everywhere (spec §9: dd/MM/yyyy, HH:mm), in a
 * given time zone (the user's profile zone, else the browser's). Intl.DateTimeFormat gives the
 * parts for the zone; they are put in the product's fixed order, whatever the language.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, timeZone: string): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = { day: '', month: '', year: '', hour: '', minute: '' };
  for (const part of formatter.formatToParts(date)) {
    if (part.type in parts) parts[part.type as keyof typeof parts] = part.value;
  }
  return parts;
}

/** A zone Intl knows, else the browser's. */
export function usableTimeZone(zone: string | null | undefined): string {
  const fallback = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone === null || zone === undefined || zone === '') return fallback;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return fallback;
  }
}

/** "01/04/2025" in the zone. */
export function chartDate(seconds: number, timeZone: string): string {
  const parts = partsIn(new Date(seconds * 1000), timeZone);
  return `${parts.day}/${parts.month}/${parts.year}`;
}

/** "01/04/2025 16:05" in the zone. */
export function chartDateTime(seconds: number, timeZone: string): string {
  const parts = partsIn(new Date(seconds * 1000), timeZone);
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
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
    const parts = partsIn(new Date(tick * 1000), timeZone);
    const day = `${parts.day}/${parts.month}/${parts.year}`;
    const time = `${parts.hour}:${parts.minute}`;
    const label = day === previousDay ? time : `${time}\n${day}`;
    previousDay = day;
    return label;
  });
}
