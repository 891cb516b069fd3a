import type { FollowerGrant, LiveEvent, PatientFacts } from '@rpm/contracts';
import { and, asc, desc, eq, gt, inArray, max } from 'drizzle-orm';
import type { SystemStore, TenantTransaction } from '../../db/database.js';
import { events, followerGrants, patients, sessions } from '../../db/schema.js';

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

/**
 * Events after `afterId` with what the access rule needs to know of their patient as it is now
 * (null: no such patient any more): its account, center, holder and followers. For the hub, which
 * reads the whole tenant once and decides per socket.
 */
export async function eventsWithPatientsAfter(
  tx: TenantTransaction,
  afterId: number,
  limit = EVENT_PAGE,
): Promise<{ event: LiveEvent; patient: PatientFacts | null }[]> {
  const rows = await tx
    .select({
      event: events,
      patientUserId: patients.userId,
      patientCenterId: patients.healthCenterId,
      patientHolderId: patients.holderUserId,
      patientFound: patients.id,
    })
    .from(events)
    .leftJoin(patients, and(eq(patients.tenantId, events.tenantId), eq(patients.id, events.patientId)))
    .where(gt(events.id, afterId))
    .orderBy(asc(events.id))
    .limit(limit);
  const followersOf = await followersOfPatients(tx, rows.flatMap(({ patientFound }) => (patientFound === null ? [] : [patientFound])));
  return rows.map(({ event: row, patientUserId, patientCenterId, patientHolderId, patientFound }) => ({
    event: {
      id: row.id,
      type: row.type,
      patientId: row.patientId,
      healthCenterId: row.healthCenterId,
      payload: row.payload,
      createdAt: row.createdAt.toISOString(),
    },
    patient:
      patientFound === null
        ? null
        : {
            tenantId: row.tenantId,
            userId: patientUserId,
            healthCenterId: patientCenterId,
            holderUserId: patientHolderId,
            followers: followersOf.get(patientFound) ?? [],
          },
  }));
}

/** The follower grants of these patients (a confirmed contact with an account: migration 0037). */
async function followersOfPatients(tx: TenantTransaction, patientIds: readonly string[]): Promise<Map<string, FollowerGrant[]>> {
  const byPatient = new Map<string, FollowerGrant[]>();
  const distinct = [...new Set(patientIds)];
  if (distinct.length === 0) return byPatient;
  const grants = await tx
    .select({ patientId: followerGrants.patientId, userId: followerGrants.followerUserId, hiddenKinds: followerGrants.hiddenKinds })
    .from(followerGrants)
    .where(inArray(followerGrants.patientId, distinct));
  for (const grant of grants) {
    const list = byPatient.get(grant.patientId) ?? [];
    list.push({ userId: grant.userId, hiddenKinds: grant.hiddenKinds });
    byPatient.set(grant.patientId, list);
  }
  return byPatient;
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
