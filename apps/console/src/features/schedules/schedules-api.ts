import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  doctorScheduleSchema,
  pageOf,
  scheduleAppointmentsCanceledSchema,
  scheduleDecisionResultSchema,
  scheduleOccurrenceSchema,
  type SCHEDULE_SORT_FIELDS,
  type ScheduleDecision,
  type ScheduleInput,
  type ScheduleStatus,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every schedule read (lists, calendars): one request, withdrawal or decision refreshes them all. */
export const SCHEDULES_QUERY_ROOT = [SESSION_QUERY_ROOT, 'schedules'] as const;

export type ScheduleSortField = (typeof SCHEDULE_SORT_FIELDS)[number];

export interface ScheduleFilter {
  page: number;
  size: number;
  search: string;
  status: ScheduleStatus | null;
  sortField: ScheduleSortField;
  sortType: 'asc' | 'desc';
}

const schedulePageSchema = pageOf(doctorScheduleSchema);
const occurrencesSchema = z.array(scheduleOccurrenceSchema);
const enc = encodeURIComponent;

function listQueryString(filter: ScheduleFilter): string {
  return listQuery(filter, { status: filter.status });
}

/** The signed-in doctor's own schedules (GET /account/doctor/schedules). */
export const myScheduleListQuery = (filter: ScheduleFilter) =>
  queryOptions({
    queryKey: [...SCHEDULES_QUERY_ROOT, 'mine', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/doctor/schedules?${listQueryString(filter)}`, { schema: schedulePageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** The schedules of the centers the caller sees (the approval screen). */
export const scheduleListQuery = (filter: ScheduleFilter) =>
  queryOptions({
    queryKey: [...SCHEDULES_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/schedules?${listQueryString(filter)}`, { schema: schedulePageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export interface CalendarFilter {
  /** First and last day asked for, yyyy-MM-dd (at most 62 days apart). */
  from: string;
  to: string;
  doctorId: string | null;
  centerId: string | null;
  withPending: boolean;
}

/** The working periods between two days, as instants. */
export const calendarQuery = (filter: CalendarFilter) =>
  queryOptions({
    queryKey: [...SCHEDULES_QUERY_ROOT, 'calendar', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        from: filter.from,
        to: filter.to,
        withPending: String(filter.withPending),
      });
      if (filter.doctorId !== null) query.set('doctorId', filter.doctorId);
      if (filter.centerId !== null) query.set('centerId', filter.centerId);
      return api.get(`/account/schedules/calendar?${query.toString()}`, {
        schema: occurrencesSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function requestSchedule(input: ScheduleInput) {
  return api.post('/account/doctor/schedules', input, { schema: doctorScheduleSchema });
}

export function withdrawSchedule(id: string) {
  return api.delete(`/account/doctor/schedules/${enc(id)}`, { schema: doctorScheduleSchema });
}

export function requestScheduleDeletion(id: string, reason: string) {
  const trimmed = reason.trim();
  return api.post(
    `/account/doctor/schedules/${enc(id)}/deletion`,
    trimmed === '' ? {} : { reason: trimmed },
    {
      schema: doctorScheduleSchema,
    },
  );
}

/** Cancels the open appointments still to come in one's own schedule, with one reason (the patients are told). */
export function cancelScheduleAppointments(id: string, reason: string) {
  return api.post(
    `/account/doctor/schedules/${enc(id)}/cancel-appointments`,
    { reason: reason.trim() },
    { schema: scheduleAppointmentsCanceledSchema },
  );
}

export function decideSchedules(ids: readonly string[], decision: ScheduleDecision, reason?: string) {
  const trimmed = reason?.trim() ?? '';
  return api.post(
    '/account/schedules/decisions',
    { ids, decision, ...(trimmed === '' ? {} : { reason: trimmed }) },
    { schema: scheduleDecisionResultSchema },
  );
}
