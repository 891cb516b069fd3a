import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { DoctorProfilePage } from './doctor-profile-page';
import { DoctorsPage } from './doctors-page';
import { RequestsPage } from './requests-page';

/** Doctors, doctor profiles and patient/doctor requests: the pages inside an area. */
export const doctorRoutes: RouteObject[] = [
  {
    path: 'doctors',
    element: (
      <RequirePermission permission="user.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      { index: true, element: <DoctorsPage /> },
      { path: ':doctorId', element: <DoctorProfilePage /> },
    ],
  },
  {
    path: 'requests',
    element: (
      <RequirePermission permission="relative.view">
        <RequestsPage />
      </RequirePermission>
    ),
  },
];
