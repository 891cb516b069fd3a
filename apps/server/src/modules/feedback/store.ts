import type { FeedbackListQuery } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { feedback, feedbackImages, feedbackReplies } from '../../db/schema.js';
import { fullName } from '../care-plan/store.js';

/**
 * Feedback rows (migration 0049). Every query runs in the caller's transaction, so the database
 * decides what exists: a patient session its own account's feedback, staff the feedback of the
 * centers they see (and, in a sender's own reads, what they sent: {@link actAsSender}).
 */

export interface FeedbackRow extends Record<string, unknown> {
  id: string;
  type: string;
  category: string;
  description: string;
  suggestion: string | null;
  status: string;
  sender_id: string;
  sender_kind: string;
  sender_name: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  total: number;
}

export interface FeedbackImageRow extends Record<string, unknown> {
  id: string;
  feedback_id: string;
  name: string;
  content_type: string;
  size_bytes: number;
  storage_key: string;
}

export interface FeedbackReplyRow extends Record<string, unknown> {
  id: string;
  feedback_id: string;
  body: string;
  author_id: string | null;
  author_name: string | null;
  created_at: Date | string;
}

/**
 * Marks the transaction as the sender's own reads: the policy then also lets a staff sender reach
 * what it sent when its level no longer sees the center it was sent from (or it has none).
 */
export async function actAsSender(tx: TenantTransaction, userId: string): Promise<void> {
  await tx.execute(sql`SELECT set_config('app.feedback_sender', ${userId}, true)`);
}

/** The health center the sender works in or belongs to (its patient record's first), if any. */
export async function centerOfSender(tx: TenantTransaction, userId: string): Promise<string | null> {
  const result = await tx.execute<{ center: string | null }>(sql`
    SELECT coalesce(
      (SELECT p.health_center_id FROM patients p WHERE p.user_id = ${userId}::uuid AND p.health_center_id IS NOT NULL ORDER BY p.created_at LIMIT 1),
      (SELECT u.health_center_id FROM users u WHERE u.id = ${userId}::uuid)) AS center`);
  return result.rows[0]?.center ?? null;
}

const COLUMNS = sql`
  f.id, f.type, f.category, f.description, f.suggestion, f.status, f.sender_id, f.sender_kind,
  nullif(${fullName('sender')}, '') AS sender_name, f.created_at, f.updated_at`;
const JOINS = sql`LEFT JOIN users sender ON sender.tenant_id = f.tenant_id AND sender.id = f.sender_id`;

const SORT_COLUMNS = {
  created: sql`f.created_at`,
  updated: sql`f.updated_at`,
  status: sql`array_position(ARRAY['NEW', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'], f.status)`,
} as const satisfies Record<FeedbackListQuery['sortField'], unknown>;

const likePattern = (search: string | undefined) => {
  const trimmed = search?.trim();
  return trimmed ? `%${trimmed.replace(/[\\%_]/g, (character) => `\\${character}`)}%` : null;
};

/** The triage list: every feedback the caller sees, filtered, searched and sorted. */
export async function listFeedback(tx: TenantTransaction, query: FeedbackListQuery): Promise<FeedbackRow[]> {
  const pattern = likePattern(query.search);
  const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
  const result = await tx.execute<FeedbackRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM feedback f ${JOINS}
     WHERE (${query.status ?? null}::text IS NULL OR f.status = ${query.status ?? null})
       AND (${query.type ?? null}::text IS NULL OR f.type = ${query.type ?? null})
       AND (${query.category ?? null}::text IS NULL OR f.category = ${query.category ?? null})
       AND (${query.senderKind ?? null}::text IS NULL OR f.sender_kind = ${query.senderKind ?? null})
       AND (${pattern}::text IS NULL OR f.description ILIKE ${pattern} OR f.suggestion ILIKE ${pattern}
            OR ${fullName('sender')} ILIKE ${pattern})
     ORDER BY ${SORT_COLUMNS[query.sortField]} ${direction}, f.created_at DESC, f.id DESC
     LIMIT ${query.size} OFFSET ${query.page * query.size}`);
  return result.rows;
}

/** What one account sent, newest first. */
export async function listOwnFeedback(
  tx: TenantTransaction,
  senderId: string,
  page: { page: number; size: number },
): Promise<FeedbackRow[]> {
  const result = await tx.execute<FeedbackRow>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total
      FROM feedback f ${JOINS}
     WHERE f.sender_id = ${senderId}::uuid
     ORDER BY f.created_at DESC, f.id DESC
     LIMIT ${page.size} OFFSET ${page.page * page.size}`);
  return result.rows;
}

export async function findFeedback(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean; senderId?: string } = {},
): Promise<FeedbackRow | undefined> {
  const result = await tx.execute<FeedbackRow>(sql`
    SELECT ${COLUMNS}, 1 AS total
      FROM feedback f ${JOINS}
     WHERE f.id = ${id}::uuid
       ${options.senderId === undefined ? sql`` : sql`AND f.sender_id = ${options.senderId}::uuid`}
     ${options.lock === true ? sql`FOR UPDATE OF f` : sql``}`);
  return result.rows[0];
}

export async function imagesOf(tx: TenantTransaction, feedbackIds: string[]): Promise<FeedbackImageRow[]> {
  if (feedbackIds.length === 0) return [];
  const result = await tx.execute<FeedbackImageRow>(sql`
    SELECT id, feedback_id, name, content_type, size_bytes, storage_key
      FROM feedback_images
     WHERE feedback_id = ANY (${`{${feedbackIds.join(',')}}`}::uuid[])
     ORDER BY feedback_id, position`);
  return result.rows;
}

export async function repliesOf(tx: TenantTransaction, feedbackIds: string[]): Promise<FeedbackReplyRow[]> {
  if (feedbackIds.length === 0) return [];
  const result = await tx.execute<FeedbackReplyRow>(sql`
    SELECT r.id, r.feedback_id, r.body, r.author_id, nullif(${fullName('author')}, '') AS author_name, r.created_at
      FROM feedback_replies r
      LEFT JOIN users author ON author.tenant_id = r.tenant_id AND author.id = r.author_id
     WHERE r.feedback_id = ANY (${`{${feedbackIds.join(',')}}`}::uuid[])
     ORDER BY r.created_at, r.id`);
  return result.rows;
}

export async function insertFeedback(tx: TenantTransaction, row: typeof feedback.$inferInsert): Promise<void> {
  await tx.insert(feedback).values(row);
}

export async function insertImages(tx: TenantTransaction, rows: (typeof feedbackImages.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(feedbackImages).values(rows);
}

export async function insertReply(tx: TenantTransaction, row: typeof feedbackReplies.$inferInsert): Promise<void> {
  await tx.insert(feedbackReplies).values(row);
}

export async function setStatus(tx: TenantTransaction, id: string, status: string, at: Date): Promise<void> {
  await tx.execute(sql`UPDATE feedback SET status = ${status}, updated_at = ${at.toISOString()}::timestamptz WHERE id = ${id}::uuid`);
}
