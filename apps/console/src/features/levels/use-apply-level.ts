import { useMutation, useQueryClient } from '@tanstack/react-query';
import { areaOfRole } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../lib/notify';
import { permissionsQuery, SESSION_QUERY_ROOT, sessionQuery } from '../auth/auth-api';
import { useSession } from '../shell/session-context';
import { LEVELS_QUERY_ROOT, switchLevel } from './levels-api';

/**
 * Switches the session's level, tenant or narrowing. Everything the console holds was read at the
 * old level, so afterwards: the session and its permissions take the answer at once (the menu and
 * the area follow without a blank startup screen), the level options are read again before
 * anything else (the screens choose their calls by them), then every other cached query — tenant
 * settings and every list included — is invalidated and re-run. A new role may live in another
 * area: go to its home.
 */
export function useApplyLevel(onApplied?: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const session = useSession();
  return useMutation({
    mutationFn: switchLevel,
    meta: { errorDisplay: 'inline' },
    onSuccess: async (context) => {
      const { levelId: _levelId, scopeId: _scopeId, centerId: _centerId, permissions, ...user } = context;
      queryClient.setQueryData(sessionQuery().queryKey, user);
      queryClient.setQueryData(permissionsQuery(user.userId).queryKey, permissions);
      await queryClient.invalidateQueries({ queryKey: LEVELS_QUERY_ROOT });
      void queryClient.invalidateQueries({
        predicate: (query) =>
          query.queryKey[0] === SESSION_QUERY_ROOT && query.queryKey[1] !== LEVELS_QUERY_ROOT[1],
      });
      const area = areaOfRole(user.role);
      if (area !== session.area) void navigate(`/${area}`);
      notifySuccess(t('levels.switched'));
      onApplied?.();
    },
  });
}
