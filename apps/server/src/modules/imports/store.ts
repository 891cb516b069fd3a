import type { ImportKindCode, ImportListQuery, ImportStatus } from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { importJobs } from '../../db/schema.js';

export type ImportJobRow = typeof importJobs.$inferSelect;

/** Which jobs a caller may see: kinds they may import; everyone's, or only their own. */
export interface JobVisibility {
  kinds: readonly ImportKindCode[];
  /** null: every user's jobs (a caller who sees the whole tenant). */
  ownerId: string | null;
}

function visibleTo(visibility: JobVisibility): SQL | undefined {
  const byKind = inArray(importJobs.kind, visibility.kinds.length > 0 ? [...visibility.kinds] : ['']);
  return visibility.ownerId === null ? byKind : and(byKind, eq(importJobs.createdBy, visibility.ownerId));
}

const ACTIVE: ImportStatus[] = ['QUEUED', 'RUNNING'];

/** The tenant's QUEUED or RUNNING job, whoever started it (one at most: import_jobs_one_active). */
export async function findActiveJob(tx: TenantTransaction): Promise<ImportJobRow | undefined> {
  const [row] = await tx.select().from(importJobs).where(inArray(importJobs.status, ACTIVE)).limit(1);
  return row;
}

/** Inserts a QUEUED job; a unique violation means another job is active. */
export async function insertJob(
  tx: TenantTransaction,
  values: typeof importJobs.$inferInsert,
): Promise<ImportJobRow> {
  const [row] = await tx.insert(importJobs).values(values).returning();
  if (row === undefined) throw new Error('import job not created');
  return row;
}

export async function findJob(
  tx: TenantTransaction,
  id: string,
  visibility: JobVisibility,
): Promise<ImportJobRow | undefined> {
  const [row] = await tx
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.id, id), visibleTo(visibility)))
    .limit(1);
  return row;
}

/** The active job of a kind if the caller sees it, else their latest of that kind. */
export async function findCurrentJob(
  tx: TenantTransaction,
  kind: ImportKindCode,
  visibility: JobVisibility,
): Promise<ImportJobRow | undefined> {
  const [row] = await tx
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.kind, kind), visibleTo(visibility)))
    .orderBy(desc(inArray(importJobs.status, ACTIVE)), desc(importJobs.createdAt), desc(importJobs.id))
    .limit(1);
  return row;
}

const SORT_COLUMNS = {
  created: importJobs.createdAt,
  fileName: importJobs.fileName,
  status: importJobs.status,
} as const;

export async function listJobs(tx: TenantTransaction, query: ImportListQuery, visibility: JobVisibility) {
  const conditions: (SQL | undefined)[] = [visibleTo(visibility)];
  if (query.kind !== undefined) conditions.push(eq(importJobs.kind, query.kind));
  if (query.search !== undefined && query.search !== '') {
    conditions.push(
      ilike(importJobs.fileName, `%${query.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`),
    );
  }
  const where = and(...conditions);
  const order = query.sortType === 'asc' ? asc : desc;
  const [items, totals] = await Promise.all([
    tx
      .select()
      .from(importJobs)
      .where(where)
      .orderBy(order(SORT_COLUMNS[query.sortField]), desc(importJobs.createdAt), desc(importJobs.id))
      .limit(query.size)
      .offset(query.page * query.size),
    tx.select({ total: count() }).from(importJobs).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}

export async function updateJob(
  tx: TenantTransaction,
  id: string,
  values: Partial<typeof importJobs.$inferInsert>,
): Promise<ImportJobRow | undefined> {
  const [row] = await tx.update(importJobs).set(values).where(eq(importJobs.id, id)).returning();
  return row;
}

/**
 * Ends every active job whose heartbeat is older than `staleBefore` (its process is gone) and
 * returns them: PARTIAL when it had stored rows (they stay), else FAILED. Rows being updated by a live runner are skipped (SKIP LOCKED).
 */
export async function failStaleJobs(
  tx: TenantTransaction,
  staleBefore: Date,
  now: Date,
  failureCode: string,
): Promise<ImportJobRow[]> {
  const stale = await tx
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(inArray(importJobs.status, ACTIVE), lt(importJobs.heartbeatAt, staleBefore)))
    .for('update', { skipLocked: true });
  if (stale.length === 0) return [];
  return tx
    .update(importJobs)
    .set({
      status: sql`CASE WHEN ${importJobs.rowsStored} > 0 THEN 'PARTIAL' ELSE 'FAILED' END`,
      failureCode,
      finishedAt: now,
      heartbeatAt: now,
    })
    .where(
      and(
        inArray(
          importJobs.id,
          stale.map((row) => row.id),
        ),
        or(...ACTIVE.map((status) => eq(importJobs.status, status))),
      ),
    )
    .returning();
}
