import type { RouteObject } from 'react-router';
// The pages' styles load with the app: a stylesheet shared only by lazy pages would become a
// CSS-only chunk, which the build drops after the service worker's precache list names it.
import './doctors.css';

/**
 * Family doctor and specialists (spec §2 patient app: doctor search and detail, requests). Each
 * screen loads on first visit.
 */
export const doctorsRoutes: RouteObject[] = [
  { path: 'doctors', lazy: async () => ({ Component: (await import('./doctors-pages')).DoctorSearchPage }) },
  { path: 'doctors/mine', lazy: async () => ({ Component: (await import('./doctors-pages')).CareTeamPage }) },
  { path: 'doctors/requests', lazy: async () => ({ Component: (await import('./requests-page')).RequestsPage }) },
  { path: 'doctors/:id', lazy: async () => ({ Component: (await import('./doctor-detail-page')).DoctorDetailPage }) },
];
