import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  pageOf,
  scopeDetailSchema,
  scopeNodeSchema,
  scopeSchema,
  type ScopeInput,
  type ScopeUpdate,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { LEVELS_QUERY_ROOT } from '../levels/levels-api';

/** Scopes and centers share one root: a change to either refreshes both (a center's scope, a scope's centers). */
export const ORG_QUERY_ROOT = [SESSION_QUERY_ROOT, 'org'] as const;
const SCOPES = [...ORG_QUERY_ROOT, 'scopes'] as const;

const scopePageSchema = pageOf(scopeSchema);
const scopeListSchema = z.array(scopeSchema);
const scopeTreeSchema = z.array(scopeNodeSchema);

/** After any change: the org screens and the switcher's scope and center choices are stale. */
export function refreshOrg(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ORG_QUERY_ROOT });
  void queryClient.invalidateQueries({ queryKey: LEVELS_QUERY_ROOT });
}

export interface ScopeFilter {
  page: number;
  size: number;
  search: string;
  type: string;
  parentId: string | null;
}

function listParams(filter: ScopeFilter): string {
  const query = new URLSearchParams({ page: String(filter.page), size: String(filter.size) });
  if (filter.search.trim() !== '') query.set('searchValue', filter.search.trim());
  if (filter.type.trim() !== '') query.set('type', filter.type.trim());
  if (filter.parentId !== null) query.set('parentId', filter.parentId);
  return query.toString();
}

/** One page of scopes: the whole tenant's (/sadmin) or, for scope admins, their subtree (/smadmin). */
export const scopeListQuery = (filter: ScopeFilter, isWholeTenant: boolean) =>
  queryOptions({
    queryKey: [...SCOPES, 'list', isWholeTenant, filter],
    queryFn: ({ signal }) =>
      api.get(`/account/${isWholeTenant ? 'sadmin/mhsc' : 'smadmin'}/scope?${listParams(filter)}`, {
        schema: scopePageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The tree's lazy step: the direct children of one scope (null: the roots). */
export const scopeChildrenQuery = (parentId: string | null) =>
  queryOptions({
    queryKey: [...SCOPES, 'children', parentId],
    queryFn: ({ signal }) => {
      const query = parentId === null ? '' : `?scopeId=${encodeURIComponent(parentId)}`;
      return api.get(`/account/sadmin/mhsc/scope/children${query}`, { schema: scopeListSchema, signal });
    },
    meta: { errorDisplay: 'inline' },
  });

/** A scope admin's trees (their scopes and everything below): the children call is tenant-wide only. */
export const callerScopeTreeQuery = () =>
  queryOptions({
    queryKey: [...SCOPES, 'caller-tree'],
    queryFn: ({ signal }) => api.get('/account/smadmin/scope/hierarchy', { schema: scopeTreeSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const scopeDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...SCOPES, 'detail', id],
    queryFn: ({ signal }) =>
      api.get(`/account/sadmin/mhsc/scope/${encodeURIComponent(id)}`, { schema: scopeDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createScope(input: ScopeInput) {
  return api.post('/account/sadmin/mhsc/scope', input, { schema: scopeDetailSchema });
}

export function updateScope(id: string, input: ScopeUpdate) {
  return api.put(`/account/sadmin/mhsc/scope/${encodeURIComponent(id)}`, input, {
    schema: scopeDetailSchema,
  });
}

export function setScopeEnabled(id: string, input: { name: string; enabled: boolean }) {
  return api.put(`/account/sadmin/mhsc/scope/name-and-status/${encodeURIComponent(id)}`, input, {
    schema: scopeDetailSchema,
  });
}

export function deleteScope(id: string): Promise<unknown> {
  return api.delete(`/account/sadmin/mhsc/scope/${encodeURIComponent(id)}`);
}

export function setScopeAdmins(id: string, input: { adminIds: string[]; supportAdminIds: string[] }) {
  return api.put(`/account/sadmin/mhsc/scope/${encodeURIComponent(id)}/admins`, input, {
    schema: scopeDetailSchema,
  });
}
