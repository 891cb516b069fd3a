import {
  dashboardSchema,
  healthSeriesSchema,
  osahsResultSchema,
  pageOf,
  sleepDetailSchema,
  sleepSummarySchema,
  type HealthView,
  type Measure,
} from '@rpm/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/*
 * The health pages read the signed-in patient's own data through the self routes under
 * /health/me: the server finds the patient from the session, so the app never holds a patient id
 * (nothing to learn at start-up, nothing to tamper with, and another patient's record is simply
 * not found).
 */

const seriesSchema = healthSeriesSchema.extend({ timeZone: z.string() });
export type LocalSeries = z.infer<typeof seriesSchema>;

/** The home dashboard: status and the latest values, each with its level. */
export const dashboardQuery = () => ({
  queryKey: [SESSION_QUERY_ROOT, 'health', 'dashboard'],
  queryFn: () => api.get('/health/me/dashboard', dashboardSchema),
});

/** One measure over the local day, week, month or year holding `date`. */
export const seriesQuery = (measure: Measure, view: HealthView, date: string) => ({
  queryKey: [SESSION_QUERY_ROOT, 'health', 'data', measure, view, date],
  queryFn: () =>
    api.get(`/health/me/data?${new URLSearchParams({ measure, view, date }).toString()}`, seriesSchema),
});

const sleepPageSchema = pageOf(sleepSummarySchema);
export const SLEEP_PAGE_SIZE = 14;

/** The latest nights, newest first. */
export const sleepListQuery = (size = SLEEP_PAGE_SIZE) => ({
  queryKey: [SESSION_QUERY_ROOT, 'health', 'sleep', size],
  queryFn: () => api.get(`/health/me/sleep?page=0&size=${String(size)}`, sleepPageSchema),
});

export const sleepNightQuery = (recordId: string) => ({
  queryKey: [SESSION_QUERY_ROOT, 'health', 'sleep-night', recordId],
  queryFn: () => api.get(`/health/me/sleep/${encodeURIComponent(recordId)}`, sleepDetailSchema),
});

export const osahsQuery = (recordId: string) => ({
  queryKey: [SESSION_QUERY_ROOT, 'health', 'osahs', recordId],
  queryFn: () => api.get(`/health/me/sleep/${encodeURIComponent(recordId)}/osahs`, osahsResultSchema),
});
