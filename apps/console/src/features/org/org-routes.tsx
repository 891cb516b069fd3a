import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { CenterDetailPage } from './center-detail-page';
import { CenterFormPage } from './center-form-page';
import { CentersPage } from './centers-page';
import { ScopeDetailPage } from './scope-detail-page';
import { ScopesPage } from './scopes-page';

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
      { index: true, element: <ScopesPage /> },
      { path: ':scopeId', element: <ScopeDetailPage /> },
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
      { index: true, element: <CentersPage /> },
      { path: 'new', element: <CenterFormPage /> },
      { path: ':centerId', element: <CenterDetailPage /> },
      { path: ':centerId/edit', element: <CenterFormPage /> },
    ],
  },
];
