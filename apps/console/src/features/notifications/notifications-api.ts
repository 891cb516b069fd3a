import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  forceStatusSchema,
  inboxPageSchema,
  unreadCountSchema,
  type InboxPage,
  type UnreadCount,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { NOTIFICATIONS_QUERY_ROOT, unreadCountQuery } from './notification-count';

/** The inbox's page size (spec §7 notification/inbox default). */
export const INBOX_PAGE_SIZE = 15;

export type InboxFilter = 'all' | 'unread';

/** The caller's notifications, newest first, one "Show more" page at a time. */
export const inboxQuery = (filter: InboxFilter) =>
  infiniteQueryOptions({
    queryKey: [...NOTIFICATIONS_QUERY_ROOT, 'inbox', filter],
    queryFn: ({ pageParam, signal }): Promise<InboxPage> => {
      const query = new URLSearchParams({ page: String(pageParam), size: String(INBOX_PAGE_SIZE) });
      if (filter === 'unread') query.set('unread', 'true');
      return api.get(`/notification/notification/inbox?${query.toString()}`, {
        schema: inboxPageSchema,
        signal,
      });
    },
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? pages.length : undefined;
    },
    meta: { errorDisplay: 'inline' },
  });

/** The oldest mandatory notice not yet acknowledged, and how many wait. */
export const forceStatusQuery = () =>
  queryOptions({
    queryKey: [...NOTIFICATIONS_QUERY_ROOT, 'force'],
    queryFn: ({ signal }) => api.get('/notification/status/force', { schema: forceStatusSchema, signal }),
    staleTime: 0,
    meta: { errorDisplay: 'inline' },
  });

/** Marks one of the caller's notifications read (a force one: acknowledged). */
export function markRead(id: string): Promise<UnreadCount> {
  return api.post('/collector/notification/read', { id }, { schema: unreadCountSchema });
}

/** Marks every notification read except the force ones, which need their own acknowledgement. */
export function markAllRead(): Promise<UnreadCount> {
  return api.post('/collector/notification/readAll', {}, { schema: unreadCountSchema });
}

/**
 * After a read: the bell shows the count the server answered at once, and the inbox and force
 * notices load again.
 */
export function applyReadCount(queryClient: QueryClient, count: UnreadCount): void {
  queryClient.setQueryData(unreadCountQuery().queryKey, count);
  void queryClient.invalidateQueries({
    queryKey: NOTIFICATIONS_QUERY_ROOT,
    predicate: (query) => query.queryKey[2] !== 'count',
  });
}
