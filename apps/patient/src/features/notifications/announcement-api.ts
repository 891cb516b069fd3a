import { announcementViewSchema } from '@rpm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { ACCOUNT_CALL, NOTIFICATION_CENTRE_KEY } from './notifications-api';

/** `GET /notification/announcements/:id`: an announcement the account received (its notice is then read). */
export const announcementQuery = (id: string) =>
  queryOptions({
    queryKey: [...NOTIFICATION_CENTRE_KEY, 'announcement', id],
    queryFn: () => apiRequest('GET', `/notification/announcements/${encodeURIComponent(id)}`, undefined, announcementViewSchema, ACCOUNT_CALL),
    retry: false,
  });
