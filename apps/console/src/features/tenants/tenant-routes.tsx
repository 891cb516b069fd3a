import type { RouteObject } from 'react-router';
import { Outlet } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

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
      {
        index: true,
        lazy: lazyPage(() => import('./tenants-page').then((m) => m.TenantsPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(
          () => import('./tenant-create-page').then((m) => m.TenantCreatePage),
          (page) => <RequirePermission permission="tenant.create">{page}</RequirePermission>,
        ),
      },
      {
        path: ':tenantId',
        lazy: lazyPage(() => import('./tenant-detail-page').then((m) => m.TenantDetailPage)),
      },
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
      {
        index: true,
        lazy: lazyPage(() => import('./trial-requests-page').then((m) => m.TrialRequestsPage)),
      },
      {
        path: ':requestId',
        lazy: lazyPage(() => import('./trial-request-detail-page').then((m) => m.TrialRequestDetailPage)),
      },
    ],
  },
];
