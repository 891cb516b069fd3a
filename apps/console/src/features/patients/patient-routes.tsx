import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { PatientFormPage } from './patient-form-page';
import { PatientProfilePage } from './patient-profile-page';
import { PatientsPage } from './patients-page';

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
      { index: true, element: <PatientsPage /> },
      {
        path: 'new',
        element: (
          <RequirePermission permission="user.create">
            <PatientFormPage />
          </RequirePermission>
        ),
      },
      { path: ':patientId', element: <PatientProfilePage /> },
      {
        path: ':patientId/edit',
        element: (
          <RequirePermission permission="user.update">
            <PatientFormPage />
          </RequirePermission>
        ),
      },
    ],
  },
];
