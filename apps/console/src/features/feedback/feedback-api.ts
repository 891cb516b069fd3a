import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  feedbackSchema,
  pageOf,
  type FEEDBACK_SORT_FIELDS,
  type FeedbackCategory,
  type FeedbackInput,
  type FeedbackStatus,
  type FeedbackType,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every feedback read: one write refreshes the lists and the detail. */
export const FEEDBACK_QUERY_ROOT = [SESSION_QUERY_ROOT, 'feedback'] as const;
const enc = encodeURIComponent;
const feedbackPageSchema = pageOf(feedbackSchema);

export type FeedbackSortField = (typeof FEEDBACK_SORT_FIELDS)[number];
export interface FeedbackFilter {
  page: number;
  size: number;
  search: string;
  status: FeedbackStatus | null;
  type: FeedbackType | null;
  category: FeedbackCategory | null;
  sortField: FeedbackSortField;
  sortType: 'asc' | 'desc';
}

/** An image's address: the triage's (user.feedback) or the sender's own. */
export const feedbackImagePath = (feedbackId: string, imageId: string, isOwn = false) =>
  `/account/feedback/${isOwn ? 'mine/' : ''}${enc(feedbackId)}/images/${enc(imageId)}`;

/** The triage list: the centers the caller sees, filtered, searched, sorted, paged. */
export const feedbackListQuery = (filter: FeedbackFilter) =>
  queryOptions({
    queryKey: [...FEEDBACK_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, { status: filter.status, type: filter.type, category: filter.category });
      return api.get(`/account/feedback?${query}`, { schema: feedbackPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const feedbackDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...FEEDBACK_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(`/account/feedback/${enc(id)}`, { schema: feedbackSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** What the signed-in person sent, newest first, with the replies. */
export const myFeedbackQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: [...FEEDBACK_QUERY_ROOT, 'mine', page, size],
    queryFn: ({ signal }) =>
      api.get(`/account/feedback/mine?page=${String(page)}&size=${String(size)}`, { schema: feedbackPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The form as multipart: its fields and each image as a part `images`. */
export function sendFeedback(input: FeedbackInput, images: readonly File[]) {
  const form = new FormData();
  form.set('type', input.type);
  form.set('category', input.category);
  form.set('description', input.description);
  if (input.suggestion !== undefined && input.suggestion.trim() !== '') form.set('suggestion', input.suggestion);
  for (const image of images) form.append('images', image, image.name);
  return api.post('/account/feedback', form, { schema: feedbackSchema });
}

export function changeFeedbackStatus(id: string, status: FeedbackStatus) {
  return api.put(`/account/feedback/${enc(id)}/status`, { status }, { schema: feedbackSchema });
}

export function replyToFeedback(id: string, body: string) {
  return api.post(`/account/feedback/${enc(id)}/replies`, { body }, { schema: feedbackSchema });
}

export function refreshFeedback(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: FEEDBACK_QUERY_ROOT });
}
