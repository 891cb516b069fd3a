import type { InboxNotification } from '@rpm/contracts';
import { dayText, timeText } from '../appointments/format';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A moment as the app writes it elsewhere (appointments): "Mon, 15 Jan 2026, 8:30 AM", on the phone's clock. */
export function momentText(language: string, iso: string): string {
  return `${dayText(language, iso)}, ${timeText(language, iso)}`;
}

/** A calendar day ("2026-01-15") as such, whatever the phone's time zone. */
function calendarDayText(language: string, day: string): string {
  return new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/**
 * A notification's parameters ready for its text: instants (`…At`) and calendar days (`…Date`)
 * written in the reader's language, nulls as nothing, the rest as they are.
 */
export function textParams(language: string, params: InboxNotification['params']): Record<string, string | number | boolean> {
  const ready: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === null) ready[name] = '';
    else if (typeof value === 'string' && name.endsWith('At') && !Number.isNaN(Date.parse(value))) ready[name] = momentText(language, value);
    else if (typeof value === 'string' && name.endsWith('Date') && DATE_ONLY.test(value)) ready[name] = calendarDayText(language, value);
    else ready[name] = value;
  }
  return ready;
}

/**
 * What a notification says, in the reader's language: a message as its sender wrote it, any other
 * kind from the `notifications` catalogue filled with its parameters. `translate` is bound to that
 * namespace.
 */
export function notificationText(
  translate: Translate,
  language: string,
  notification: Pick<InboxNotification, 'kind' | 'params' | 'title' | 'body'>,
): { title: string; body: string } {
  if (notification.kind === 'message')
    return { title: notification.title ?? translate('kinds.message.title'), body: notification.body ?? '' };
  const params = textParams(language, notification.params);
  return { title: translate(`kinds.${notification.kind}.title`, params), body: translate(`kinds.${notification.kind}.body`, params) };
}

/** Where a notification leads in this app (a path under /app), or null when it leads nowhere here. */
export function appPathOf(link: string | null): string | null {
  if (link === null || !link.startsWith('/') || link.startsWith('//')) return null;
  return link;
}
