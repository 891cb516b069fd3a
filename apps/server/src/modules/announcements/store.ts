import type { ANNOUNCEMENT_SORT_FIELDS } from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { announcements, healthCenters, notifications, scopes } from '../../db/schema.js';
import { scopeSubtree } from '../staff/store.js';

export type AnnouncementRow = typeof announcements.$inferSelect;
export const ANNOUNCEMENT_KIND = 'announcement.published';

/** The part of the tenant an announcement's manager sees: everything, or some centers and a scope subtree. */
export type ManagerReach = { all: true } | { centerIds: readonly string[]; scopeId: string | null };

/** Announcements addressed inside the reach (a restricted caller never sees whole-tenant ones). */
export function withinReach(reach: ManagerReach): SQL | undefined {
  if ('all' in reach) return undefined;
  const byCenter = reach.centerIds.length === 0 ? sql`false` : inArray(announcements.audienceCenterId, [...reach.centerIds]);
  const byScope = reach.scopeId === null ? sql`false` : sql`${announcements.audienceScopeId} IN (${scopeSubtree(reach.scopeId)})`;
  return or(byCenter, byScope);
}

export async function findAnnouncement(tx: TenantTransaction, id: string, reach: ManagerReach): Promise<AnnouncementRow | undefined> {
  const rows = await tx.select().from(announcements).where(and(eq(announcements.id, id), withinReach(reach))).limit(1);
  return rows[0];
}

export async function lockAnnouncement(tx: TenantTransaction, id: string): Promise<AnnouncementRow | undefined> {
  const rows = await tx.select().from(announcements).where(eq(announcements.id, id)).for('update').limit(1);
  return rows[0];
}

const SORT_COLUMNS = {
  created: announcements.createdAt,
  title: announcements.title,
  publishAt: sql`coalesce(${announcements.publishedAt}, ${announcements.publishAt})`,
  status: announcements.status,
} satisfies Record<(typeof ANNOUNCEMENT_SORT_FIELDS)[number], unknown>;

export async function listAnnouncements(
  tx: TenantTransaction,
  reach: ManagerReach,
  query: { page: number; size: number; search?: string | undefined; status?: string | undefined; sortField: keyof typeof SORT_COLUMNS; sortType: 'asc' | 'desc' },
): Promise<{ rows: AnnouncementRow[]; total: number }> {
  const where = and(
    withinReach(reach),
    query.search === undefined || query.search === '' ? undefined : ilike(announcements.title, `%${query.search.replace(/[%_\\]/g, '\\$&')}%`),
    query.status === undefined ? undefined : eq(announcements.status, query.status),
  );
  const order = query.sortType === 'asc' ? asc : desc;
  const rows = await tx
    .select()
    .from(announcements)
    .where(where)
    .orderBy(order(SORT_COLUMNS[query.sortField]), desc(announcements.id))
    .limit(query.size)
    .offset(query.page * query.size);
  const [total] = await tx.select({ total: count() }).from(announcements).where(where);
  return { rows, total: total?.total ?? 0 };
}

/** Recipients (notices written) and readers (notices read) per announcement. */
export async function readCounts(tx: TenantTransaction, ids: readonly string[]): Promise<Map<string, { recipients: number; read: number }>> {
  if (ids.length === 0) return new Map();
  const key = sql<string>`${notifications.params} ->> 'announcementId'`;
  const rows = await tx
    .select({
      id: key,
      recipients: count(),
      read: sql<number>`count(*) FILTER (WHERE ${notifications.readAt} IS NOT NULL)`.mapWith(Number),
    })
    .from(notifications)
    .where(and(eq(notifications.kind, ANNOUNCEMENT_KIND), inArray(key, [...ids])))
    .groupBy(key);
  return new Map(rows.map((row) => [row.id, { recipients: row.recipients, read: row.read }]));
}

export async function placeNames(tx: TenantTransaction, rows: readonly AnnouncementRow[]): Promise<Map<string, string>> {
  const centerIds = rows.flatMap((row) => (row.audienceCenterId === null ? [] : [row.audienceCenterId]));
  const scopeIds = rows.flatMap((row) => (row.audienceScopeId === null ? [] : [row.audienceScopeId]));
  const names = new Map<string, string>();
  if (centerIds.length > 0) {
    for (const row of await tx.select({ id: healthCenters.id, name: healthCenters.name }).from(healthCenters).where(inArray(healthCenters.id, centerIds))) {
      names.set(row.id, row.name);
    }
  }
  if (scopeIds.length > 0) {
    for (const row of await tx.select({ id: scopes.id, name: scopes.name }).from(scopes).where(inArray(scopes.id, scopeIds))) names.set(row.id, row.name);
  }
  return names;
}

/**
 * The next accounts of the audience after `after` (account-id order), at most `limit`: staff of
 * the chosen roles placed there (their main level) and the accounts of the patients there (a
 * sub-user's holder). The whole tenant includes patients of no center; a scope covers its subtree.
 * Deleted or disabled accounts are left out. Runs without a caller (the whole tenant is visible).
 */
export async function audienceAccounts(tx: TenantTransaction, row: AnnouncementRow, after: string | null, limit: number): Promise<{ id: string; email: string | null; language: string }[]> {
  const centers =
    row.audienceCenterId !== null
      ? sql`SELECT ${row.audienceCenterId}::uuid`
      : row.audienceScopeId !== null
        ? sql`SELECT id FROM health_centers WHERE scope_id IN (${scopeSubtree(row.audienceScopeId)})`
        : null;
  const staffPlace =
    centers === null
      ? sql`true`
      : row.audienceScopeId !== null
        ? sql`(staff.health_center_id IN (${centers}) OR staff.scope_id IN (${scopeSubtree(row.audienceScopeId)}))`
        : sql`staff.health_center_id IN (${centers})`;
  const patientPlace = centers === null ? sql`true` : sql`patient.health_center_id IN (${centers})`;
  const roles = row.audienceStaffRoles;
  const result = await tx.execute<{ id: string; email: string | null; language: string }>(sql`
    WITH audience AS (
      SELECT staff.id FROM users staff
      WHERE ${roles.length > 0 ? sql`staff.role IN (${sql.join(roles.map((role) => sql`${role}`), sql`, `)})` : sql`false`} AND ${staffPlace}
      UNION
      SELECT coalesce(patient.user_id, patient.holder_user_id) FROM patients patient
      WHERE ${row.audiencePatients ? sql`true` : sql`false`} AND ${patientPlace}
    )
    SELECT account.id, nullif(account.email, '') AS email, account.language
    FROM audience JOIN users account ON account.id = audience.id
    WHERE account.deleted_at IS NULL AND account.status NOT IN ('DISABLED', 'DELETED')
      AND (${after}::uuid IS NULL OR account.id > ${after}::uuid)
    ORDER BY account.id
    LIMIT ${limit}`);
  return result.rows;
}

/** Whether the account received the announcement (its notice exists); marks the notice read. */
export async function readAsRecipient(tx: TenantTransaction, announcementId: string, userId: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.kind, ANNOUNCEMENT_KIND), eq(notifications.recipientId, userId), sql`${notifications.params} ->> 'announcementId' = ${announcementId}`))
    .returning({ id: notifications.id });
  return rows.length > 0;
}
