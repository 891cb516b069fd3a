import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  patientDeletionSchema,
  patientDetailSchema,
  patientStatusCountsSchema,
  patientStatusHistoryEntrySchema,
  patientPageSchema,
  type PatientCreate,
  type PatientListScope,
  type PatientSortField,
  type PatientStatus,
  type PatientUpdate,
  type RoleCode,
} from '@rpm/contracts';
import { z } from 'zod';
import { api, apiRequest } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const PATIENTS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'patients'] as const;
const DASHBOARD_QUERY_ROOT = [SESSION_QUERY_ROOT, 'patient-dashboard'] as const;
const enc = encodeURIComponent;

export interface PatientFilter {
  page: number;
  size: number;
  search: string;
  scope: PatientListScope;
  sortField: PatientSortField;
  sortType: 'asc' | 'desc';
  status: PatientStatus | null;
  centerId: string | null;
  doctorId: string | null;
  packageCode: string;
}

/** The list's query string (the export takes the same filters, without paging). */
export function patientQueryString(
  filter: Omit<PatientFilter, 'page' | 'size'> & { page?: number; size?: number },
): string {
  const query = new URLSearchParams({
    scope: filter.scope,
    sortField: filter.sortField,
    sortType: filter.sortType,
  });
  if (filter.page !== undefined) query.set('page', String(filter.page));
  if (filter.size !== undefined) query.set('size', String(filter.size));
  if (filter.search.trim() !== '') query.set('search', filter.search.trim());
  if (filter.status !== null) query.set('status', filter.status);
  if (filter.centerId !== null) query.set('centerId', filter.centerId);
  if (filter.doctorId !== null) query.set('doctorId', filter.doctorId);
  if (filter.packageCode.trim() !== '') query.set('packageCode', filter.packageCode.trim());
  return query.toString();
}


export const patientListQuery = (filter: PatientFilter) =>
  queryOptions({
    queryKey: [...PATIENTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/patients?${patientQueryString(filter)}`, { schema: patientPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** Roles whose work is the patients themselves: the list sorts by severity, the home has the worklist. */
const CLINICAL_ROLES: readonly RoleCode[] = ['DOCTOR', 'DOCTOR_ASSISTANT', 'OPERATOR'];
export const isClinicalRole = (role: RoleCode) => CLINICAL_ROLES.includes(role);
/** A doctor's and an assistant's own patients first; everyone else starts with the whole center. */
export const defaultScopeOf = (role: RoleCode): PatientListScope =>
  role === 'DOCTOR' || role === 'DOCTOR_ASSISTANT' ? 'mine' : 'center';

export const WORKLIST_SIZE = 10;

/**
 * The triage worklist of the home: the patients needing attention first (sortField severity).
 * Under the patient lists' key, so every live patient, SOS, alert and ticket event reloads it.
 */
export const patientWorklistQuery = (scope: PatientListScope) =>
  queryOptions({
    queryKey: [...PATIENTS_QUERY_ROOT, 'worklist', scope],
    queryFn: ({ signal }) =>
      api.get(
        `/account/patients?${patientQueryString({
          page: 0,
          size: WORKLIST_SIZE,
          scope,
          search: '',
          sortField: 'severity',
          sortType: 'desc',
          status: null,
          centerId: null,
          doctorId: null,
          packageCode: '',
        })}`,
        { schema: patientPageSchema, signal },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
    meta: { errorDisplay: 'inline' },
  });

export const patientDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...PATIENTS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(`/account/patients/${enc(id)}`, { schema: patientDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const patientHistoryQuery = (id: string) =>
  queryOptions({
    queryKey: [...PATIENTS_QUERY_ROOT, 'history', id],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${enc(id)}/status-history`, {
        schema: z.array(patientStatusHistoryEntrySchema),
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });

export const patientExportPath = (filter: Omit<PatientFilter, 'page' | 'size'>) =>
  `/account/patients/export?${patientQueryString(filter)}`;

export function createPatient(input: PatientCreate) {
  return api.post('/account/patients', input, { schema: patientDetailSchema });
}

export function updatePatient(id: string, input: PatientUpdate) {
  return api.put(`/account/patients/${enc(id)}`, input, { schema: patientDetailSchema });
}

export function changePatientStatus(id: string, input: { status: PatientStatus; reason: string }) {
  return api.put(`/account/patients/${enc(id)}/status`, input, { schema: patientDetailSchema });
}

export function deletePatient(id: string, input: { confirmPatientCode: string; reason?: string }) {
  return apiRequest('DELETE', `/account/patients/${enc(id)}`, { body: input, schema: patientDeletionSchema });
}

/** Which of the four dashboard calls (spec §7) serves a role, and what its counts cover. */
export type DashboardScope = 'doctor' | 'assistant' | 'mine' | 'center' | 'all';
const CENTER_ADMIN_ROLES: readonly RoleCode[] = ['MAIN_ADMIN', 'SUPPORT_ADMIN', 'SCOPE_ADMIN', 'MHSC_ADMIN'];

/**
 * The counts call for a role. `listScope` is the patient list's scope (mine or center): the counts
 * then equal the list's totals for it. A center admin's counts are always of one center.
 */
export function dashboardCallOf(
  role: RoleCode,
  centerId: string | null,
  listScope: PatientListScope = defaultScopeOf(role),
): { path: string; scope: DashboardScope } {
  const query = new URLSearchParams({ scope: listScope });
  if (centerId !== null) query.set('mhscId', centerId);
  const mine = listScope === 'mine';
  if (role === 'DOCTOR')
    return {
      path: `/account/doctor/getCountPatientStatus?${query.toString()}`,
      scope: mine ? 'doctor' : centerId === null ? 'all' : 'center',
    };
  if (role === 'DOCTOR_ASSISTANT')
    return {
      path: `/account/doctor-assistant/get-count-patient-status?${query.toString()}`,
      scope: mine ? 'assistant' : centerId === null ? 'all' : 'center',
    };
  if (CENTER_ADMIN_ROLES.includes(role) && centerId !== null)
    return { path: `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${enc(centerId)}`, scope: 'center' };
  return {
    path: `/account/operator/getCountPatientStatus?${query.toString()}`,
    scope: mine ? 'mine' : centerId === null ? 'all' : 'center',
  };
}

export const dashboardCountsQuery = (path: string) =>
  queryOptions({
    queryKey: [...DASHBOARD_QUERY_ROOT, path],
    queryFn: ({ signal }) => api.get(path, { schema: patientStatusCountsSchema, signal }),
    refetchInterval: 30_000,
    meta: { errorDisplay: 'inline' },
  });

/** An alert or a ticket changed: the lists and the worklist (what crossed, open ticket) load again. */
export function refreshPatientLists(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: [...PATIENTS_QUERY_ROOT, 'list'] });
  void queryClient.invalidateQueries({ queryKey: [...PATIENTS_QUERY_ROOT, 'worklist'] });
}

/** After a change: lists, profiles and the dashboard counts load again. */
export function refreshPatients(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: PATIENTS_QUERY_ROOT });
  void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_ROOT });
}
