import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './subscription.css';
import './redeem.css';

/**
 * The profile's package, the health center's offer and past packages; buying a package and the
 * payment's result (where the provider sends the payer back); the scratch-card entry. Each page
 * loads on first visit.
 */
export const subscriptionRoutes: RouteObject[] = [
  { path: 'subscription', lazy: async () => ({ Component: (await import('./subscription-page')).SubscriptionPage }) },
  { path: 'subscription/checkout', lazy: async () => ({ Component: (await import('./checkout-page')).CheckoutPage }) },
  { path: 'subscription/redeem', lazy: async () => ({ Component: (await import('./redeem-page')).RedeemPage }) },
  { path: 'payment/result', lazy: async () => ({ Component: (await import('./payment-result-page')).PaymentResultPage }) },
];
