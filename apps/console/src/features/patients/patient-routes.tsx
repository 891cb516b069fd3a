import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Patients, their profiles, create and edit: the pages inside an area (the dashboard is the area home). */
export const patientRoutes: RouteObject[] = [
  {
    path: 'patients',
    element: (
      <RequirePermission permission="user.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./patients-page').then((m) => m.PatientsPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(
          () => import('./patient-form-page').then((m) => m.PatientFormPage),
          (page) => <RequirePermission permission="user.create">{page}</RequirePermission>,
        ),
      },
      {
        path: ':patientId',
        lazy: lazyPage(() => import('./patient-profile-page').then((m) => m.PatientProfilePage)),
      },
      {
        path: ':patientId/edit',
        lazy: lazyPage(
          () => import('./patient-form-page').then((m) => m.PatientFormPage),
          (page) => <RequirePermission permission="user.update">{page}</RequirePermission>,
        ),
      },
    ],
  },
];
