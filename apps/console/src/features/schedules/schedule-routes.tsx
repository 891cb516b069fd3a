import type { RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Doctor schedules: the doctor's own calendar and requests, the admins' approval and working calendar. */
export const scheduleRoutes: RouteObject[] = [
  {
    path: 'my-schedule',
    lazy: lazyPage(
      () => import('./my-schedule-page').then((m) => m.MySchedulePage),
      (page) => <RequirePermission permission="appointment.schedule">{page}</RequirePermission>,
    ),
  },
  {
    path: 'schedule-approval',
    lazy: lazyPage(
      () => import('./schedule-approval-page').then((m) => m.ScheduleApprovalPage),
      (page) => <RequirePermission permission="appointment.approve">{page}</RequirePermission>,
    ),
  },
  {
    path: 'working-calendar',
    lazy: lazyPage(
      () => import('./working-calendar-page').then((m) => m.WorkingCalendarPage),
      (page) => <RequirePermission permission="appointment.approve">{page}</RequirePermission>,
    ),
  },
];
