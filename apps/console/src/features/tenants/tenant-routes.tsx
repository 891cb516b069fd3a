import type { RouteObject } from 'react-router';
import { Outlet } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { TenantCreatePage } from './tenant-create-page';
import { TenantDetailPage } from './tenant-detail-page';
import { TenantsPage } from './tenants-page';
import { TrialRequestDetailPage } from './trial-request-detail-page';
import { TrialRequestsPage } from './trial-requests-page';

/**
 * The tenant pages inside a role area (paths match navigation.ts). Guards sit on the routes, not
 * only on the menu, because an address can be typed or bookmarked; the detail turns read-only
 * without tenant.update.
 */
export const tenantAreaRoutes: RouteObject[] = [
  {
    path: 'tenants',
    element: (
      <RequirePermission permission="tenant.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      { index: true, element: <TenantsPage /> },
      {
        path: 'new',
        element: (
          <RequirePermission permission="tenant.create">
            <TenantCreatePage />
          </RequirePermission>
        ),
      },
      { path: ':tenantId', element: <TenantDetailPage /> },
    ],
  },
  {
    path: 'trial-requests',
    element: (
      <RequirePermission permission="tenant.request">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      { index: true, element: <TrialRequestsPage /> },
      { path: ':requestId', element: <TrialRequestDetailPage /> },
    ],
  },
];
