import { useEffect } from 'react';
import { onSessionEnded } from '../../api/session-events';
import { useEndSession } from './use-end-session';

/** Turns "the server says this session is over" (401, 403 elsewhere) into the trip to /login. */
export function SessionEndListener() {
  const endSession = useEndSession();
  useEffect(() => onSessionEnded(endSession), [endSession]);
  return null;
}
