import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { authRoutes } from './features/auth/routes';
import { homeRoutes } from './features/home/routes';
import { RequireSession } from './features/session/require-session';
import { SessionEndListener } from './features/session/session-end-listener';

/**
 * Every screen, one routes file per feature: signed-out screens at the top level, signed-in ones
 * under the session guard. A new feature adds its routes file to the list it belongs in.
 */
const signedOut: RouteObject[] = [...authRoutes];
const signedIn: RouteObject[] = [...homeRoutes];

export function createAppRouter() {
  return createBrowserRouter(
    [
      {
        element: <SessionEndListener />,
        children: [...signedOut, { element: <RequireSession />, children: signedIn }, { path: '*', element: <Navigate to="/" replace /> }],
      },
    ],
    // The server serves the app under /app/ (vite.config.ts base).
    { basename: '/app' },
  );
}
