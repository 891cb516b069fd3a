import type { TenantRequestStatus } from '@rpm/contracts';
import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { SystemStore } from '../../db/database.js';
import { tenantRequests } from '../../db/schema.js';
import type { ControlPlane } from '../tenants/store.js';

export type TenantRequestRow = typeof tenantRequests.$inferSelect;

export async function insertTenantRequest(controlPlane: ControlPlane, row: typeof tenantRequests.$inferInsert): Promise<TenantRequestRow> {
  const [created] = await controlPlane.insert(tenantRequests).values(row).returning();
  if (!created) throw new Error('tenant request insert returned no row');
  return created;
}

export async function listTenantRequests(
  system: SystemStore,
  query: { page: number; size: number; status?: TenantRequestStatus | undefined; search?: string | undefined },
) {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(tenantRequests.status, query.status));
  if (query.search) {
    const pattern = `%${query.search.replace(/[%_\\]/g, '\\$&')}%`;
    const match = or(
      ilike(tenantRequests.organizationName, pattern),
      ilike(tenantRequests.requesterName, pattern),
      ilike(tenantRequests.email, pattern),
      ilike(tenantRequests.requestedCode, pattern),
    );
    if (match) conditions.push(match);
  }
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [items, totals] = await Promise.all([
    system.select().from(tenantRequests).where(where).orderBy(desc(tenantRequests.createdAt), desc(tenantRequests.id)).limit(query.size).offset(query.page * query.size),
    system.select({ total: count() }).from(tenantRequests).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function findTenantRequest(controlPlane: ControlPlane, id: string): Promise<TenantRequestRow | undefined> {
  const rows = await controlPlane.select().from(tenantRequests).where(eq(tenantRequests.id, id)).limit(1);
  return rows[0];
}

/** The request, locked until the transaction ends: two decisions on it are serialised. */
export async function lockTenantRequest(controlPlane: ControlPlane, id: string): Promise<TenantRequestRow | undefined> {
  const rows = await controlPlane.select().from(tenantRequests).where(eq(tenantRequests.id, id)).limit(1).for('update');
  return rows[0];
}

export async function decideTenantRequest(
  controlPlane: ControlPlane,
  id: string,
  decision: Pick<TenantRequestRow, 'status' | 'decidedAt' | 'decidedBy'> & Partial<Pick<TenantRequestRow, 'rejectionReason' | 'createdTenantId'>>,
): Promise<TenantRequestRow> {
  const [decided] = await controlPlane
    .update(tenantRequests)
    .set(decision)
    .where(and(eq(tenantRequests.id, id), eq(tenantRequests.status, 'NEW')))
    .returning();
  if (!decided) throw new Error(`tenant request ${id} was decided meanwhile`);
  return decided;
}
