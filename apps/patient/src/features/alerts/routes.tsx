import type { RouteObject } from 'react-router';

/** The notifications list (spec §2 patient app, §3 notification read flag), loaded on first visit. */
export const alertsRoutes: RouteObject[] = [
  { path: 'notifications', lazy: async () => ({ Component: (await import('./notifications-page')).NotificationsPage }) },
];
