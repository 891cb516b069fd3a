import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { scheduleReportSchema, type ScheduleReportPeriod } from '@rpm/contracts';
import { api } from '../../api/client';
import { SCHEDULES_QUERY_ROOT } from './schedules-api';

export interface ScheduleReportFilter {
  /** First and last day, yyyy-MM-dd (at most 366 days apart). */
  from: string;
  to: string;
  period: ScheduleReportPeriod;
}

/**
 * The statistical report of every doctor the caller sees (a doctor: itself) between two days; the
 * page picks a doctor out of it, so the picker and the figures come from one answer.
 */
export const scheduleReportQuery = (filter: ScheduleReportFilter) =>
  queryOptions({
    queryKey: [...SCHEDULES_QUERY_ROOT, 'report', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/schedules/report?${new URLSearchParams({ ...filter }).toString()}`, {
        schema: scheduleReportSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });
