const pad = (value: number) => String(value).padStart(2, '0');

/** Spec §9 date formats: dd/MM/yyyy and HH:mm, in the phone's time zone. */
export function formatWhen(date: Date): string {
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${String(date.getFullYear())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
