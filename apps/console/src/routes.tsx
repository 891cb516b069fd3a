import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import type { RoleArea } from '@rpm/contracts';
import { announcementRoutes } from './features/announcements/announcement-routes';
import { appointmentRoutes } from './features/appointments/appointment-routes';
import { deviceRoutes } from './features/devices/device-routes';
import { doctorRoutes } from './features/doctors/doctor-routes';
import { reviewRoutes } from './features/reviews/review-routes';
import { packageRoutes } from './features/packages/package-routes';
import { importRoutes } from './features/imports/import-routes';
import { monitoringRoutes } from './features/monitoring/monitoring-routes';
import { orgRoutes } from './features/org/org-routes';
import { patientRoutes } from './features/patients/patient-routes';
import { AreaGuard, AreaRedirect } from './features/shell/area-routes';
import { RequirePermission } from './features/shell/permissions';
import { RootLayout } from './features/shell/root-layout';
import { scheduleRoutes } from './features/schedules/schedule-routes';
import {
  NavigationPendingNotice,
  RouteErrorPage,
  RouteLoadingScreen,
} from './features/shell/route-fallbacks';
import { staffRoutes } from './features/staff/staff-routes';
import { tenantAreaRoutes } from './features/tenants/tenant-routes';
import { lazyPage } from './lib/lazy-route';

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
 * a feature adds its route here and its entry there. Every page is its own chunk (`lazyPage`), so
 * the login page and an area's first screen carry only their own code (tools/bundle-size.ts).
 */
const areaPages: RouteObject[] = [
  {
    index: true,
    lazy: lazyPage(() => import('./features/shell/area-home-page').then((m) => m.AreaHomePage)),
  },
  {
    path: 'account',
    lazy: lazyPage(
      () => import('./features/account/account-page').then((m) => m.AccountPage),
      (page) => <RequirePermission permission="account.view">{page}</RequirePermission>,
    ),
  },
  {
    path: 'roles',
    // One guard for the list and the editor; the editor turns read-only without permission.update.
    element: (
      <RequirePermission permission="permission.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./features/roles/roles-page').then((m) => m.RolesPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(() => import('./features/roles/role-editor-page').then((m) => m.RoleEditorPage)),
      },
      {
        path: ':roleId',
        lazy: lazyPage(() => import('./features/roles/role-editor-page').then((m) => m.RoleEditorPage)),
      },
    ],
  },
  ...tenantAreaRoutes,
  ...orgRoutes,
  ...staffRoutes,
  ...importRoutes,
  ...patientRoutes,
  ...doctorRoutes,
  ...reviewRoutes,
  ...packageRoutes,
  ...deviceRoutes,
  ...monitoringRoutes,
  ...scheduleRoutes,
  ...appointmentRoutes,
  ...announcementRoutes,
  {
    path: 'feedback',
    lazy: lazyPage(
      () => import('./features/feedback/feedback-triage-page').then((m) => m.FeedbackTriagePage),
      (page) => <RequirePermission permission="user.feedback">{page}</RequirePermission>,
    ),
  },
  {
    path: 'privacy',
    lazy: lazyPage(() => import('./features/legal/privacy-terms').then((m) => m.PrivacyTerms)),
  },
  {
    path: 'terms',
    lazy: lazyPage(() => import('./features/legal/terms-page').then((m) => m.TermsOfUse)),
  },
  {
    path: '*',
    lazy: lazyPage(() => import('./features/shell/not-found-page').then((m) => m.NotFoundInShell)),
  },
];

export const routes: RouteObject[] = [
  {
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
        lazy: lazyPage(() => import('./features/auth/login-page').then((m) => m.LoginPage)),
      },
      {
        path: '/forgot-password',
        lazy: lazyPage(() =>
          import('./features/auth/forgot-password-page').then((m) => m.ForgotPasswordPage),
        ),
      },
      {
        path: '/register',
        lazy: lazyPage(() => import('./features/auth/register-page').then((m) => m.RegisterPage)),
      },
      {
        path: '/trial-request',
        lazy: lazyPage(() =>
          import('./features/trial-request/trial-request-page').then((m) => m.TrialRequestPage),
        ),
      },
      {
        path: '/privacy',
        lazy: lazyPage(() => import('./features/legal/privacy-terms').then((m) => m.PrivacyPage)),
      },
      {
        path: '/terms',
        lazy: lazyPage(() => import('./features/legal/terms-page').then((m) => m.TermsPage)),
      },
      {
        lazy: lazyPage(() => import('./features/shell/startup-gate').then((m) => m.StartupGate)),
        children: [
          { path: '/', element: <AreaRedirect /> },
          {
            lazy: lazyPage(() => import('./features/shell/app-layout').then((m) => m.AppLayout)),
            children: ROLE_AREAS.map((area) => ({
              path: `/${area}`,
              element: <AreaGuard area={area} />,
              errorElement: <RouteErrorPage />,
              children: areaPages,
            })),
          },
        ],
      },
      {
        path: '*',
        lazy: lazyPage(() => import('./features/shell/not-found-page').then((m) => m.NotFoundPage)),
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
