import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Appointments: the list, booking, the detail with its actions, its printed sheet, and the front desk's check-in. */
export const appointmentRoutes: RouteObject[] = [
  {
    path: 'appointments',
    element: (
      <RequirePermission permission="appointment.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./appointments-page').then((m) => m.AppointmentsPage)),
      },
      {
        path: 'new',
        lazy: lazyPage(
          () => import('./appointment-form-page').then((m) => m.NewAppointmentPage),
          (page) => <RequirePermission permission="appointment.create">{page}</RequirePermission>,
        ),
      },
      {
        path: ':appointmentId',
        lazy: lazyPage(() => import('./appointment-detail-page').then((m) => m.AppointmentDetailPage)),
      },
      {
        path: ':appointmentId/edit',
        lazy: lazyPage(
          () => import('./appointment-form-page').then((m) => m.EditAppointmentPage),
          (page) => <RequirePermission permission="appointment.update">{page}</RequirePermission>,
        ),
      },
      {
        path: ':appointmentId/video',
        lazy: lazyPage(() => import('./video-room-page').then((m) => m.VideoRoomPage)),
      },
      {
        path: ':appointmentId/print',
        lazy: lazyPage(() => import('./appointment-print-page').then((m) => m.AppointmentPrintPage)),
      },
    ],
  },
  {
    path: 'check-in',
    lazy: lazyPage(
      () => import('./check-in-page').then((m) => m.CheckInPage),
      (page) => <RequirePermission permission="appointment.update">{page}</RequirePermission>,
    ),
  },
];
