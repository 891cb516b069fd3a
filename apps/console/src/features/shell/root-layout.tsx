import { Outlet } from 'react-router';
import { SessionEndListener } from '../auth/session-end-listener';

/** Wraps every route, public or not, so a session ending anywhere is handled the same way. */
export function RootLayout() {
  return (
    <>
      <SessionEndListener />
      <Outlet />
    </>
  );
}
