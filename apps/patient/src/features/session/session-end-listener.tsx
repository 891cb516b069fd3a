import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate } from 'react-router';
import { onSessionEnd } from '../../api/client';
import { setActiveProfile } from '../../api/profile-store';
import type { LoginPageState } from '../auth/login-page';

/**
 * When the server ends the session (the account logged in elsewhere: single session), drops what
 * was cached for it and the active profile, and shows the login page with the spec's message.
 */
export function SessionEndListener() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSessionEnd((reason) => {
        setActiveProfile(null);
        queryClient.clear();
        const state: LoginPageState = { endedBecause: reason };
        void navigate('/login', { replace: true, state });
      }),
    [navigate, queryClient],
  );
  return <Outlet />;
}
