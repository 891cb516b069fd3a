import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** The staff pages inside an area; creating and editing need their own permissions too. */
export const staffRoutes: RouteObject[] = [
  {
    path: 'staff',
    element: (
      <RequirePermission permission="staff.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./staff-page').then((m) => m.StaffPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(
          () => import('./staff-form-page').then((m) => m.StaffFormPage),
          (page) => <RequirePermission permission="staff.create">{page}</RequirePermission>,
        ),
      },
      {
        path: ':staffId',
        lazy: lazyPage(() => import('./staff-detail-page').then((m) => m.StaffDetailPage)),
      },
      {
        path: ':staffId/edit',
        lazy: lazyPage(
          () => import('./staff-form-page').then((m) => m.StaffFormPage),
          (page) => <RequirePermission permission="staff.update">{page}</RequirePermission>,
        ),
      },
    ],
  },
];
