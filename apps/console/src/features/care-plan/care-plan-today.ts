import { TENANT_SETTING_DEFAULTS } from '@rpm/contracts';
import { usableTimeZone } from '../../lib/format';
import { useSession } from '../shell/session-context';
import { todayIn } from './form-values';

/**
 * Today as the care plan counts days: the patient's calendar day. The console does not know a
 * patient's own zone, so it uses the tenant's, which is every patient's default (the server, which
 * knows, decides states and doses; this only sets the form's first dates and the day to look at).
 */
export function useCarePlanToday(): string {
  const session = useSession();
  return todayIn(usableTimeZone(session.settings.TIME_ZONE ?? TENANT_SETTING_DEFAULTS.TIME_ZONE));
}
