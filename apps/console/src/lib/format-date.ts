/**
 * Dates and times as the product shows them everywhere (spec §9): dd/MM/yyyy and HH:mm, in the
 * viewer's local time. Written by hand because Intl output differs between locales (vi puts the
 * day first with a different separator), and the spec fixes one format for every language.
 */
function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: Date | string | number): string {
  const date = toDate(value);
  if (!date) return '';
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${String(date.getFullYear())}`;
}

export function formatTime(value: Date | string | number): string {
  const date = toDate(value);
  if (!date) return '';
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatDateTime(value: Date | string | number): string {
  const date = toDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${formatTime(date)}`;
}
