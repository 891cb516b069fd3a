import {
  canMoveFeedback,
  FEEDBACK_CATEGORIES,
  FEEDBACK_IMAGE_TYPES,
  FEEDBACK_SENDER_KINDS,
  FEEDBACK_STATUSES,
  FEEDBACK_TYPES,
  type Feedback,
  type FeedbackListQuery,
  type FeedbackStatus,
} from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { AuditContext } from '../audit/store.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage, OpenedFile } from '../../lib/file-storage.js';
import { recordAudit } from '../audit/store.js';
import type { Page } from '../care-plan/store.js';
import { notify } from '../notifications/notify.js';
import type { ReceiveFeedback } from './receive-form.js';
import * as store from './store.js';

/**
 * Feedback (spec §3 Feedback, §5 files and feedback): any person of the tenant sends it with up to
 * five images; customer care (user.feedback) works through it by status and replies, each reply
 * reaching the sender's notification centre in the same transaction. Senders read their own.
 */

export interface FeedbackEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
  storage: FileStorage;
  log: { warn(details: object, message: string): void };
}

const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  values.find((candidate) => candidate === value) ?? fallback;

/** The rows of `rows` with their images and replies, two queries for all of them. */
async function assemble(tx: TenantTransaction, rows: store.FeedbackRow[]): Promise<Feedback[]> {
  const ids = rows.map((row) => row.id);
  const [images, replies] = await Promise.all([store.imagesOf(tx, ids), store.repliesOf(tx, ids)]);
  return rows.map((row) => ({
    id: row.id,
    type: oneOf(FEEDBACK_TYPES, row.type, 'ERROR'),
    category: oneOf(FEEDBACK_CATEGORIES, row.category, 'SOFTWARE'),
    description: row.description,
    suggestion: row.suggestion,
    status: oneOf(FEEDBACK_STATUSES, row.status, 'NEW'),
    sender: {
      id: row.sender_id,
      fullName: row.sender_name ?? '',
      kind: oneOf(FEEDBACK_SENDER_KINDS, row.sender_kind, 'STAFF'),
    },
    images: images
      .filter((image) => image.feedback_id === row.id)
      .map((image) => ({
        id: image.id,
        name: image.name,
        contentType: oneOf(FEEDBACK_IMAGE_TYPES, image.content_type, 'image/png'),
        size: image.size_bytes,
      })),
    replies: replies
      .filter((reply) => reply.feedback_id === row.id)
      .map((reply) => ({
        id: reply.id,
        body: reply.body,
        author: reply.author_id === null ? null : { id: reply.author_id, fullName: reply.author_name ?? '' },
        createdAt: isoOf(reply.created_at),
      })),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  }));
}

async function existing(tx: TenantTransaction, id: string, options: { lock?: boolean; senderId?: string } = {}) {
  const row = await store.findFeedback(tx, id, options);
  if (row === undefined) throw new AppError('feedback.notFound');
  return row;
}

async function one(tx: TenantTransaction, row: store.FeedbackRow): Promise<Feedback> {
  const [item] = await assemble(tx, [row]);
  if (item === undefined) throw new AppError('feedback.notFound');
  return item;
}

async function removeStored(environment: FeedbackEnvironment, keys: string[]): Promise<void> {
  for (const key of keys)
    await environment.storage.remove(key).catch((error: unknown) => {
      // The row was never written: an orphaned file costs disk space, not correctness.
      environment.log.warn({ err: error, key }, 'could not remove a feedback image that was not saved');
    });
}

/**
 * POST /health/me/feedback and /account/feedback: the form is read (images stored while
 * streaming), then the feedback, its images and the audit entry are written in one transaction;
 * a refusal or a failed save removes the stored images.
 */
export async function sendFeedback(environment: FeedbackEnvironment, receive: ReceiveFeedback): Promise<Feedback> {
  const { auth, clock } = environment;
  const { input, images } = await receive(environment.storage, auth.tenantId);
  try {
    return await withCaller(environment.database, auth, async (tx) => {
      const now = clock.now();
      const id = uuidv7();
      await store.insertFeedback(tx, {
        tenantId: auth.tenantId,
        id,
        senderId: auth.userId,
        senderKind: auth.role === 'PATIENT' ? 'PATIENT' : 'STAFF',
        healthCenterId: await store.centerOfSender(tx, auth.userId),
        type: input.type,
        category: input.category,
        description: input.description,
        suggestion: input.suggestion === undefined || input.suggestion === '' ? null : input.suggestion,
        createdAt: now,
        updatedAt: now,
      });
      await store.insertImages(
        tx,
        images.map((image, position) => ({
          tenantId: auth.tenantId,
          id: uuidv7(),
          feedbackId: id,
          position,
          name: image.name,
          contentType: image.contentType,
          sizeBytes: image.size,
          storageKey: image.key,
        })),
      );
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'FEEDBACK_SENT',
        targetType: 'feedback',
        targetId: id,
        details: { type: input.type, category: input.category, images: images.length },
        at: now,
      });
      await store.actAsSender(tx, auth.userId);
      return one(tx, await existing(tx, id, { senderId: auth.userId }));
    });
  } catch (error) {
    await removeStored(
      environment,
      images.map((image) => image.key),
    );
    throw error;
  }
}

