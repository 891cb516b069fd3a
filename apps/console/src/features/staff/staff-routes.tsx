import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { StaffDetailPage } from './staff-detail-page';
import { StaffFormPage } from './staff-form-page';
import { StaffPage } from './staff-page';

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
      { index: true, element: <StaffPage /> },
      {
        path: 'new',
        element: (
          <RequirePermission permission="staff.create">
            <StaffFormPage />
          </RequirePermission>
        ),
      },
      { path: ':staffId', element: <StaffDetailPage /> },
      {
        path: ':staffId/edit',
        element: (
          <RequirePermission permission="staff.update">
            <StaffFormPage />
          </RequirePermission>
        ),
      },
    ],
  },
];
