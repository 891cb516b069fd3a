import type { AlertSettings } from '@rpm/contracts';
import { alertSettings } from '../../db/schema.js';
import { readAlertSettings } from '../alerts/records.js';
import { recordAudit } from '../audit/store.js';
import { findManageableTenant, type TenantAdminEnvironment } from './admin-service.js';

/**
 * Another tenant's alert settings from the tenant screens (the high-risk confirmation, the SOS KPI
 * and the come-down window of docs/status-lifecycle.md): the tenant's own staff use
 * /account/alert-settings; platform staff who manage the tenant use these. Read and written in the
 * tenant's own database, with the audit row there.
 */
export async function readTenantAlertSettings(environment: TenantAdminEnvironment, tenantId: string): Promise<AlertSettings> {
  const tenant = await findManageableTenant(environment, tenantId);
  return environment.database.withTenant(tenant.id, (tx) => readAlertSettings(tx, tenant.id));
}

/** PUT /manage/sadmin/tenant/{id}/alert-settings (statusSettleMinutes omitted: unchanged). */
export async function updateTenantAlertSettings(environment: TenantAdminEnvironment, tenantId: string, input: AlertSettings): Promise<AlertSettings> {
  const tenant = await findManageableTenant(environment, tenantId);
  const now = environment.clock.now();
  return environment.database.withTenant(tenant.id, async (tx) => {
    const values = {
      highRiskConfirmSeconds: input.highRiskConfirmSeconds,
      sosKpiMinutes: input.sosKpiMinutes,
      ...(input.statusSettleMinutes === undefined ? {} : { statusSettleMinutes: input.statusSettleMinutes }),
      updatedAt: now,
      // The caller is an account of another tenant: not one of this tenant's users.
      updatedBy: null,
    };
    await tx.insert(alertSettings).values({ tenantId: tenant.id, ...values }).onConflictDoUpdate({ target: alertSettings.tenantId, set: values });
    await recordAudit(tx, tenant.id, environment.audit, {
      action: 'ALERT_SETTINGS_UPDATED',
      targetType: 'tenant',
      targetId: tenant.id,
      details: { ...input },
      at: now,
    });
    return readAlertSettings(tx, tenant.id);
  });
}
