import { queryOptions } from '@tanstack/react-query';
import { levelContextSchema, levelOptionsSchema, type LevelSwitch } from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Under the session root: dropped at sign-out, refreshed after every level switch. */
export const LEVELS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'levels'] as const;

/**
 * The caller's levels, tenants, and the scopes and centers their level may narrow to. The header
 * switcher and every org screen read it (it also tells whether the caller sees the whole tenant),
 * so it is cached for the session and refreshed only when something changes it.
 */
export const levelOptionsQuery = () =>
  queryOptions({
    queryKey: [...LEVELS_QUERY_ROOT, 'options'],
    queryFn: ({ signal }) => api.get('/account/level/options', { schema: levelOptionsSchema, signal }),
    staleTime: 5 * 60_000,
    meta: { errorDisplay: 'inline' },
  });

export function switchLevel(input: LevelSwitch) {
  return api.put('/account/level', input, { schema: levelContextSchema });
}
