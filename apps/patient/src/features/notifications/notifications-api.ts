import type { NOTIFICATION_LIVE_EVENT, UnreadCount } from '@rpm/contracts';
import { apiRequest, type ResponseSchema } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/**
 * The notification centre's queries, under the session root (a logout clears them). Everything in
 * the centre is the account's (the patient, or the holder of sub-users), never a profile's, so its
 * calls go without the profile header (`ownRecord`).
 */
export const NOTIFICATION_CENTRE_KEY = [SESSION_QUERY_ROOT, 'notification-centre'] as const;
export const UNREAD_COUNT_KEY = [...NOTIFICATION_CENTRE_KEY, 'count'] as const;
export const ACCOUNT_CALL = { ownRecord: true } as const;

/** The live event of a new notification for this account (contracts notification-centre.ts). */
export const NOTIFICATION_CREATED: typeof NOTIFICATION_LIVE_EVENT = 'notification.created';

/** The live event covers new notifications; the poll covers a socket that is down. */
const COUNT_POLL_MS = 60_000;

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The contract's `unreadCountSchema`, checked by hand: this module is on the first screen, and
 * importing the contract's schema would bring every notification schema into it (the page budget).
 */
const unreadCountCheck: ResponseSchema<UnreadCount> = {
  safeParse(data: unknown) {
    const record = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    const { unread, forcePending } = record;
    return isCount(unread) && isCount(forcePending)
      ? { success: true, data: { unread, forcePending } }
      : { success: false, error: new Error('not an unread count') };
  },
};

/**
 * `GET /notification/getUnreadCount`: the shell's badge and whether a mandatory notice waits. The
 * only notification-centre call of the first screen (the rest loads with its screens).
 */
export const unreadCountQuery = () => ({
  queryKey: UNREAD_COUNT_KEY,
  queryFn: () => apiRequest('GET', '/notification/getUnreadCount', undefined, unreadCountCheck, ACCOUNT_CALL),
  refetchInterval: COUNT_POLL_MS,
});
