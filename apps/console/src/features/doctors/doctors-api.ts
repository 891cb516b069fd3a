import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  careRequestSchema,
  careTeamSchema,
  deactivatedDoctorSchema,
  doctorProfileSchema,
  doctorRequestSchema,
  doctorSummarySchema,
  pageOf,
  type CareRelation,
  type CareRequestCreate,
  type CareRequestKind,
  type CareRequestStatus,
  type DoctorKind,
  type DoctorProfileUpdate,
  type DoctorRequestKind,
  type LicenseState,
  type SpecialtyCode,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const DOCTORS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'doctors'] as const;
const enc = encodeURIComponent;

export type DoctorSortField = 'name' | 'experience' | 'rating' | 'created';
export interface DoctorFilter {
  page: number;
  size: number;
  search: string;
  sortField: DoctorSortField;
  sortType: 'asc' | 'desc';
  specialty: SpecialtyCode | null;
  centerId: string | null;
  kind: DoctorKind | null;
  licenseState: LicenseState | null;
}

const doctorPageSchema = pageOf(doctorSummarySchema);

export const doctorListQuery = (filter: DoctorFilter) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, {
        specialty: filter.specialty,
        centerId: filter.centerId,
        kind: filter.kind,
        licenseState: filter.licenseState,
      });
      return api.get(`/account/doctors?${query}`, { schema: doctorPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const doctorProfileQuery = (id: string) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'profile', id],
    queryFn: ({ signal }) => api.get(`/account/doctors/${enc(id)}`, { schema: doctorProfileSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const careTeamQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'care-team', patientId],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${enc(patientId)}/doctors`, { schema: careTeamSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export interface RequestFilter {
  page: number;
  size: number;
  box: 'sent' | 'received';
  status: CareRequestStatus | null;
  kind: CareRequestKind | null;
}
const requestPageSchema = pageOf(careRequestSchema);

export const requestListQuery = (filter: RequestFilter) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'requests', filter],
    queryFn: ({ signal }) => {
      const query = listQuery(filter, { box: filter.box, status: filter.status, kind: filter.kind });
      return api.get(`/account/requests?${query}`, { schema: requestPageSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export interface DoctorRequestFilter {
  page: number;
  size: number;
  kind: DoctorRequestKind | null;
  search: string;
}
const doctorRequestPageSchema = pageOf(doctorRequestSchema);

export const doctorRequestListQuery = (filter: DoctorRequestFilter) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'doctor-requests', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(filter.page), size: String(filter.size) });
      if (filter.kind !== null) query.set('kind', filter.kind);
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      return api.get(`/account/admin/doctor-requests?${query.toString()}`, {
        schema: doctorRequestPageSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** Doctors, care teams and requests change each other (counts, teams, boxes): refresh them together. */
export function refreshDoctors(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: DOCTORS_QUERY_ROOT });
}

export function updateDoctorProfile(id: string, input: DoctorProfileUpdate) {
  return api.put(`/account/doctors/${enc(id)}/profile`, input, { schema: doctorProfileSchema });
}

export function addLicense(id: string, input: { name: string; expiresOn: string; image: File }) {
  const form = new FormData();
  form.set('name', input.name);
  form.set('expiresOn', input.expiresOn);
  form.set('image', input.image);
  return api.post(`/account/doctors/${enc(id)}/licenses`, form, { schema: doctorProfileSchema });
}

export function removeLicense(id: string, licenseId: string) {
  return api.delete(`/account/doctors/${enc(id)}/licenses/${enc(licenseId)}`, {
    schema: doctorProfileSchema,
  });
}

export const licenseImagePath = (id: string, licenseId: string) =>
  `/account/doctors/${enc(id)}/licenses/${enc(licenseId)}/image`;

export function assignDoctor(
  patientId: string,
  input: { doctorId: string; relation: CareRelation; replace: boolean },
) {
  return api.post(`/account/patients/${enc(patientId)}/doctors`, input, { schema: careTeamSchema });
}

export function unassignDoctor(patientId: string, doctorId: string) {
  return api.delete(`/account/patients/${enc(patientId)}/doctors/${enc(doctorId)}`, {
    schema: careTeamSchema,
  });
}

export function sendRequest(input: CareRequestCreate) {
  return api.post('/account/requests', input, { schema: careRequestSchema });
}

export function decideRequest(id: string, action: 'approve' | 'reject' | 'cancel', reason?: string) {
  return api.put(`/account/requests/${enc(id)}/${action}`, action === 'reject' ? { reason } : {}, {
    schema: careRequestSchema,
  });
}

export function decideDoctorRequest(
  id: string,
  action: 'approve' | 'reject',
  input: { reason?: string; centerId?: string },
) {
  return api.put(
    `/account/admin/doctor-requests/${enc(id)}/${action}`,
    action === 'reject'
      ? { reason: input.reason }
      : input.centerId === undefined
        ? {}
        : { centerId: input.centerId },
    {
      schema: doctorRequestSchema,
    },
  );
}

// The calling doctor's own qualification and licenses ---------------------------------------------

export const ownQualificationQuery = (userId: string) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'own-qualification', userId],
    queryFn: ({ signal }) =>
      api.get('/account/doctor/me/qualification', { schema: doctorProfileSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function saveOwnQualification(input: DoctorProfileUpdate) {
  return api.post('/account/doctor/v2/register/qualification', input, { schema: doctorProfileSchema });
}

export function addOwnLicense(input: { name: string; expiresOn: string; image: File }) {
  const form = new FormData();
  form.set('name', input.name);
  form.set('expiresOn', input.expiresOn);
  form.set('image', input.image);
  return api.post('/account/doctor/me/licenses', form, { schema: doctorProfileSchema });
}

export function removeOwnLicense(licenseId: string) {
  return api.delete(`/account/doctor/me/licenses/${enc(licenseId)}`, { schema: doctorProfileSchema });
}

export const ownLicenseImagePath = (licenseId: string) =>
  `/account/doctor/me/licenses/${enc(licenseId)}/image`;

// A patient's care requests ------------------------------------------------------------------------

export const patientRequestsQuery = (patientId: string, page: number, size: number) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'patient-requests', patientId, page, size],
    queryFn: ({ signal }) =>
      api.get(`/account/patients/${enc(patientId)}/requests?page=${String(page)}&size=${String(size)}`, {
        schema: requestPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

// Deactivated doctors (admins) -----------------------------------------------------------------------

const deactivatedPageSchema = pageOf(deactivatedDoctorSchema);

export const deactivatedDoctorsQuery = (filter: { page: number; size: number; search: string }) =>
  queryOptions({
    queryKey: [...DOCTORS_QUERY_ROOT, 'deactivated', filter],
    queryFn: ({ signal }) => {
      return api.get(`/account/admin/deactivated-doctors?${listQuery(filter)}`, {
        schema: deactivatedPageSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function restoreDoctor(id: string) {
  return api.put(
    `/account/admin/deactivated-doctors/${enc(id)}/restore`,
    {},
    { schema: deactivatedDoctorSchema },
  );
}
