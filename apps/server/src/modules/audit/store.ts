import type { AuditAction } from '@rpm/contracts';
import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';

/** Who did it, from where: taken from the request (see auditContextOf). */
export interface AuditContext {
  actorUserId: string | null;
  actorTenantId: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** What a background job records as the actor: nobody, from nowhere. */
export const JOB_AUDIT_CONTEXT: AuditContext = { actorUserId: null, actorTenantId: null, ip: null, userAgent: null, requestId: null };

export interface AuditEntry {
  action: AuditAction;
  /** Whose account or record the action concerns (shown in their log history). */
  subjectUserId?: string | null;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  at?: Date;
}

/** The row an audit entry writes. */
function auditRowOf(tenantId: string, context: AuditContext, entry: AuditEntry) {
  return {
    tenantId,
    id: uuidv7(),
    action: entry.action,
    actorUserId: context.actorUserId,
    actorTenantId: context.actorTenantId,
    subjectUserId: entry.subjectUserId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    ip: context.ip,
    userAgent: context.userAgent?.slice(0, 300) ?? null,
    requestId: context.requestId,
    details: entry.details ?? {},
    ...(entry.at ? { occurredAt: entry.at } : {}),
  };
}

/**
 * Writes one audit row in the caller's transaction, so the record exists exactly when the change
 * it describes does. The table is append-only for the app role.
 */
export async function recordAudit(tx: TenantTransaction, tenantId: string, context: AuditContext, entry: AuditEntry) {
  await tx.insert(auditLog).values(auditRowOf(tenantId, context, entry));
}

/**
 * The insert of one audit row as a statement not yet run, for a caller that writes it together
 * with its own change in one statement (WITH audit AS (…) …): same row as recordAudit writes.
 */
export function auditInsertOf(tx: TenantTransaction, tenantId: string, context: AuditContext, entry: AuditEntry): SQL {
  return tx.insert(auditLog).values(auditRowOf(tenantId, context, entry)).getSQL();
}

export interface AuditQuery {
  subjectUserId?: string;
  action?: string;
  from?: Date;
  to?: Date;
  page: number;
  size: number;
}

export async function listAudit(tx: TenantTransaction, query: AuditQuery) {
  const conditions: SQL[] = [];
  if (query.subjectUserId) conditions.push(eq(auditLog.subjectUserId, query.subjectUserId));
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.from) conditions.push(gte(auditLog.occurredAt, query.from));
  if (query.to) conditions.push(lte(auditLog.occurredAt, query.to));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [items, totals] = await Promise.all([
    tx.select().from(auditLog).where(where).orderBy(desc(auditLog.occurredAt), desc(auditLog.id)).limit(query.size).offset(query.page * query.size),
    tx.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { items, total: totals[0]?.total ?? 0 };
}
