import {
  PUBLIC_TENANT_SETTING_KEYS,
  TENANT_SETTING_DEFAULTS,
  type TenantSettingsResponse,
  type TenantSummary,
} from '@rpm/contracts';
import type { SystemStore } from '../../db/database.js';
import { findTenantById, listActiveTenants, readTenantSettings, type TenantRow } from './store.js';

export function toTenantSummary(tenant: TenantRow): TenantSummary {
  return { id: tenant.id, code: tenant.code, name: tenant.name };
}

export async function listTenantsForLogin(system: SystemStore): Promise<TenantSummary[]> {
  return (await listActiveTenants(system)).map(toTenantSummary);
}

/**
 * The settings a console needs at start: every public key, with the tenant's value or the spec's
 * default. Secret keys (OCR, AI) never leave the server through this call.
 */
export async function readPublicSettings(system: SystemStore, tenantId: string): Promise<TenantSettingsResponse> {
  const tenant = await findTenantById(system, tenantId);
  const stored = tenant ? await readTenantSettings(system, tenant.id) : new Map<string, string>();
  return {
    tenant: tenant ? toTenantSummary(tenant) : null,
    settings: PUBLIC_TENANT_SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? TENANT_SETTING_DEFAULTS[key] })),
  };
}
