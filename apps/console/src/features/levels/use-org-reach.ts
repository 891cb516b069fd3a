import { useQuery } from '@tanstack/react-query';
import { levelOptionsQuery } from './levels-api';
import { seesWholeTenant } from './reach';

/**
 * What the org screens need to know about the session's level: whether it sees the whole tenant
 * (the /sadmin calls and the actions that change scopes and centers) and the scopes and centers
 * it may see (for selects and filters). `options` carries the query's loading and error state.
 */
export function useOrgReach() {
  const options = useQuery(levelOptionsQuery());
  return {
    options,
    isWholeTenant: options.data ? seesWholeTenant(options.data) : false,
    scopes: options.data?.scopes ?? [],
    centers: options.data?.centers ?? [],
  };
}
