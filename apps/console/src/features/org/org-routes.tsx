import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** The scope and health-center pages inside an area (paths match navigation.ts entries). */
export const orgRoutes: RouteObject[] = [
  {
    path: 'scopes',
    element: (
      <RequirePermission permission="tenant.scope">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./scopes-page').then((m) => m.ScopesPage)),
      },
      {
        path: ':scopeId',
        lazy: lazyPage(() => import('./scope-detail-page').then((m) => m.ScopeDetailPage)),
      },
    ],
  },
  {
    path: 'health-centers',
    element: (
      <RequirePermission permission="tenant.center">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./centers-page').then((m) => m.CentersPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(() => import('./center-form-page').then((m) => m.CenterFormPage)),
      },
      {
        path: ':centerId',
        lazy: lazyPage(() => import('./center-detail-page').then((m) => m.CenterDetailPage)),
      },
      {
        path: ':centerId/edit',
        lazy: lazyPage(() => import('./center-form-page').then((m) => m.CenterFormPage)),
      },
    ],
  },
];
