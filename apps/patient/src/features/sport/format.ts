/** Numbers, durations, paces and dates as the sport screens show them (dd/MM/yyyy HH:mm, spec §9). */

/** h:mm:ss, or m:ss under an hour. */
export function clockText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mm = String(minutes).padStart(hours > 0 ? 2 : 1, '0');
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${String(hours)}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A pace in seconds per km as m:ss. */
export function paceText(secondsPerKm: number): string {
  return clockText(Math.round(secondsPerKm) * 1000);
}

export function numberText(value: number, language: string, fractionDigits = 0): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: fractionDigits, minimumFractionDigits: fractionDigits }).format(value);
}

/** dd/MM/yyyy HH:mm in the phone's time zone. */
export function dateTimeText(iso: string): string {
  const date = new Date(iso);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${String(date.getFullYear())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
