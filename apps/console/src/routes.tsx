import { createBrowserRouter, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router';
import { RootLayout } from './features/shell/root-layout';
import {
  NavigationPendingNotice,
  RouteErrorPage,
  RouteLoadingScreen,
} from './features/shell/route-fallbacks';
import { lazyFirstScreen, lazyPage } from './lib/lazy-route';

/**
 * The console's route table as the entry knows it: the public pages, each its own chunk, and a
 * not-found page. The signed-in console (the startup sequence, the staff shell and every area's
 * pages, staff-routes.tsx) is added when an address outside them is first opened, so the login
 * page carries none of it (tools/bundle-size.ts).
 */
const ROOT_ROUTE_ID = 'root';

export const routes: RouteObject[] = [
  {
    id: ROOT_ROUTE_ID,
    element: (
      <>
        <NavigationPendingNotice />
        <RootLayout />
      </>
    ),
    // Shown until the first screen's code has loaded; a route whose code fails to load (or that
    // breaks) ends in the error page, inside the staff shell when the shell itself loaded.
    hydrateFallbackElement: <RouteLoadingScreen />,
    errorElement: <RouteErrorPage fullPage />,
    children: [
      // Public: render without a session and without the startup sequence.
      {
        path: '/login',
        lazy: lazyFirstScreen(() => import('./features/auth/login-page').then((m) => m.LoginPage)),
      },
      {
        path: '/forgot-password',
        lazy: lazyFirstScreen(() =>
          import('./features/auth/forgot-password-page').then((m) => m.ForgotPasswordPage),
        ),
      },
      {
        path: '/register',
        lazy: lazyFirstScreen(() => import('./features/auth/register-page').then((m) => m.RegisterPage)),
      },
      {
        path: '/trial-request',
        lazy: lazyFirstScreen(() =>
          import('./features/trial-request/trial-request-page').then((m) => m.TrialRequestPage),
        ),
      },
      {
        path: '/privacy',
        lazy: lazyFirstScreen(() => import('./features/legal/privacy-terms').then((m) => m.PrivacyPage)),
      },
      {
        path: '/terms',
        lazy: lazyFirstScreen(() => import('./features/legal/terms-page').then((m) => m.TermsPage)),
      },
      {
        path: '*',
        lazy: lazyPage(() => import('./features/shell/not-found-page').then((m) => m.NotFoundPage)),
      },
    ],
  },
];

/**
 * An address no route of the table above names (all but the public pages): the staff branch
 * (staff-routes.tsx) is fetched and added under the root layout before the router matches the
 * address again. The router asks on every address that matches only with parameters (the
 * catch-all included); once the branch is there, the module is at hand and the router keeps the
 * branch it has (same route id).
 */
export const addStaffRoutes: PatchRoutesOnNavigationFunction = async ({ patch }) => {
  const { staffBranch } = await import('./staff-routes');
  patch(ROOT_ROUTE_ID, [staffBranch]);
};

export function createRouter() {
  return createBrowserRouter(routes, { patchRoutesOnNavigation: addStaffRoutes });
}
