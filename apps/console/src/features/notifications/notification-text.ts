import type { InboxNotification, RoleArea } from '@rpm/contracts';
import { formatDateTime, toDisplayDate } from '../../lib/format';
import { areaPath } from '../shell/navigation';

type Params = InboxNotification['params'];

/**
 * A notification's parameters as its text shows them: instants (`startsAt`, any `…At`) as date and
 * time in the user's zone, calendar days (`startDate`, any `…Date`) as dd/MM/yyyy, the rest as sent.
 */
export function displayParams(params: Params): Record<string, string | number> {
  const shown: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === null) shown[name] = '';
    else if (typeof value === 'string' && name.endsWith('At')) shown[name] = formatDateTime(value) || value;
    else if (typeof value === 'string' && name.endsWith('Date')) shown[name] = toDisplayDate(value) || value;
    else shown[name] = typeof value === 'boolean' ? String(value) : value;
  }
  return shown;
}

/**
 * Where a notification leads in the console: a path of the user's area (`/appointments/1` opens
 * `/doctor/appointments/1`; a path already in the area is kept). Anything that is not a plain path
 * of this site (`//host`, a scheme) leads nowhere.
 */
export function consoleLink(area: RoleArea, link: string | null): string | null {
  if (link === null || !link.startsWith('/') || link.startsWith('//') || link.includes('\\')) return null;
  return link === `/${area}` || link.startsWith(`/${area}/`) ? link : areaPath(area, link);
}

/** The bell badge's text: the count, capped so it stays one small pill. */
export function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}
