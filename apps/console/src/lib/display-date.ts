/**
 * Dates typed as the product shows them (spec §9: dd/MM/yyyy) and sent as the API expects them
 * (ISO yyyy-MM-dd). Written by hand: a date library for two conversions is not worth its weight.
 */
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
