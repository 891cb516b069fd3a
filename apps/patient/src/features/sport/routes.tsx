import type { RouteObject } from 'react-router';

/**
 * Sport modes with live tracking and history, weight goal and records with BMI (spec §2 patient
 * app). Each screen loads on first visit, so the app's first screen stays small.
 */
export const sportRoutes: RouteObject[] = [
  { path: 'sport', lazy: async () => ({ Component: (await import('./sport-pages')).SportHubPage }) },
  { path: 'sport/track/:sport', lazy: async () => ({ Component: (await import('./tracking-page')).TrackingPage }) },
  { path: 'sport/:id', lazy: async () => ({ Component: (await import('./sport-pages')).SportDetailPage }) },
  { path: 'weight', lazy: async () => ({ Component: (await import('./weight-page')).WeightPage }) },
];
