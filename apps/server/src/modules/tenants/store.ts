import { asc, eq, and } from 'drizzle-orm';
import type { SystemStore } from '../../db/database.js';
import { tenants, tenantSettings } from '../../db/schema.js';

export type TenantRow = typeof tenants.$inferSelect;

export function listActiveTenants(system: SystemStore): Promise<TenantRow[]> {
  return system.select().from(tenants).where(eq(tenants.status, 'ACTIVE')).orderBy(asc(tenants.name));
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
