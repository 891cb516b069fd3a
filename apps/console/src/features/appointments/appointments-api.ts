import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  appointmentCheckInTokenSchema,
  appointmentSchema,
  appointmentSlotSchema,
  appointmentVideoSchema,
  pageOf,
  type AppointmentInput,
  type AppointmentStatus,
  type AppointmentTransitionInput,
  type AppointmentUpdate,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every appointment read (lists, details, slots): one booking, edit or transition refreshes them all. */
export const APPOINTMENTS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'appointments'] as const;

export interface AppointmentFilter {
  page: number;
  size: number;
  search: string;
  status: AppointmentStatus | null;
  /** Start between these instants (ISO), either open. */
  from: string | null;
  to: string | null;
  sortField: 'start';
  sortType: 'asc' | 'desc';
}

const appointmentPageSchema = pageOf(appointmentSchema);
const slotsSchema = z.array(appointmentSlotSchema);
const enc = encodeURIComponent;

function listQueryString(filter: AppointmentFilter): string {
  return listQuery(filter, { status: filter.status, from: filter.from, to: filter.to });
}

/** The appointments the caller sees (a doctor: its own). */
export const appointmentListQuery = (filter: AppointmentFilter) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/appointments?${listQueryString(filter)}`, { schema: appointmentPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const appointmentQuery = (id: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(`/account/appointments/${enc(id)}`, { schema: appointmentSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** The video room of an online appointment (its doctor only); ICE credentials last a day. */
export const appointmentVideoQuery = (id: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_QUERY_ROOT, 'video', id],
    queryFn: ({ signal }) => api.get(`/account/appointments/${enc(id)}/video`, { schema: appointmentVideoSchema, signal }),
    meta: { errorDisplay: 'inline' },
    staleTime: 60_000,
  });

/** A doctor's slots on a day (yyyy-MM-dd), free or not. */
export const doctorSlotsQuery = (doctorId: string, date: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_QUERY_ROOT, 'slots', doctorId, date],
    queryFn: ({ signal }) =>
      api.get(`/account/doctors/${enc(doctorId)}/slots?date=${enc(date)}`, { schema: slotsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** The signed token the appointment sheet prints as a QR code. */
export const checkInTokenQuery = (id: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_QUERY_ROOT, 'check-in-token', id],
    queryFn: ({ signal }) =>
      api.get(`/account/appointments/${enc(id)}/check-in`, { schema: appointmentCheckInTokenSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createAppointment(input: AppointmentInput) {
  return api.post('/account/appointments', input, { schema: appointmentSchema });
}

export function updateAppointment(id: string, input: AppointmentUpdate) {
  return api.put(`/account/appointments/${enc(id)}`, input, { schema: appointmentSchema });
}

export function transitionAppointment(id: string, input: AppointmentTransitionInput) {
  return api.post(`/account/appointments/${enc(id)}/transitions`, input, { schema: appointmentSchema });
}

export function checkInWithToken(token: string) {
  return api.post('/account/appointments/check-in', { token: token.trim() }, { schema: appointmentSchema });
}
