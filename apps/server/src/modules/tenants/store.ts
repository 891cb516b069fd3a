import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SystemStore } from '../../db/database.js';
import { tenants, tenantSettings } from '../../db/schema.js';

export type TenantRow = typeof tenants.$inferSelect;

/** Customer tenants people log in to (the platform tenant is not offered in pickers). */
export function listActiveTenants(system: SystemStore): Promise<TenantRow[]> {
  return system
    .select()
    .from(tenants)
    .where(and(eq(tenants.status, 'ACTIVE'), eq(tenants.isPlatform, false)))
    .orderBy(asc(tenants.name));
}

export async function findPlatformTenant(system: SystemStore): Promise<TenantRow> {
  const rows = await system.select().from(tenants).where(eq(tenants.isPlatform, true)).limit(1);
  const platform = rows[0];
  if (platform === undefined) throw new Error('the platform tenant is missing: migrations were not applied');
  return platform;
}

export async function findActiveTenantByCode(system: SystemStore, code: string): Promise<TenantRow | undefined> {
  const rows = await system
    .select()
    .from(tenants)
    .where(and(eq(tenants.code, code.trim().toLowerCase()), eq(tenants.status, 'ACTIVE')))
    .limit(1);
  return rows[0];
}

export async function findTenantById(system: SystemStore, id: string): Promise<TenantRow | undefined> {
  const rows = await system.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  return rows[0];
}

export async function readTenantSettings(system: SystemStore, tenantId: string): Promise<Map<string, string>> {
  const rows = await system.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId));
  return new Map(rows.map((row) => [row.key, row.value]));
}

export function findTenantsByIds(system: SystemStore, ids: string[]): Promise<TenantRow[]> {
  return system.select().from(tenants).where(inArray(tenants.id, [...new Set(ids)]));
}
