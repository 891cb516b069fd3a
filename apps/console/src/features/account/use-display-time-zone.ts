import { useQuery } from '@tanstack/react-query';
import { setDisplayTimeZone } from '../../lib/format';
import { useOptionalSession } from '../shell/session-context';
import { profileQuery } from './account-api';

/**
 * Shows dates in the signed-in user's time zone (their profile's), else the browser's: the
 * formatting layer reads the zone set here. Called once by the signed-in layout, which draws its
 * pages once this says the zone is known (the profile loaded, or failed to: the browser's zone).
 */
export function useDisplayTimeZone(): boolean {
  const session = useOptionalSession();
  const profile = useQuery({ ...profileQuery(session?.user.userId ?? ''), enabled: session !== null });
  // Set while rendering (an idempotent assignment), so the pages rendered below already use it.
  setDisplayTimeZone(session === null ? undefined : profile.data?.timeZone);
  return session === null || !profile.isPending;
}
