import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './subscription.css';

/** The profile's package, the health center's offer and past packages. The page loads on first visit. */
export const subscriptionRoutes: RouteObject[] = [
  { path: 'subscription', lazy: async () => ({ Component: (await import('./subscription-page')).SubscriptionPage }) },
];