/** GET /health/me/feedback and /account/feedback/mine: what the caller sent, with the replies. */
export function listMyFeedback(environment: FeedbackEnvironment, page: { page: number; size: number }): Promise<Page<Feedback>> {
  const { auth } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    await store.actAsSender(tx, auth.userId);
    const rows = await store.listOwnFeedback(tx, auth.userId, page);
    return { items: await assemble(tx, rows), page: page.page, size: page.size, total: rows[0]?.total ?? 0 };
  });
}

/** An image of the caller's own feedback (another's: feedback.notFound). */
export async function openMyFeedbackImage(environment: FeedbackEnvironment, feedbackId: string, imageId: string): Promise<OpenedFile> {
  const { auth } = environment;
  const key = await withCaller(environment.database, auth, async (tx) => {
    await store.actAsSender(tx, auth.userId);
    await existing(tx, feedbackId, { senderId: auth.userId });
    return imageKey(tx, feedbackId, imageId);
  });
  return openStored(environment, key);
}

async function imageKey(tx: TenantTransaction, feedbackId: string, imageId: string): Promise<string> {
  const image = (await store.imagesOf(tx, [feedbackId])).find((candidate) => candidate.id === imageId);
  if (image === undefined) throw new AppError('feedback.notFound');
  return image.storage_key;
}

async function openStored(environment: FeedbackEnvironment, key: string): Promise<OpenedFile> {
  const opened = await environment.storage.open(key);
  if (opened === undefined) throw new AppError('feedback.notFound');
  return opened;
}

/** GET /account/feedback: the triage list (user.feedback), the centers the caller sees. */
export function listFeedback(environment: FeedbackEnvironment, query: FeedbackListQuery): Promise<Page<Feedback>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const rows = await store.listFeedback(tx, query);
    return { items: await assemble(tx, rows), page: query.page, size: query.size, total: rows[0]?.total ?? 0 };
  });
}

/** GET /account/feedback/:id (user.feedback). */
export function readFeedback(environment: FeedbackEnvironment, id: string): Promise<Feedback> {
  return withCaller(environment.database, environment.auth, async (tx) => one(tx, await existing(tx, id)));
}

/** GET /account/feedback/:id/images/:imageId (user.feedback). */
export async function openFeedbackImage(environment: FeedbackEnvironment, feedbackId: string, imageId: string): Promise<OpenedFile> {
  const key = await withCaller(environment.database, environment.auth, async (tx) => {
    await existing(tx, feedbackId);
    return imageKey(tx, feedbackId, imageId);
  });
  return openStored(environment, key);
}

/** PUT /account/feedback/:id/status: a move of FEEDBACK_TRANSITIONS, audited; else feedback.invalidTransition. */
export function changeFeedbackStatus(environment: FeedbackEnvironment, id: string, status: FeedbackStatus): Promise<Feedback> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await existing(tx, id, { lock: true });
    const from = oneOf(FEEDBACK_STATUSES, row.status, 'NEW');
    if (!canMoveFeedback(from, status)) throw new AppError('feedback.invalidTransition');
    const now = clock.now();
    await store.setStatus(tx, id, status, now);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'FEEDBACK_STATUS_CHANGED',
      subjectUserId: row.sender_id,
      targetType: 'feedback',
      targetId: id,
      details: { from, to: status },
      at: now,
    });
    return one(tx, await existing(tx, id));
  });
}

/** How much of a reply the sender's notice quotes. */
const EXCERPT_LENGTH = 120;

/**
 * POST /account/feedback/:id/replies: stored, audited and told to the sender (feedback.replied)
 * in one transaction. A NEW item is taken up (IN_PROGRESS); a CLOSED one takes no replies.
 */
export function replyToFeedback(environment: FeedbackEnvironment, id: string, body: string): Promise<Feedback> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const row = await existing(tx, id, { lock: true });
    if (row.status === 'CLOSED') throw new AppError('feedback.closed');
    const now = clock.now();
    const replyId = uuidv7();
    await store.insertReply(tx, { tenantId: auth.tenantId, id: replyId, feedbackId: id, authorId: auth.userId, body, createdAt: now });
    if (row.status === 'NEW') await store.setStatus(tx, id, 'IN_PROGRESS', now);
    else await store.setStatus(tx, id, row.status, now);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'FEEDBACK_REPLIED',
      subjectUserId: row.sender_id,
      targetType: 'feedback',
      targetId: id,
      details: { replyId, length: body.length },
      at: now,
    });
    const excerpt = body.length > EXCERPT_LENGTH ? `${body.slice(0, EXCERPT_LENGTH - 1)}…` : body;
    await notify(tx, auth.tenantId, {
      recipients: [row.sender_id],
      kind: 'feedback.replied',
      params: { feedbackId: id, excerpt },
      link: row.sender_kind === 'PATIENT' ? '/feedback' : '/account?tab=feedback',
      senderId: auth.userId,
      at: now,
    });
    return one(tx, await existing(tx, id));
  });
}
