import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { pageOf, tenantRequestSchema, type TenantRequestStatus } from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { TENANTS_QUERY_ROOT } from './tenants-api';

/** Under the tenants root: approving a request creates a tenant, so both lists refresh together. */
export const TRIAL_REQUESTS_QUERY_ROOT = [...TENANTS_QUERY_ROOT, 'trial-requests'] as const;

const requestPageSchema = pageOf(tenantRequestSchema);
const base = '/manage/sadmin/tenant-request';
const requestPath = (id: string) => `${base}/${encodeURIComponent(id)}`;

export interface TrialRequestFilter {
  page: number;
  size: number;
  search: string;
  status: TenantRequestStatus | null;
}

export const trialRequestListQuery = (filter: TrialRequestFilter) =>
  queryOptions({
    queryKey: [...TRIAL_REQUESTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      return api.get(`${base}?${listQuery(filter, { status: filter.status })}`, {
        schema: requestPageSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const trialRequestQuery = (id: string) =>
  queryOptions({
    queryKey: [...TRIAL_REQUESTS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(requestPath(id), { schema: tenantRequestSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** Approval may correct the tenant's name or code when the requested ones are already taken. */
export function approveTrialRequest(id: string, input: { name: string; code: string }) {
  return api.post(`${requestPath(id)}/approve`, input, { schema: tenantRequestSchema });
}

export function rejectTrialRequest(id: string, reason: string) {
  return api.post(`${requestPath(id)}/reject`, { reason }, { schema: tenantRequestSchema });
}
