import type { RouteObject } from 'react-router';

/**
 * Watches: bind, unbind, states, settings, firmware, sync (spec §2 patient app, §4 device states).
 * Each screen loads on first visit, so the app's first screen stays small.
 */
export const deviceRoutes: RouteObject[] = [
  { path: 'devices', lazy: async () => ({ Component: (await import('./devices-page')).DevicesPage }) },
  { path: 'devices/bind', lazy: async () => ({ Component: (await import('./bind-page')).BindPage }) },
  { path: 'devices/help/:topic', lazy: async () => ({ Component: (await import('./help-pages')).HelpPage }) },
  { path: 'devices/:deviceId', lazy: async () => ({ Component: (await import('./watch-page')).WatchPage }) },
];
