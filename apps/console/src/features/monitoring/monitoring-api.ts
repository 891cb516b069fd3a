import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  messageSchema,
  pageOf,
  sosCaseDetailSchema,
  sosCaseSummarySchema,
  ticketDetailSchema,
  ticketStatisticsSchema,
  ticketSummarySchema,
  type MESSAGE_KINDS,
  type MESSAGE_STATUSES,
  type SOS_CASE_SORT_FIELDS,
  type SosCaseAction,
  type SosCaseStatus,
  type SosCaseStep,
  type TICKET_SORT_FIELDS,
  type TICKET_TYPES,
  type TicketAction,
  type TicketCreate,
  type TicketStatus,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { MESSAGES_QUERY_KEY, SOS_CASES_QUERY_KEY, TICKETS_QUERY_KEY } from './query-keys';

const enc = encodeURIComponent;

/** Builds a query string, leaving out empty values. */
function queryString(values: Record<string, string | number | boolean | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') continue;
    query.set(key, String(value));
  }
  return query.toString();
}

export interface SosCaseFilter {
  page: number;
  size: number;
  search: string;
  sortField: (typeof SOS_CASE_SORT_FIELDS)[number];
  sortType: 'asc' | 'desc';
  status: SosCaseStatus | null;
  /** Only cases not closed yet. */
  open: boolean;
}

export const sosCaseListQuery = (filter: SosCaseFilter) =>
  queryOptions({
    queryKey: [...SOS_CASES_QUERY_KEY, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(
        `/account/sos-cases?${queryString({ ...filter, search: filter.search.trim(), open: filter.open ? true : undefined })}`,
        {
          schema: pageOf(sosCaseSummarySchema),
          signal,
        },
      ),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const sosCaseDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...SOS_CASES_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) =>
      api.get(`/account/sos-cases/${enc(id)}`, { schema: sosCaseDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function changeSosCase(id: string, action: SosCaseAction, reason: string) {
  return api.put(`/account/sos-cases/${enc(id)}/${action}`, reason === '' ? {} : { reason }, {
    schema: sosCaseDetailSchema,
  });
}

export function logSosStep(id: string, step: SosCaseStep) {
  return api.post(`/account/sos-cases/${enc(id)}/actions`, step, { schema: sosCaseDetailSchema });
}

export interface TicketFilter {
  page: number;
  size: number;
  search: string;
  sortField: (typeof TICKET_SORT_FIELDS)[number];
  sortType: 'asc' | 'desc';
  type: (typeof TICKET_TYPES)[number] | null;
  status: TicketStatus | null;
  kpiFailed: boolean | null;
  mine: boolean;
}

export const ticketListQuery = (filter: TicketFilter, userId: string | null) =>
  queryOptions({
    queryKey: [...TICKETS_QUERY_KEY, 'list', filter, userId],
    queryFn: ({ signal }) =>
      api.get(
        `/account/tickets?${queryString({
          page: filter.page,
          size: filter.size,
          search: filter.search.trim(),
          sortField: filter.sortField,
          sortType: filter.sortType,
          type: filter.type,
          status: filter.status,
          kpiFailed: filter.kpiFailed,
          assigneeId: filter.mine ? userId : null,
        })}`,
        { schema: pageOf(ticketSummarySchema), signal },
      ),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const ticketDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...TICKETS_QUERY_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get(`/account/tickets/${enc(id)}`, { schema: ticketDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const ticketStatisticsQuery = (range: { from: string; to: string }) =>
  queryOptions({
    queryKey: [...TICKETS_QUERY_KEY, 'statistics', range],
    queryFn: ({ signal }) =>
      api.get(`/account/tickets/statistics?${queryString(range)}`, {
        schema: ticketStatisticsSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function changeTicket(
  id: string,
  action: TicketAction,
  input: { reason?: string; currentAction?: string },
) {
  return api.put(`/account/tickets/${enc(id)}/${action}`, input, { schema: ticketDetailSchema });
}

export function rateTicket(id: string, input: { kpiRating?: number; customerRating?: number }) {
  return api.put(`/account/tickets/${enc(id)}/rating`, input, { schema: ticketDetailSchema });
}

export function createTicket(input: TicketCreate) {
  return api.post('/account/tickets', input, { schema: ticketDetailSchema });
}

export interface MessageFilter {
  page: number;
  size: number;
  search: string;
  sortField: 'sent';
  sortType: 'asc' | 'desc';
  kind: (typeof MESSAGE_KINDS)[number] | null;
  status: (typeof MESSAGE_STATUSES)[number] | null;
  from: string | null;
  to: string | null;
}

export const messageListQuery = (filter: MessageFilter) =>
  queryOptions({
    queryKey: [...MESSAGES_QUERY_KEY, 'list', filter],
    queryFn: ({ signal }) =>
      api.get(
        `/account/messages?${queryString({
          page: filter.page,
          size: filter.size,
          search: filter.search.trim(),
          sortType: filter.sortType,
          kind: filter.kind,
          status: filter.status,
          from: filter.from,
          to: filter.to,
        })}`,
        { schema: pageOf(messageSchema), signal },
      ),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/** After a change: the SOS, ticket and message lists may all have moved. */
export function refreshMonitoring(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: SOS_CASES_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: TICKETS_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: MESSAGES_QUERY_KEY });
}
