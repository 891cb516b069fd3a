import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TenantDetail } from '@rpm/contracts';
import { tenantSettingsQuery } from '../auth/auth-api';
import { useSession } from '../shell/session-context';
import { TENANTS_QUERY_ROOT, tenantDetailQuery } from './tenants-api';

/**
 * After a change that answers with the tenant's detail: show the answer at once, refresh the lists,
 * and when the tenant is the one the caller is acting in, reload its branding so the new colour,
 * font or logo shows now rather than only after the next sign-in.
 */
export function useTenantSaved(): (detail: TenantDetail) => void {
  const queryClient = useQueryClient();
  const session = useSession();
  return useCallback(
    (detail: TenantDetail) => {
      queryClient.setQueryData(tenantDetailQuery(detail.id).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: [...TENANTS_QUERY_ROOT, 'list'] });
      if (detail.id === session.user.tenantId)
        void queryClient.invalidateQueries({ queryKey: tenantSettingsQuery(session.user.userId).queryKey });
    },
    [queryClient, session.user.tenantId, session.user.userId],
  );
}
