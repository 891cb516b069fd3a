import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './video.css';

/** The video room of an online appointment (spec §2 video meeting room). The page loads on first visit. */
export const videoRoutes: RouteObject[] = [
  { path: 'appointments/:id/video', lazy: async () => ({ Component: (await import('./video-page')).VideoPage }) },
];
