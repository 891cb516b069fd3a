import {
  patientEventSchema,
  intakeSchema,
  pageOf,
  prescriptionDetailSchema,
  prescriptionSummarySchema,
  reminderOccurrenceSchema,
  type EventInput,
  type IntakeAnswer,
} from '@rpm/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every care-plan query, under the session root so that logging out (or a profile switch) clears them. */
export const CARE_PLAN_KEY = [SESSION_QUERY_ROOT, 'care-plan'] as const;
export const PAGE_SIZE = 20;

const intakesSchema = z.array(intakeSchema);
const occurrencesSchema = z.array(reminderOccurrenceSchema);
const prescriptionPageSchema = pageOf(prescriptionSummarySchema);
const eventPageSchema = pageOf(patientEventSchema);

/** The doses of a day (the patient's local day; undefined: today where the patient lives). */
export const intakesQuery = (date: string | undefined) =>
  queryOptions({
    queryKey: [...CARE_PLAN_KEY, 'intakes', date ?? 'today'],
    queryFn: () => api.get(`/health/me/intakes${date === undefined ? '' : `?date=${date}`}`, intakesSchema),
    // The states move with the clock (waiting → missed): look again every minute while open.
    refetchInterval: 60_000,
  });

export const reminderTimesQuery = (date: string | undefined) =>
  queryOptions({
    queryKey: [...CARE_PLAN_KEY, 'reminders', date ?? 'today'],
    queryFn: () =>
      api.get(`/health/me/reminders${date === undefined ? '' : `?date=${date}`}`, occurrencesSchema),
  });

export const prescriptionsQuery = () =>
  infiniteQueryOptions({
    queryKey: [...CARE_PLAN_KEY, 'prescriptions'],
    queryFn: ({ pageParam }) =>
      api.get(
        `/health/me/prescriptions?page=${String(pageParam)}&size=${String(PAGE_SIZE)}`,
        prescriptionPageSchema,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

export const prescriptionQuery = (id: string) =>
  queryOptions({
    queryKey: [...CARE_PLAN_KEY, 'prescription', id],
    queryFn: () => api.get(`/health/me/prescriptions/${encodeURIComponent(id)}`, prescriptionDetailSchema),
  });

export function answerIntake(id: string, answer: IntakeAnswer) {
  return api.put(`/health/me/intakes/${encodeURIComponent(id)}`, answer, intakeSchema);
}

/** My Events, upcoming (soonest first) or past (latest first), a page at a time. */
export const eventsQuery = (when: 'upcoming' | 'past') =>
  infiniteQueryOptions({
    queryKey: [...CARE_PLAN_KEY, 'events', when],
    queryFn: ({ pageParam }) =>
      api.get(
        `/health/me/events?when=${when}&page=${String(pageParam)}&size=${String(PAGE_SIZE)}`,
        eventPageSchema,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

/** Adds an event (id null) or changes one. */
export function saveEvent(id: string | null, input: EventInput) {
  return id === null
    ? api.post('/health/me/events', input, patientEventSchema)
    : api.put(`/health/me/events/${encodeURIComponent(id)}`, input, patientEventSchema);
}

export function removeEvent(id: string) {
  return api.delete(`/health/me/events/${encodeURIComponent(id)}`);
}
