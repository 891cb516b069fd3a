import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  pageOf,
  patientSubscriptionsSchema,
  servicePackageSchema,
  type PackageInput,
  type PackageKind,
  type SubscribeInput,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const PACKAGES_QUERY_ROOT = [SESSION_QUERY_ROOT, 'packages'] as const;
const enc = encodeURIComponent;

export type PackageSortField = 'price' | 'name' | 'code' | 'created';
export interface PackageFilter {
  page: number;
  size: number;
  search: string;
  sortField: PackageSortField;
  sortType: 'asc' | 'desc';
  kind: PackageKind | null;
  enabled: boolean | null;
}

const packagePageSchema = pageOf(servicePackageSchema);

export const packageListQuery = (filter: PackageFilter) =>
  queryOptions({
    queryKey: [...PACKAGES_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        page: String(filter.page),
        size: String(filter.size),
        sortField: filter.sortField,
        sortType: filter.sortType,
      });
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      if (filter.kind !== null) query.set('kind', filter.kind);
      if (filter.enabled !== null) query.set('enabled', String(filter.enabled));
      return api.get(`/account/packages?${query.toString()}`, { schema: packagePageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The enabled packages and add-ons staff may put a patient on (one page is the whole offer). */
export const enabledPackagesQuery = () =>
  queryOptions({
    queryKey: [...PACKAGES_QUERY_ROOT, 'enabled'],
    queryFn: ({ signal }) =>
      api.get('/account/packages?page=0&size=100&enabled=true&sortField=price&sortType=asc', {
        schema: packagePageSchema,
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });

export const patientSubscriptionsQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...PACKAGES_QUERY_ROOT, 'patient', patientId],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${enc(patientId)}/subscriptions`, { schema: patientSubscriptionsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createPackage(input: PackageInput) {
  return api.post('/account/packages', input, { schema: servicePackageSchema });
}

export function updatePackage(id: string, input: PackageInput) {
  return api.put(`/account/packages/${enc(id)}`, input, { schema: servicePackageSchema });
}

export function setPackageEnabled(id: string, enabled: boolean) {
  return api.put(`/account/packages/${enc(id)}/state`, { enabled }, { schema: servicePackageSchema });
}

export function subscribePatient(patientId: string, input: SubscribeInput) {
  return api.post(`/account/patients/${enc(patientId)}/subscription`, input, { schema: patientSubscriptionsSchema });
}

export function cancelPatientPackage(patientId: string) {
  return api.delete(`/account/patients/${enc(patientId)}/subscription`, { schema: patientSubscriptionsSchema });
}

/** After a change: the lists (subscriber counts) and the patients' packages may all differ. */
export function refreshPackages(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: PACKAGES_QUERY_ROOT });
}
