/** The device's calendar day as "yyyy-MM-dd" (the app's "today" when no day is chosen). */
export function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${String(date.getFullYear())}-${month}-${day}`;
}

/** The calendar day `days` after `day` ("2026-12-31" + 1 = "2027-01-01"); calendar arithmetic, no zones. */
export function shiftDay(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const shifted = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + days));
  return shifted.toISOString().slice(0, 10);
}

/** Whether a dose can be answered now: from 12 hours before it is due (the server's rule too). */
export function isAnswerable(dueAt: string, nowMs: number, aheadHours: number): boolean {
  return Date.parse(dueAt) - nowMs <= aheadHours * 3_600_000;
}
