import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { LoginLocationState, LoginNotice } from './return-path';

const PUBLIC_PATHS = ['/login', '/privacy', '/terms', '/register', '/forgot-password'];

/**
 * From the moment a session ends (signed out, or told so by the server) until the login page is
 * shown. Meanwhile the session's calls still in flight come back 401, since the server has ended
 * it: SessionEndListener ignores those, so the first reason (such as "You have signed out.") is
 * the one the login page shows.
 */
let isEnding = false;

export function isSessionEnding(): boolean {
  return isEnding;
}

/** The login page is shown: the next session's end is announced again. */
export function sessionEndShown(): void {
  isEnding = false;
}

/**
 * Ends the session on the client: go to /login, remembering where the user was unless they chose
 * to leave. The login page itself drops the previous session's cache (see useForgetSession).
 */
export function useEndSession(): (notice: LoginNotice) => void {
  const navigate = useNavigate();
  const location = useLocation();

  return useCallback(
    (notice: LoginNotice) => {
      isEnding = true;
      const state: LoginLocationState = { notice };
      if (notice !== 'signedOut' && !PUBLIC_PATHS.includes(location.pathname)) {
        state.from = `${location.pathname}${location.search}${location.hash}`;
      }
      void navigate('/login', { replace: true, state });
    },
    [location.pathname, location.search, location.hash, navigate],
  );
}
