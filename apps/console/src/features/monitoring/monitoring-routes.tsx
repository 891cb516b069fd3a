import { Outlet, type RouteObject } from 'react-router';
import { ForbiddenPage } from '../shell/forbidden-page';
import { RequirePermission, usePermissions } from '../shell/permissions';
import { MessagesPage } from './messages-page';
import { SosCasePage } from './sos-case-page';
import { SosListPage } from './sos-list-page';
import { TicketDetailPage } from './ticket-detail-page';
import { TicketStatisticsPage } from './ticket-statistics-page';
import { TicketsPage } from './tickets-page';

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
  return <>{SOS_CASE_READ_PERMISSIONS.some((permission) => can(permission)) ? children : <ForbiddenPage />}</>;
}

/** SOS call list, patient in SOS, tickets (list, detail, statistics), SMS and call management. */
export const monitoringRoutes: RouteObject[] = [
  {
    path: 'sos',
    element: <Outlet />,
    children: [
      { index: true, element: guarded(<SosListPage />) },
      {
        path: ':caseId',
        element: (
          <RequireCaseReader>
            <SosCasePage />
          </RequireCaseReader>
        ),
      },
    ],
  },
  {
    path: 'tickets',
    element: <Outlet />,
    children: [
      { index: true, element: guarded(<TicketsPage />) },
      { path: 'statistics', element: guarded(<TicketStatisticsPage />) },
      {
        // A ticket is read like a case: a doctor opens those of patients in their care (the server
        // decides which), and acts where the server offers actions.
        path: ':ticketId',
        element: (
          <RequireCaseReader>
            <TicketDetailPage />
          </RequireCaseReader>
        ),
      },
    ],
  },
  { path: 'messages', element: guarded(<MessagesPage />) },
];
