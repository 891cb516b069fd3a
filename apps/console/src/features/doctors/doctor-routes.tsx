import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

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
      {
        index: true,
        lazy: lazyPage(() => import('./doctors-page').then((m) => m.DoctorsPage)),
      },
      {
        path: ':doctorId',
        lazy: lazyPage(() => import('./doctor-profile-page').then((m) => m.DoctorProfilePage)),
      },
    ],
  },
  {
    path: 'requests',
    lazy: lazyPage(
      () => import('./requests-page').then((m) => m.RequestsPage),
      (page) => <RequirePermission permission="relative.view">{page}</RequirePermission>,
    ),
  },
];
