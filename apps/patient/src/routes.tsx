import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { alertsRoutes } from './features/alerts/routes';
import { appointmentsRoutes } from './features/appointments/routes';
import { authRoutes } from './features/auth/routes';
import { carePlanRoutes } from './features/care-plan/routes';
import { contactsRoutes } from './features/contacts/routes';
import { deviceRoutes } from './features/devices/routes';
import { doctorsRoutes } from './features/doctors/routes';
import { entryRoutes } from './features/entry/routes';
import { feedbackRoutes } from './features/feedback/routes';
import { healthRoutes } from './features/health/routes';
import { homeRoutes } from './features/home/routes';
import { medicalRecordsRoutes } from './features/medical-records/routes';
import { notificationsRoutes } from './features/notifications/routes';
import { profilesRoutes } from './features/profiles/routes';
import { RequireSession } from './features/session/require-session';
import { SessionEndListener } from './features/session/session-end-listener';
import { AppShell } from './features/shell/app-shell';
import { sportRoutes } from './features/sport/routes';
import { ticketsRoutes } from './features/tickets/routes';
import { subscriptionRoutes } from './features/subscription/routes';
import { videoRoutes } from './features/video/routes';
import { visitorRoutes } from './features/visitor/routes';

/**
 * Every screen, one routes file per feature: signed-out screens (and visitor mode) at the top
 * level, signed-in ones under the session guard and the app shell. A new feature adds its routes
 * file to the list it belongs in.
 */
const signedOut: RouteObject[] = [...authRoutes, ...visitorRoutes];
const signedIn: RouteObject[] = [
  ...homeRoutes,
  ...healthRoutes,
  ...sportRoutes,
  ...entryRoutes,
  ...deviceRoutes,
  ...alertsRoutes,
  ...notificationsRoutes,
  ...contactsRoutes,
  ...profilesRoutes,
  ...doctorsRoutes,
  ...carePlanRoutes,
  ...medicalRecordsRoutes,
  ...appointmentsRoutes,
  ...videoRoutes,
  ...feedbackRoutes,
  ...ticketsRoutes,
  ...subscriptionRoutes,
];

export function createAppRouter() {
  return createBrowserRouter(
    [
      {
        element: <SessionEndListener />,
        children: [
          ...signedOut,
          { element: <RequireSession />, children: [{ element: <AppShell />, children: signedIn }] },
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
    // The server serves the app under /app/ (vite.config.ts base).
    { basename: '/app' },
  );
}
