/** A moment's calendar day in the app's language, on the phone's clock: "Mon, 15 Jan 2026", "Th 2, 15 thg 1, 2026". */
export function dayText(language: string, iso: string): string {
  return new Intl.DateTimeFormat(language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(iso));
}

/** A moment's time of day in the app's language (12- or 24-hour as the language has it), on the phone's clock. */
export function timeText(language: string, iso: string): string {
  return new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
}

/** An appointment's times: "08:30 – 09:00". */
export function timeRangeText(language: string, startAt: string, endAt: string): string {
  return `${timeText(language, startAt)} – ${timeText(language, endAt)}`;
}
