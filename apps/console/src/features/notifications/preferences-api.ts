import { queryOptions } from '@tanstack/react-query';
import { notificationPreferencesSchema, type NotificationPreferencesUpdate } from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** The user's channels per notification type (every type × channel, ALERT not changeable). */
export const preferencesQuery = () =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'notification-preferences'],
    queryFn: ({ signal }) =>
      api.get('/notification/preferences', { schema: notificationPreferencesSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** Saves the changeable channels; answers the whole list as stored. */
export function savePreferences(update: NotificationPreferencesUpdate) {
  return api.put('/notification/preferences', update, { schema: notificationPreferencesSchema });
}
