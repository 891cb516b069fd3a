import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './appointments.css';

/**
 * The profile's appointments (spec §2 patient app: appointments and their states): the list with
 * its upcoming and past tabs, and one appointment with its cancelling and video call link. Booking
 * is on a doctor's page (book-appointment-card.tsx). Each screen loads on first visit.
 */
export const appointmentsRoutes: RouteObject[] = [
  { path: 'appointments', lazy: async () => ({ Component: (await import('./appointments-page')).AppointmentsPage }) },
  {
    path: 'appointments/:id',
    lazy: async () => ({ Component: (await import('./appointment-detail-page')).AppointmentDetailPage }),
  },
];
