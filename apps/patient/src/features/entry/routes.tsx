import type { RouteObject } from 'react-router';

/** Manual and photo entry (spec §2 patient app, §5 entry rules); each screen loads on first visit. */
export const entryRoutes: RouteObject[] = [
  { path: 'entry', lazy: async () => ({ Component: (await import('./manual-entry-page')).ManualEntryPage }) },
  { path: 'entry/photo', lazy: async () => ({ Component: (await import('./photo-entry-page')).PhotoEntryPage }) },
];
