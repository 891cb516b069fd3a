import {
  appCareTeamSchema,
  appDoctorDetailSchema,
  appDoctorSummarySchema,
  careRequestSchema,
  pageOf,
  type AppCareRequestInput,
  type DoctorKind,
  type SpecialtyCode,
} from '@rpm/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every doctors query, under the session root so that logging out clears them. */
export const DOCTORS_KEY = [SESSION_QUERY_ROOT, 'doctors'] as const;
export const PAGE_SIZE = 20;

const doctorPageSchema = pageOf(appDoctorSummarySchema);
const requestPageSchema = pageOf(careRequestSchema);

export interface DoctorFilters {
  search: string;
  specialty: SpecialtyCode | '';
  kind: DoctorKind | '';
}

function searchPath(filters: DoctorFilters, page: number): string {
  const query = new URLSearchParams({ page: String(page), size: String(PAGE_SIZE) });
  if (filters.search.trim() !== '') query.set('search', filters.search.trim());
  if (filters.specialty !== '') query.set('specialty', filters.specialty);
  if (filters.kind !== '') query.set('kind', filters.kind);
  return `/health/me/doctors?${query.toString()}`;
}

/** The doctor search, a page at a time ("load more"). */
export const doctorSearchQuery = (filters: DoctorFilters) =>
  infiniteQueryOptions({
    queryKey: [...DOCTORS_KEY, 'search', filters],
    queryFn: ({ pageParam }) => api.get(searchPath(filters, pageParam), doctorPageSchema),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

export const doctorQuery = (id: string) =>
  queryOptions({
    queryKey: [...DOCTORS_KEY, 'one', id],
    queryFn: () => api.get(`/health/me/doctors/${encodeURIComponent(id)}`, appDoctorDetailSchema),
  });

export const careTeamQuery = () =>
  queryOptions({ queryKey: [...DOCTORS_KEY, 'care-team'], queryFn: () => api.get('/health/me/care-team', appCareTeamSchema) });

export type RequestBox = 'sent' | 'received';

export const requestsQuery = (box: RequestBox) =>
  infiniteQueryOptions({
    queryKey: [...DOCTORS_KEY, 'requests', box],
    queryFn: ({ pageParam }) =>
      api.get(`/health/me/requests?box=${box}&page=${String(pageParam)}&size=${String(PAGE_SIZE)}`, requestPageSchema),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

export function sendRequest(input: AppCareRequestInput) {
  return api.post('/health/me/requests', input, careRequestSchema);
}

export function decideRequest(id: string, action: 'approve' | 'reject' | 'cancel', reason?: string) {
  return api.put(
    `/health/me/requests/${encodeURIComponent(id)}/${action}`,
    action === 'reject' ? { reason } : undefined,
    careRequestSchema,
  );
}
