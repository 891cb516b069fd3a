import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { ForbiddenPage } from '../shell/forbidden-page';
import { RequirePermission, usePermissions } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** The statistics: a doctor's own (appointment.schedule) or the admins' (appointment.approve). */
function RequireReportAccess({ children }: { children: ReactNode }) {
  const { can } = usePermissions();
  return <>{can('appointment.schedule') || can('appointment.approve') ? children : <ForbiddenPage />}</>;
}

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
  {
    path: 'schedule-report',
    lazy: lazyPage(
      () => import('./schedule-report-page').then((m) => m.ScheduleReportPage),
      (page) => <RequireReportAccess>{page}</RequireReportAccess>,
    ),
  },
];
