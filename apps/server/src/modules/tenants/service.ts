import { createHash } from 'node:crypto';
import {
  PUBLIC_TENANT_SETTING_KEYS,
  TENANT_SETTING_DEFAULTS,
  type TenantLogoKind,
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

export function logoFileOf(tenant: TenantRow, kind: TenantLogoKind): string | null {
  switch (kind) {
    case 'square':
      return tenant.logoSquareFile;
    case 'horizontal':
      return tenant.logoHorizontalFile;
    case 'qr':
      return tenant.registrationQrFile;
  }
}

/**
 * The public URL of a tenant's image, or undefined when it has none. A short hash of the stored
 * file's key changes with every upload, so browsers and proxies may cache each version.
 */
export function logoUrlOf(tenant: TenantRow, kind: TenantLogoKind): string | undefined {
  const file = logoFileOf(tenant, kind);
  if (file === null || tenant.isPlatform) return undefined;
  const version = createHash('sha256').update(file).digest('hex').slice(0, 12);
  return `/manage/tenant/${encodeURIComponent(tenant.code)}/logo?kind=${kind}&v=${version}`;
}

/**
 * The settings a console needs at start: every public key, with the tenant's value or the spec's
 * default, and the tenant's logos. Secret keys (OCR, AI) never leave the server through this call.
 */
export async function readPublicSettings(system: SystemStore, tenantId: string): Promise<TenantSettingsResponse> {
  const tenant = await findTenantById(system, tenantId);
  const stored = tenant ? await readTenantSettings(system, tenant.id) : new Map<string, string>();
  const square = tenant && logoUrlOf(tenant, 'square');
  const horizontal = tenant && logoUrlOf(tenant, 'horizontal');
  return {
    tenant: tenant ? toTenantSummary(tenant) : null,
    settings: PUBLIC_TENANT_SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? TENANT_SETTING_DEFAULTS[key] })),
    logos: { ...(square ? { square } : {}), ...(horizontal ? { horizontal } : {}) },
  };
}
