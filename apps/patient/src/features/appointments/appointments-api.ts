import {
  appointmentSlotSchema,
  myAppointmentSchema,
  pageOf,
  type AppAppointmentState,
  type MyAppointmentInput,
} from '@rpm/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every appointments query, under the session root so that logging out (or a profile switch) clears them. */
export const APPOINTMENTS_KEY = [SESSION_QUERY_ROOT, 'appointments'] as const;
export const APPOINTMENTS_PAGE_SIZE = 20;

/** The list's two tabs: still to come (or under way), soonest first; or ended, latest first. */
export type AppointmentsWhen = 'upcoming' | 'past';

/** The app states in which the patient may still call the appointment off (the server's UPCOMING). */
export const CANCELLABLE_STATES: readonly AppAppointmentState[] = ['INVITED', 'BOOKED', 'UPDATED'];

/** States after which nothing more happens: no video room, no cancelling. */
export const CLOSED_STATES: readonly AppAppointmentState[] = ['COMPLETED', 'CANCELED'];

const appointmentPageSchema = pageOf(myAppointmentSchema);
const slotListSchema = z.array(appointmentSlotSchema);

/** The profile's appointments of one tab, a page at a time ("load more"). */
export const appointmentsQuery = (when: AppointmentsWhen) =>
  infiniteQueryOptions({
    queryKey: [...APPOINTMENTS_KEY, 'list', when],
    queryFn: ({ pageParam }) =>
      api.get(
        `/health/me/appointments?when=${when}&page=${String(pageParam)}&size=${String(APPOINTMENTS_PAGE_SIZE)}`,
        appointmentPageSchema,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

export const appointmentQuery = (id: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_KEY, 'one', id],
    queryFn: () => api.get(`/health/me/appointments/${encodeURIComponent(id)}`, myAppointmentSchema),
  });

/** A doctor's slots on a calendar day (yyyy-MM-dd), free or not. */
export const slotsQuery = (doctorId: string, day: string) =>
  queryOptions({
    queryKey: [...APPOINTMENTS_KEY, 'slots', doctorId, day],
    queryFn: () =>
      api.get(`/health/me/doctors/${encodeURIComponent(doctorId)}/slots?date=${encodeURIComponent(day)}`, slotListSchema),
  });

export function bookAppointment(input: MyAppointmentInput) {
  return api.post('/health/me/appointments', input, myAppointmentSchema);
}

export function cancelAppointment(id: string, reason: string) {
  return api.post(`/health/me/appointments/${encodeURIComponent(id)}/cancel`, { reason }, myAppointmentSchema);
}
