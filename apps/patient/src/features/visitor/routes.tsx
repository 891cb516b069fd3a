import type { RouteObject } from 'react-router';

/** Visitor mode: the app without an account, everything kept on the phone (spec §2 patient app). */
export const visitorRoutes: RouteObject[] = [
  { path: 'visitor', lazy: async () => ({ Component: (await import('./visitor-page')).VisitorPage }) },
];
