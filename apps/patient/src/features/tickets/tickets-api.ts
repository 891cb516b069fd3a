import { myTicketSchema, pageOf, type MyTicketRating } from '@rpm/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every tickets query, under the session root so that logging out clears them. */
export const TICKETS_KEY = [SESSION_QUERY_ROOT, 'tickets'] as const;
export const TICKETS_PAGE_SIZE = 15;
const ticketPageSchema = pageOf(myTicketSchema);

/** The profile's tickets, newest first, a page at a time. */
export const myTicketsQuery = () =>
  infiniteQueryOptions({
    queryKey: [...TICKETS_KEY, 'list'],
    queryFn: ({ pageParam }) =>
      api.get(
        `/health/me/tickets?page=${String(pageParam)}&size=${String(TICKETS_PAGE_SIZE)}`,
        ticketPageSchema,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

/** The patient's rating of how a finished ticket was handled; a second one replaces the first. */
export const rateTicket = (id: string, rating: MyTicketRating) =>
  api.put(`/health/me/tickets/${encodeURIComponent(id)}/rating`, rating, myTicketSchema);
