import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './feedback.css';

/** Question and feedback (spec §2 account and payments; §3 Feedback). The page loads on first visit. */
export const feedbackRoutes: RouteObject[] = [
  { path: 'feedback', lazy: async () => ({ Component: (await import('./feedback-page')).FeedbackPage }) },
];
