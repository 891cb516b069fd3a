import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { LoginLocationState, LoginNotice } from './return-path';

const PUBLIC_PATHS = ['/login', '/privacy', '/terms', '/register', '/forgot-password'];

/**
 * Ends the session on the client: go to /login, remembering where the user was unless they chose
 * to leave. The login page itself drops the previous session's cache (see useForgetSession).
 */
export function useEndSession(): (notice: LoginNotice) => void {
  const navigate = useNavigate();
  const location = useLocation();

  return useCallback(
    (notice: LoginNotice) => {
      const state: LoginLocationState = { notice };
      if (notice !== 'signedOut' && !PUBLIC_PATHS.includes(location.pathname)) {
        state.from = `${location.pathname}${location.search}${location.hash}`;
      }
      void navigate('/login', { replace: true, state });
    },
    [location.pathname, location.search, location.hash, navigate],
  );
}
