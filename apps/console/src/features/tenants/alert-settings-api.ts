import { queryOptions } from '@tanstack/react-query';
import { alertSettingsSchema, type AlertSettings } from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/**
 * Where a tenant's alert settings (the come-down window among them) are read and saved: the
 * signed-in tenant's through its own call (GET /account/alert-settings), another tenant's through
 * the tenant screens' call (/manage/sadmin/tenant/{id}/alert-settings, platform staff).
 */
const pathOf = (otherTenantId: string | undefined) =>
  otherTenantId === undefined
    ? '/account/alert-settings'
    : `/manage/sadmin/tenant/${encodeURIComponent(otherTenantId)}/alert-settings`;

/** The alert settings of the signed-in tenant (no id) or of another tenant. */
export const alertSettingsQuery = (otherTenantId?: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, 'alert-settings', otherTenantId ?? 'own'],
    queryFn: ({ signal }) => api.get(pathOf(otherTenantId), { schema: alertSettingsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

/** Saves the alert settings (of the signed-in tenant, or of another); the other values go back as they were read. */
export function updateAlertSettings(input: AlertSettings, otherTenantId?: string) {
  return api.put(pathOf(otherTenantId), input, { schema: alertSettingsSchema });
}
