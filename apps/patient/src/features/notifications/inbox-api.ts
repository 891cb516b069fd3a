import {
  forceStatusSchema,
  inboxPageSchema,
  notificationPreferencesSchema,
  unreadCountSchema,
  type InboxPage,
  type NotificationPreferencesUpdate,
  type UnreadCount,
} from '@rpm/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { ACCOUNT_CALL, NOTIFICATION_CENTRE_KEY } from './notifications-api';

/** Spec §7 notification/inbox: 15 a page. */
export const INBOX_PAGE_SIZE = 15;

export const INBOX_KEY = [...NOTIFICATION_CENTRE_KEY, 'inbox'] as const;
export const FORCE_KEY = [...NOTIFICATION_CENTRE_KEY, 'force'] as const;
export const PREFERENCES_KEY = [...NOTIFICATION_CENTRE_KEY, 'preferences'] as const;

function inboxPath(page: number, isUnreadOnly: boolean): string {
  const query = new URLSearchParams({ page: String(page), size: String(INBOX_PAGE_SIZE) });
  if (isUnreadOnly) query.set('unread', 'true');
  return `/notification/notification/inbox?${query.toString()}`;
}

/** The inbox, newest first, a page at a time ("Show more"); a refetch reloads every page shown. */
export const inboxQuery = (isUnreadOnly: boolean) =>
  infiniteQueryOptions({
    queryKey: [...INBOX_KEY, isUnreadOnly ? 'unread' : 'all'],
    queryFn: ({ pageParam }) => apiRequest('GET', inboxPath(pageParam, isUnreadOnly), undefined, inboxPageSchema, ACCOUNT_CALL),
    initialPageParam: 0,
    getNextPageParam: (last: InboxPage, pages: InboxPage[]) =>
      pages.reduce((shown, page) => shown + page.items.length, 0) < last.total && last.items.length > 0 ? last.page + 1 : undefined,
  });

/** `GET /notification/status/force`: how many mandatory notices wait, and the oldest. */
export const forceStatusQuery = () =>
  queryOptions({
    queryKey: FORCE_KEY,
    queryFn: () => apiRequest('GET', '/notification/status/force', undefined, forceStatusSchema, ACCOUNT_CALL),
  });

/** Marks one notification read (a mandatory one: acknowledged); answers the new counts. */
export const markNotificationRead = (id: string): Promise<UnreadCount> =>
  apiRequest('POST', '/collector/notification/read', { id }, unreadCountSchema, ACCOUNT_CALL);

/** Marks every notification read but the mandatory ones, which need their own acknowledgement. */
export const markAllNotificationsRead = (): Promise<UnreadCount> =>
  apiRequest('POST', '/collector/notification/readAll', undefined, unreadCountSchema, ACCOUNT_CALL);

/** The account's choices: a row per type and channel, ALERT not changeable. */
export const preferencesQuery = () =>
  queryOptions({
    queryKey: PREFERENCES_KEY,
    queryFn: () => apiRequest('GET', '/notification/preferences', undefined, notificationPreferencesSchema, ACCOUNT_CALL),
  });

export async function savePreferences(update: NotificationPreferencesUpdate): Promise<void> {
  await apiRequest('PUT', '/notification/preferences', update, undefined, ACCOUNT_CALL);
}
