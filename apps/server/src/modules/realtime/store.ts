import type { LiveEvent } from '@rpm/contracts';
import { and, asc, desc, eq, gt, max } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { events, sessions } from '../../db/schema.js';

export const EVENT_PAGE = 500;

/** Events after `afterId` in id (= commit) order, as far as the transaction may see them. */
export async function eventsAfter(
  tx: TenantTransaction,
  afterId: number,
  limit = EVENT_PAGE,
): Promise<LiveEvent[]> {
  const rows = await tx
    .select()
    .from(events)
    .where(gt(events.id, afterId))
    .orderBy(asc(events.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    patientId: row.patientId,
    healthCenterId: row.healthCenterId,
    payload: row.payload,
    createdAt: row.createdAt.toISOString(),
  }));
}

export async function lastEventId(tx: TenantTransaction): Promise<number> {
  const [row] = await tx.select({ id: max(events.id) }).from(events);
  return row?.id ?? 0;
}

/** The newest row of a session family: whether the login behind a live socket still holds. */
export async function latestSessionOfFamily(system: SystemStore, familyId: string) {
  const [row] = await system
    .select({
      revokedReason: sessions.revokedReason,
      tenantId: sessions.tenantId,
      refreshExpiresAt: sessions.refreshExpiresAt,
      expiresAt: sessions.expiresAt,
      levelId: sessions.levelId,
      filterScopeId: sessions.filterScopeId,
      filterCenterId: sessions.filterCenterId,
    })
    .from(sessions)
    .where(and(eq(sessions.familyId, familyId)))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  return row;
}
