import { queryOptions } from '@tanstack/react-query';
import { alertSettingsSchema, type AlertSettings } from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** The signed-in tenant's alert settings (GET /account/alert-settings): the come-down window among them. */
export const alertSettingsQuery = () =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'alert-settings'],
    queryFn: ({ signal }) => api.get('/account/alert-settings', { schema: alertSettingsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** Saves the signed-in tenant's alert settings; the other values go back as they were read. */
export function updateAlertSettings(input: AlertSettings) {
  return api.put('/account/alert-settings', input, { schema: alertSettingsSchema });
}
