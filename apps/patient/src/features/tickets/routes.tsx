import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './tickets.css';

/** The profile's tickets and their rating (spec §1 ratings, §3 Ticket). The page loads on first visit. */
export const ticketsRoutes: RouteObject[] = [
  { path: 'tickets', lazy: async () => ({ Component: (await import('./tickets-page')).TicketsPage }) },
];
