import { queryOptions } from '@tanstack/react-query';
import { unreadCountSchema } from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/**
 * Every read of the inbox (the count, the inbox's pages, the force notices): a new notification, a
 * read one or a reconnection refreshes them all at once.
 */
export const NOTIFICATIONS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'notifications'] as const;

/** The count is asked for this often even without live events: a socket can be down unnoticed. */
const COUNT_POLL_MILLISECONDS = 60_000;

/** The header bell's count and how many mandatory notices wait. */
export const unreadCountQuery = () =>
  queryOptions({
    queryKey: [...NOTIFICATIONS_QUERY_ROOT, 'count'],
    queryFn: ({ signal }) => api.get('/notification/getUnreadCount', { schema: unreadCountSchema, signal }),
    refetchInterval: COUNT_POLL_MILLISECONDS,
    // A failed count leaves the bell without a badge; it is asked again at the next poll.
    meta: { errorDisplay: 'inline' },
  });
