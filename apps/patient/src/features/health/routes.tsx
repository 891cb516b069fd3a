import type { RouteObject } from 'react-router';
// The pages' styles (a few KB) load with the app: a stylesheet shared only by lazy pages would
// become a CSS-only chunk, which the build drops after the service worker's precache list names it.
import './health.css';

/**
 * Health pages per measure, reports, sleep and OSAHS (spec §2 patient app). Each screen loads on
 * first visit, so the app's first screen stays small.
 */
export const healthRoutes: RouteObject[] = [
  { path: 'health', lazy: async () => ({ Component: (await import('./hub-page')).HealthHubPage }) },
  { path: 'health/sleep', lazy: async () => ({ Component: (await import('./sleep-pages')).SleepListPage }) },
  {
    path: 'health/sleep/:recordId',
    lazy: async () => ({ Component: (await import('./sleep-pages')).SleepNightPage }),
  },
  {
    path: 'health/sleep/:recordId/osahs',
    lazy: async () => ({ Component: (await import('./osahs-page')).OsahsPage }),
  },
  { path: 'health/osahs', lazy: async () => ({ Component: (await import('./osahs-page')).LatestOsahsPage }) },
  {
    path: 'health/:measure',
    lazy: async () => ({ Component: (await import('./measure-page')).MeasurePage }),
  },
];
