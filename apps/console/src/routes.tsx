import { createBrowserRouter, type RouteObject } from 'react-router';
import type { RoleArea } from '@rpm/contracts';
import { AccountPage } from './features/account/account-page';
import { LoginPage } from './features/auth/login-page';
import { PrivacyPage, PrivacyTerms } from './features/legal/privacy-terms';
import { AppLayout } from './features/shell/app-layout';
import { AreaHomePage } from './features/shell/area-home-page';
import { AreaGuard, AreaRedirect } from './features/shell/area-routes';
import { NotFoundInShell, NotFoundPage } from './features/shell/not-found-page';
import { RequirePermission } from './features/shell/permissions';
import { RootLayout } from './features/shell/root-layout';
import { StartupGate } from './features/shell/startup-gate';

/** Every role area of spec §2, each a path prefix (contracts roles.ts). */
export const ROLE_AREAS: readonly RoleArea[] = [
  'sadmin',
  'smadmin',
  'doctor',
  'operator',
  'doctor-assistant',
  'admin',
  'root',
  'cskh',
  'coach',
  'user',
];

/**
 * The pages inside an area. Paths match the `path` of the navigation entries (navigation.ts);
 * a feature adds its route here and its entry there.
 */
const areaPages: RouteObject[] = [
  { index: true, element: <AreaHomePage /> },
  {
    path: 'account',
    element: (
      <RequirePermission permission="account.view">
        <AccountPage />
      </RequirePermission>
    ),
  },
  { path: 'privacy', element: <PrivacyTerms /> },
  { path: '*', element: <NotFoundInShell /> },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // Public: render without a session and without the startup sequence.
      { path: '/login', element: <LoginPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      {
        element: <StartupGate />,
        children: [
          { path: '/', element: <AreaRedirect /> },
          {
            element: <AppLayout />,
            children: ROLE_AREAS.map((area) => ({
              path: `/${area}`,
              element: <AreaGuard area={area} />,
              children: areaPages,
            })),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
