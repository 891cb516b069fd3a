import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { MessagesPage } from './messages-page';
import { SosCasePage } from './sos-case-page';
import { SosListPage } from './sos-list-page';
import { TicketDetailPage } from './ticket-detail-page';
import { TicketStatisticsPage } from './ticket-statistics-page';
import { TicketsPage } from './tickets-page';

const guarded = (element: React.ReactNode) => (
  <RequirePermission permission="health.sos">{element}</RequirePermission>
);

/** SOS call list, patient in SOS, tickets (list, detail, statistics), SMS and call management. */
export const monitoringRoutes: RouteObject[] = [
  {
    path: 'sos',
    element: guarded(<Outlet />),
    children: [
      { index: true, element: <SosListPage /> },
      { path: ':caseId', element: <SosCasePage /> },
    ],
  },
  {
    path: 'tickets',
    element: guarded(<Outlet />),
    children: [
      { index: true, element: <TicketsPage /> },
      { path: 'statistics', element: <TicketStatisticsPage /> },
      { path: ':ticketId', element: <TicketDetailPage /> },
    ],
  },
  { path: 'messages', element: guarded(<MessagesPage />) },
];
