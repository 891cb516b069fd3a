import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSetBranding } from '../shell/branding';
import { SESSION_QUERY_ROOT } from './auth-api';
import { sessionEndShown } from './use-end-session';

/**
 * Drops everything cached for the previous user and their tenant's branding. Run by the login page
 * when it mounts: by then the startup gate has unmounted, so nothing asks the server again, and
 * the next user never sees the previous one's data.
 */
export function useForgetSession(): void {
  const queryClient = useQueryClient();
  const setBranding = useSetBranding();
  useEffect(() => {
    queryClient.removeQueries({ queryKey: [SESSION_QUERY_ROOT] });
    setBranding(null);
    sessionEndShown();
  }, [queryClient, setBranding]);
}
