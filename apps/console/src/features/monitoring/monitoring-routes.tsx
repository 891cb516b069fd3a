import { Outlet, type RouteObject } from 'react-router';
import { ForbiddenPage } from '../shell/forbidden-page';
import { RequirePermission, usePermissions } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

const guarded = (element: React.ReactNode) => (
  <RequirePermission permission="health.sos">{element}</RequirePermission>
);

/**
 * Who may open an SOS case or a ticket: its handlers (health.sos) and the clinicians who read the
 * patient's health (health.view: a doctor following its SOS popup or worklist), read-only; the
 * server's patient access rule decides which patients.
 */
export const SOS_CASE_READ_PERMISSIONS = ['health.sos', 'health.view'] as const;

function RequireCaseReader({ children }: { children: React.ReactNode }) {
  const { can } = usePermissions();
  return (
    <>{SOS_CASE_READ_PERMISSIONS.some((permission) => can(permission)) ? children : <ForbiddenPage />}</>
  );
}

/** SOS call list, patient in SOS, tickets (list, detail, statistics), SMS and call management. */
export const monitoringRoutes: RouteObject[] = [
  {
    path: 'sos',
    element: <Outlet />,
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./sos-list-page').then((m) => m.SosListPage), guarded),
      },
      {
        path: ':caseId',
        lazy: lazyPage(
          () => import('./sos-case-page').then((m) => m.SosCasePage),
          (page) => <RequireCaseReader>{page}</RequireCaseReader>,
        ),
      },
    ],
  },
  {
    path: 'tickets',
    element: <Outlet />,
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./tickets-page').then((m) => m.TicketsPage), guarded),
      },
      {
        path: 'statistics',
        lazy: lazyPage(() => import('./ticket-statistics-page').then((m) => m.TicketStatisticsPage), guarded),
      },
      {
        // A ticket is read like a case: a doctor opens those of patients in their care (the server
        // decides which), and acts where the server offers actions.
        path: ':ticketId',
        lazy: lazyPage(
          () => import('./ticket-detail-page').then((m) => m.TicketDetailPage),
          (page) => <RequireCaseReader>{page}</RequireCaseReader>,
        ),
      },
    ],
  },
  {
    path: 'messages',
    lazy: lazyPage(() => import('./messages-page').then((m) => m.MessagesPage), guarded),
  },
];
