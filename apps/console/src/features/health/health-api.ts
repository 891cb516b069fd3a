import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  ecgDetailSchema,
  ecgSummarySchema,
  healthSeriesSchema,
  latestReadingsSchema,
  pageOf,
  sleepDetailSchema,
  sleepSummarySchema,
  thresholdsViewSchema,
  type HealthView,
  type Measure,
  type ThresholdSet,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const HEALTH_QUERY_ROOT = [SESSION_QUERY_ROOT, 'health'] as const;
const enc = encodeURIComponent;
const base = (patientId: string) => `/health/patients/${enc(patientId)}`;

/** The range a view shows, ending now: a day, 7 days, 30 days or 365 days. */
export function viewRange(view: HealthView, now = new Date()): { from: Date; to: Date } {
  const days = { day: 1, week: 7, month: 30, year: 365 }[view];
  return { from: new Date(now.getTime() - days * 86_400_000), to: now };
}

/**
 * A series as the server answers it: its hours and days are the patient's local ones, in
 * `timeZone` (an IANA name; absent from servers that predate it), for labelling the axis.
 */
const localSeriesSchema = healthSeriesSchema.extend({ timeZone: z.string().optional() });

export const healthSeriesQuery = (patientId: string, measure: Measure, view: HealthView, to: Date) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'series', measure, view, to.toISOString()],
    queryFn: ({ signal }) => {
      const range = viewRange(view, to);
      const query = new URLSearchParams({
        measure,
        view,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
      });
      return api.get(`${base(patientId)}/data?${query.toString()}`, { schema: localSeriesSchema, signal });
    },
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const latestReadingsQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'latest'],
    queryFn: ({ signal }) => api.get(`${base(patientId)}/latest`, { schema: latestReadingsSchema, signal }),
    // Readings arrive every 15 minutes per watch; 15 seconds keep the tiles and the status current.
    refetchInterval: 15_000,
    meta: { errorDisplay: 'inline' },
  });

export const thresholdsQuery = (patientId: string) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'thresholds'],
    queryFn: ({ signal }) =>
      api.get(`${base(patientId)}/thresholds`, { schema: thresholdsViewSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

const ecgPageSchema = pageOf(ecgSummarySchema);
const sleepPageSchema = pageOf(sleepSummarySchema);

export const ecgListQuery = (patientId: string, page: number, size: number) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'ecg', page, size],
    queryFn: ({ signal }) =>
      api.get(`${base(patientId)}/ecg?page=${String(page)}&size=${String(size)}`, {
        schema: ecgPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const ecgDetailQuery = (patientId: string, ecgId: string) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'ecg', 'detail', ecgId],
    queryFn: ({ signal }) =>
      api.get(`${base(patientId)}/ecg/${enc(ecgId)}`, { schema: ecgDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const sleepListQuery = (patientId: string, page: number, size: number) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'sleep', page, size],
    queryFn: ({ signal }) =>
      api.get(`${base(patientId)}/sleep?page=${String(page)}&size=${String(size)}`, {
        schema: sleepPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const sleepDetailQuery = (patientId: string, sleepId: string) =>
  queryOptions({
    queryKey: [...HEALTH_QUERY_ROOT, patientId, 'sleep', 'detail', sleepId],
    queryFn: ({ signal }) =>
      api.get(`${base(patientId)}/sleep/${enc(sleepId)}`, { schema: sleepDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function saveThresholds(patientId: string, thresholds: ThresholdSet) {
  return api.put(`${base(patientId)}/thresholds`, { thresholds }, { schema: thresholdsViewSchema });
}

export function resetThresholds(patientId: string) {
  return api.delete(`${base(patientId)}/thresholds`, { schema: thresholdsViewSchema });
}

/** After a threshold change: the editor, the bands on the charts and the patient's status. */
export function refreshHealth(queryClient: QueryClient, patientId: string): void {
  void queryClient.invalidateQueries({ queryKey: [...HEALTH_QUERY_ROOT, patientId] });
}
