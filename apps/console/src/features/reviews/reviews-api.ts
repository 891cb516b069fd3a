import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  pageOf,
  publicReviewPageSchema,
  reviewSchema,
  type ReviewModeration,
  type ReviewState,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const REVIEWS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'reviews'] as const;
const enc = encodeURIComponent;

export type ReviewSortField = 'created' | 'rating' | 'doctor';
export interface ReviewFilter {
  page: number;
  size: number;
  search: string;
  sortField: ReviewSortField;
  sortType: 'asc' | 'desc';
  rating: number | null;
  state: ReviewState | null;
  doctorId: string | null;
}

const reviewPageSchema = pageOf(reviewSchema);

export const reviewListQuery = (filter: ReviewFilter) =>
  queryOptions({
    queryKey: [...REVIEWS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, { rating: filter.rating, state: filter.state, doctorId: filter.doctorId });
      return api.get(`/account/reviews?${query}`, { schema: reviewPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const reviewQuery = (id: string) =>
  queryOptions({
    queryKey: [...REVIEWS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(`/account/reviews/${enc(id)}`, { schema: reviewSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** A doctor's visible reviews and rating, as patients see them (the doctor profile page). */
export const doctorReviewsQuery = (doctorId: string, page: number) =>
  queryOptions({
    queryKey: [...REVIEWS_QUERY_ROOT, 'doctor', doctorId, page],
    queryFn: ({ signal }) =>
      api.get(`/account/doctors/${enc(doctorId)}/reviews?page=${String(page)}&size=5`, { schema: publicReviewPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const reviewImagePath = (reviewId: string, imageId: string) =>
  `/account/reviews/${enc(reviewId)}/images/${enc(imageId)}`;

export function moderateReview(id: string, input: ReviewModeration) {
  return api.post(`/account/reviews/${enc(id)}/moderation`, input, { schema: reviewSchema });
}

/** After a moderation: the lists, the detail and the doctors' averages may all have changed. */
export function refreshReviews(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: REVIEWS_QUERY_ROOT }),
    queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'doctors'] }),
  ]).then(() => undefined);
}
