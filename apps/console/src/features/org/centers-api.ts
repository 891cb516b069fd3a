import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  centerDetailSchema,
  centerSummarySchema,
  myCenterSchema,
  pageOf,
  type CenterDetailsInput,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { ORG_QUERY_ROOT } from './scopes-api';

const CENTERS = [...ORG_QUERY_ROOT, 'centers'] as const;
const centerPageSchema = pageOf(centerSummarySchema);
const myCentersSchema = z.array(myCenterSchema);

export interface CenterFilter {
  page: number;
  size: number;
  search: string;
  scopeId: string | null;
}

/** The whole tenant's centers, paged (callers who see the whole tenant). */
export const centerListQuery = (filter: CenterFilter) =>
  queryOptions({
    queryKey: [...CENTERS, 'list', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(filter.page), size: String(filter.size) });
      if (filter.search.trim() !== '') query.set('searchValue', filter.search.trim());
      if (filter.scopeId !== null) query.set('scopeId', filter.scopeId);
      return api.get(`/account/sadmin/mhsc?${query.toString()}`, { schema: centerPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The centers a center admin administers or works at (GET smadmin/mhsc/me). */
export const myCentersQuery = () =>
  queryOptions({
    queryKey: [...CENTERS, 'mine'],
    queryFn: ({ signal }) => api.get('/account/smadmin/mhsc/me', { schema: myCentersSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** One center: by the tenant-wide call, or by the call limited to the centers the caller may see. */
export const centerDetailQuery = (id: string, isWholeTenant: boolean) =>
  queryOptions({
    queryKey: [...CENTERS, 'detail', id, isWholeTenant],
    queryFn: ({ signal }) =>
      api.get(`/account/${isWholeTenant ? 'sadmin' : 'smadmin'}/mhsc/${encodeURIComponent(id)}`, {
        schema: centerDetailSchema,
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });

/** Create or replace a center: multipart, because the logo travels with the fields. */
export function createCenter(form: FormData) {
  return api.post('/account/sadmin/mhsc', form, { schema: centerDetailSchema });
}

export function updateCenter(id: string, form: FormData) {
  return api.put(`/account/sadmin/mhsc/${encodeURIComponent(id)}`, form, { schema: centerDetailSchema });
}

/** A center admin's edit: the details only (scope, status and admins stay with tenant-wide admins). */
export function updateCenterDetails(id: string, input: CenterDetailsInput) {
  return api.put(`/account/smadmin/mhsc/${encodeURIComponent(id)}`, input, { schema: centerDetailSchema });
}

export function setCenterEnabled(id: string, enabled: boolean) {
  return api.put(
    `/account/sadmin/mhsc/deactivate/${encodeURIComponent(id)}?enabled=${String(enabled)}`,
    {},
    {
      schema: centerDetailSchema,
    },
  );
}

/** The logo's address; `version` changes after a save so the browser does not keep the old image. */
export function centerLogoUrl(id: string, version: string): string {
  return `/account/sadmin/mhsc/${encodeURIComponent(id)}/logo?v=${encodeURIComponent(version)}`;
}
