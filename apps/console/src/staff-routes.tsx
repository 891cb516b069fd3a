import { Outlet, type RouteObject } from 'react-router';
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
import { AppLayout } from './features/shell/app-layout';
import { AreaGuard, AreaRedirect } from './features/shell/area-routes';
import { RequirePermission } from './features/shell/permissions';
import { RouteErrorPage } from './features/shell/route-fallbacks';
import { StartupGate } from './features/shell/startup-gate';
import { scheduleRoutes } from './features/schedules/schedule-routes';
import { staffRoutes } from './features/staff/staff-routes';
import { tenantAreaRoutes } from './features/tenants/tenant-routes';
import { transactionRoutes } from './features/transactions/transaction-routes';
import { lazyFirstScreen, lazyPage } from './lib/lazy-route';

/*
 * The signed-in console's routes: the startup sequence, the staff shell and every area's pages.
 * The router fetches this module when an address outside the public pages is first opened
 * (routes.tsx, `patchRoutesOnNavigation`), so the login page carries none of it. The startup
 * sequence and the shell come with it, not as lazy routes of their own: every staff screen needs
 * them, and the pages' preload lists then leave out what they already load (vite.config.ts).
 */

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
    lazy: lazyFirstScreen(() => import('./features/shell/area-home-page').then((m) => m.AreaHomePage)),
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
  ...transactionRoutes,
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

/** The staff branch, added under the root layout: the startup sequence, then the shell with the areas. */
export const staffBranch: RouteObject = {
  id: 'staff',
  element: <StartupGate />,
  children: [
    { path: '/', element: <AreaRedirect /> },
    {
      element: <AppLayout />,
      children: ROLE_AREAS.map((area) => ({
        path: `/${area}`,
        element: <AreaGuard area={area} />,
        errorElement: <RouteErrorPage />,
        children: areaPages,
      })),
    },
  ],
};
