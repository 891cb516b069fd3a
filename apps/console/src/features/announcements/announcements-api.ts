import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  announcementDetailSchema,
  announcementPageSchema,
  announcementViewSchema,
  type ANNOUNCEMENT_SORT_FIELDS,
  type AnnouncementStatus,
  type AnnouncementWrite,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const ANNOUNCEMENTS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'announcements'] as const;

export type AnnouncementSortField = (typeof ANNOUNCEMENT_SORT_FIELDS)[number];
export interface AnnouncementFilter {
  page: number;
  size: number;
  search: string;
  sortField: AnnouncementSortField;
  sortType: 'asc' | 'desc';
  status: AnnouncementStatus | null;
}

export const announcementListQuery = (filter: AnnouncementFilter) =>
  queryOptions({
    queryKey: [...ANNOUNCEMENTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, { status: filter.status });
      return api.get(`/manage/announcements?${query}`, { schema: announcementPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const announcementDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...ANNOUNCEMENTS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(`/manage/announcements/${encodeURIComponent(id)}`, { schema: announcementDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** What a recipient reads (opening it marks its notice read). */
export const announcementViewQuery = (id: string) =>
  queryOptions({
    queryKey: [...ANNOUNCEMENTS_QUERY_ROOT, 'view', id],
    queryFn: ({ signal }) => api.get(`/notification/announcements/${encodeURIComponent(id)}`, { schema: announcementViewSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createAnnouncement(input: AnnouncementWrite) {
  return api.post('/manage/announcements', input, { schema: announcementDetailSchema });
}

export function updateAnnouncement(id: string, input: AnnouncementWrite) {
  return api.put(`/manage/announcements/${encodeURIComponent(id)}`, input, { schema: announcementDetailSchema });
}

export function cancelAnnouncement(id: string) {
  return api.post(`/manage/announcements/${encodeURIComponent(id)}/cancel`, {}, { schema: announcementDetailSchema });
}

export function invalidateAnnouncements(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_QUERY_ROOT });
}
