import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import type { RoleArea } from '@rpm/contracts';
import { AccountPage } from './features/account/account-page';
import { ForgotPasswordPage } from './features/auth/forgot-password-page';
import { LoginPage } from './features/auth/login-page';
import { deviceRoutes } from './features/devices/device-routes';
import { doctorRoutes } from './features/doctors/doctor-routes';
import { importRoutes } from './features/imports/import-routes';
import { monitoringRoutes } from './features/monitoring/monitoring-routes';
import { orgRoutes } from './features/org/org-routes';
import { patientRoutes } from './features/patients/patient-routes';
import { RegisterPage } from './features/auth/register-page';
import { PrivacyPage, PrivacyTerms } from './features/legal/privacy-terms';
import { TermsOfUse, TermsPage } from './features/legal/terms-page';
import { RoleEditorPage } from './features/roles/role-editor-page';
import { RolesPage } from './features/roles/roles-page';
import { AppLayout } from './features/shell/app-layout';
import { AreaHomePage } from './features/shell/area-home-page';
import { AreaGuard, AreaRedirect } from './features/shell/area-routes';
import { NotFoundInShell, NotFoundPage } from './features/shell/not-found-page';
import { RequirePermission } from './features/shell/permissions';
import { RootLayout } from './features/shell/root-layout';
import { StartupGate } from './features/shell/startup-gate';
import { staffRoutes } from './features/staff/staff-routes';
import { tenantAreaRoutes } from './features/tenants/tenant-routes';
import { TrialRequestPage } from './features/trial-request/trial-request-page';

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
  {
    path: 'roles',
    // One guard for the list and the editor; the editor turns read-only without permission.update.
    element: (
      <RequirePermission permission="permission.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      { index: true, element: <RolesPage /> },
      { path: 'new', element: <RoleEditorPage /> },
      { path: ':roleId', element: <RoleEditorPage /> },
    ],
  },
  ...tenantAreaRoutes,
  ...orgRoutes,
  ...staffRoutes,
  ...importRoutes,
  ...patientRoutes,
  ...doctorRoutes,
  ...deviceRoutes,
  ...monitoringRoutes,
  { path: 'privacy', element: <PrivacyTerms /> },
  { path: 'terms', element: <TermsOfUse /> },
  { path: '*', element: <NotFoundInShell /> },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      // Public: render without a session and without the startup sequence.
      { path: '/login', element: <LoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/register', element: <RegisterPage /> },
      { path: '/trial-request', element: <TrialRequestPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/terms', element: <TermsPage /> },
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
