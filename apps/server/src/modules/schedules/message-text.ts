import { Temporal } from 'temporal-polyfill';

/** Fills `{name}` placeholders; an unknown one is left as it is (a test looks for leftovers). */
export const fillText = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);

/** An instant as the e-mails show it in the recipient's zone: dd/MM/yyyy and HH:mm. */
export function zonedDateAndTime(instant: Date, timeZone: string): { date: string; time: string } {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return {
    date: zoned.toPlainDate().toString().split('-').reverse().join('/'),
    time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
  };
}
