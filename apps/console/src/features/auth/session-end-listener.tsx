import { useEffect } from 'react';
import { onSessionEnded } from '../../api/session-events';
import { isSessionEnding, useEndSession } from './use-end-session';

/**
 * Turns "the server says this session is over" (401, 403 elsewhere) into the trip to /login, once:
 * while that trip is under way, and on the login page, the 401s of calls the ended session still
 * had in flight must not replace the reason the login page shows ("You have signed out.").
 */
export function SessionEndListener() {
  const endSession = useEndSession();
  useEffect(
    () =>
      onSessionEnded((reason) => {
        if (!isSessionEnding() && globalThis.location.pathname !== '/login') endSession(reason);
      }),
    [endSession],
  );
  return null;
}
