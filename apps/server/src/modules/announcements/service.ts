import {
  ANNOUNCEMENT_BATCH_SIZE,
  ANNOUNCEMENT_EDITABLE,
  type AnnouncementAudience,
  type AnnouncementDetail,
  type AnnouncementPage,
  type AnnouncementStaffRole,
  type AnnouncementStatus,
  type AnnouncementSummary,
  type AnnouncementView,

  type announcementListQuerySchema,
  type announcementWriteSchema,
} from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { announcements } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { JOB_AUDIT_CONTEXT, recordAudit, type AuditContext } from '../audit/store.js';
import { scheduleJob, cancelJob } from '../jobs/queue.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import { notify, usersWithChannelOff } from '../notifications/notify.js';
import { invalidField } from '../staff/placement.js';
import { findCenter, findScope, scopeSubtree } from '../staff/store.js';
import { announcementText, sanitizeAnnouncementHtml } from './sanitize.js';
import {
  ANNOUNCEMENT_KIND,
  audienceAccounts,
  findAnnouncement,
  listAnnouncements,
  lockAnnouncement,
  placeNames,
  readAsRecipient,
  readCounts,
  type AnnouncementRow,
  type ManagerReach,
} from './store.js';

export interface AnnouncementEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

/** The durable job that publishes a scheduled announcement, then each further batch of notices. */
export const PUBLISH_TASK = 'announcements.publish';
const jobKeyOf = (id: string) => `announcement:${id}`;

type WriteInput = z.output<typeof announcementWriteSchema>;
type ListQuery = z.output<typeof announcementListQuerySchema>;

/** Where the caller may address and manage announcements: the whole tenant, or their level's part. */
function reachOf(auth: AuthContext): ManagerReach {
  const { visibility } = auth;
  if ('all' in visibility) return { all: true };
  return { centerIds: 'centerIds' in visibility ? visibility.centerIds : [], scopeId: auth.scopeId };
}

/**
 * An audience must lie within the caller's level: the whole tenant needs a caller who sees all of
 * it, a scope must be the caller's scope or below it, a center one the caller sees (the caller's
 * transaction hides the others: center.notFound, as for any center out of reach).
 */
async function checkAudience(tx: TenantTransaction, auth: AuthContext, audience: AnnouncementAudience): Promise<void> {
  const reach = reachOf(auth);
  if (audience.centerId !== null) {
    if ((await findCenter(tx, audience.centerId)) === undefined) throw new AppError('center.notFound');
    return;
  }
  if (audience.scopeId !== null) {
    if ((await findScope(tx, audience.scopeId)) === undefined) throw new AppError('scope.notFound');
    if ('all' in reach) return;
    if (reach.scopeId === null) throw new AppError('auth.permissionDenied');
    const inside = await tx.execute<{ inside: boolean }>(
      sql`SELECT ${audience.scopeId}::uuid IN (${scopeSubtree(reach.scopeId)}) AS inside`,
    );
    if (inside.rows[0]?.inside !== true) throw new AppError('auth.permissionDenied');
    return;
  }
  if (!('all' in reach)) throw new AppError('auth.permissionDenied');
}

function cleanBody(body: string): string {
  const html = sanitizeAnnouncementHtml(body);
  if (announcementText(html) === '') throw invalidField('body.body');
  return html;
}

function publishAtOf(input: WriteInput, now: Date): Date | null {
  if (input.action !== 'schedule' || input.publishAt === null) return null;
  const at = new Date(input.publishAt);
  if (at.getTime() <= now.getTime()) throw invalidField('body.publishAt');
  return at;
}

const statusAfter = (action: WriteInput['action']): AnnouncementStatus =>
  action === 'save' ? 'DRAFT' : action === 'schedule' ? 'SCHEDULED' : 'PUBLISHED';

async function toSummaries(tx: TenantTransaction, rows: readonly AnnouncementRow[]): Promise<(AnnouncementSummary & { bodyHtml: string })[]> {
  const counts = await readCounts(tx, rows.map((row) => row.id));
  const names = await placeNames(tx, rows);
  const place = (id: string | null) => (id === null ? null : { id, name: names.get(id) ?? '' });
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    status: row.status as AnnouncementStatus,
    audience: {
      scope: place(row.audienceScopeId),
      center: place(row.audienceCenterId),
      staffRoles: row.audienceStaffRoles as AnnouncementStaffRole[],
      patients: row.audiencePatients,
    },
    channels: { push: row.channelPush, email: row.channelEmail },
    publishAt: row.publishAt?.toISOString() ?? null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    recipients: counts.get(row.id)?.recipients ?? 0,
    read: counts.get(row.id)?.read ?? 0,
    bodyHtml: row.bodyHtml,
  }));
}

async function detailOf(tx: TenantTransaction, row: AnnouncementRow): Promise<AnnouncementDetail> {
  const [detail] = await toSummaries(tx, [row]);
  if (detail === undefined) throw new AppError('announcement.notFound');
  return detail;
}

/**
 * Notifies the next batch of the audience (one notice each, push if chosen, e-mail if chosen and
 * not turned off) and records how far it got, in the caller's transaction: a batch and its
 * progress commit together, so a rerun never notifies anyone twice. Returns whether all are done.
 */
async function deliverBatch(tx: TenantTransaction, tenantId: string, row: AnnouncementRow, at: Date): Promise<boolean> {
  const accounts = await audienceAccounts(tx, row, row.deliveredThrough, ANNOUNCEMENT_BATCH_SIZE);
  const ids = accounts.map((account) => account.id);
  const written = await notify(tx, tenantId, {
    recipients: ids,
    kind: ANNOUNCEMENT_KIND,
    params: { announcementId: row.id, title: row.title },
    link: `/announcements/${row.id}`,
    push: row.channelPush,
    at,
  });
  if (row.channelEmail) {
    const emailOff = await usersWithChannelOff(tx, ids, 'ANNOUNCEMENT', 'EMAIL');
    const text = announcementText(row.bodyHtml);
    for (const account of accounts) {
      if (account.email === null || emailOff.has(account.id)) continue;
      await enqueueMessage(tx, tenantId, { channel: 'EMAIL', recipient: account.email, subject: row.title, body: text, purpose: 'ANNOUNCEMENT' });
    }
  }
  const done = accounts.length < ANNOUNCEMENT_BATCH_SIZE;
  await tx
    .update(announcements)
    .set({
      deliveredThrough: ids.at(-1) ?? row.deliveredThrough,
      deliveredCount: row.deliveredCount + written,
      deliveryDone: done,
    })
    .where(eq(announcements.id, row.id));
  return done;
}

/** Publishes now: the state, the first batch, and a job for the rest when the audience is larger. */
async function publishNow(tx: TenantTransaction, tenantId: string, row: AnnouncementRow, at: Date): Promise<AnnouncementRow> {
  const [published] = await tx
    .update(announcements)
    .set({ status: 'PUBLISHED', publishedAt: at, updatedAt: at })
    .where(eq(announcements.id, row.id))
    .returning();
  if (published === undefined) throw new AppError('announcement.notFound');
  const done = await deliverBatch(tx, tenantId, published, at);
  if (!done) await scheduleJob(tx, tenantId, PUBLISH_TASK, { announcementId: row.id });
  return published;
}

/**
 * The job's step: a scheduled announcement whose time came is published; a published one whose
 * fan-out is unfinished gets its next batch (and another job when more remain). Anything else
 * (canceled meanwhile, already done) is left as it is, so a repeated job changes nothing.
 */
export async function runPublishStep(database: Database, clock: Clock, tenantId: string, announcementId: string): Promise<void> {
  await database.withTenant(tenantId, async (tx) => {
    const row = await lockAnnouncement(tx, announcementId);
    if (row === undefined) return;
    const now = clock.now();
    if (row.status === 'SCHEDULED') {
      await publishNow(tx, tenantId, row, now);
      await recordAudit(tx, tenantId, JOB_AUDIT_CONTEXT, {
        action: 'ANNOUNCEMENT_PUBLISHED',
        targetType: 'announcement',
        targetId: row.id,
        details: { scheduled: true },
        at: now,
      });
      return;
    }
    if (row.status !== 'PUBLISHED' || row.deliveryDone) return;
    const done = await deliverBatch(tx, tenantId, row, now);
    if (!done) await scheduleJob(tx, tenantId, PUBLISH_TASK, { announcementId: row.id });
  });
}

/**
 * Demo data: an announcement already published at `at` to its whole audience (every batch), as
 * if its author had published it then.
 */
export async function seedPublishedAnnouncement(
  tx: TenantTransaction,
  tenantId: string,
  input: { title: string; bodyHtml: string; staffRoles: AnnouncementStaffRole[]; patients: boolean; authorId: string; authorName: string },
  at: Date,
): Promise<string> {
  const id = uuidv7();
  const [row] = await tx
    .insert(announcements)
    .values({
      tenantId,
      id,
      title: input.title,
      bodyHtml: sanitizeAnnouncementHtml(input.bodyHtml),
      status: 'DRAFT',
      audienceStaffRoles: input.staffRoles,
      audiencePatients: input.patients,
      channelPush: false,
      channelEmail: false,
      authorId: input.authorId,
      authorName: input.authorName,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (row === undefined) throw new AppError('announcement.notFound');
  let current = await publishNowInline(tx, tenantId, row, at);
  while (!current.deliveryDone) {
    await deliverBatch(tx, tenantId, current, at);
    const next = await lockAnnouncement(tx, id);
    if (next === undefined) break;
    current = next;
  }
  return id;
}

async function publishNowInline(tx: TenantTransaction, tenantId: string, row: AnnouncementRow, at: Date): Promise<AnnouncementRow> {
  const [published] = await tx.update(announcements).set({ status: 'PUBLISHED', publishedAt: at, updatedAt: at }).where(eq(announcements.id, row.id)).returning();
  if (published === undefined) throw new AppError('announcement.notFound');
  await deliverBatch(tx, tenantId, published, at);
  return (await lockAnnouncement(tx, row.id)) ?? published;
}

function audienceDetails(audience: AnnouncementAudience) {
  return { scopeId: audience.scopeId, centerId: audience.centerId, staffRoles: audience.staffRoles, patients: audience.patients };
}

/** POST /manage/announcements: a draft, a scheduled announcement, or one published now. Audited. */
export function createAnnouncement(environment: AnnouncementEnvironment, input: WriteInput): Promise<AnnouncementDetail> {
  const { auth } = environment;
  const now = environment.clock.now();
  const bodyHtml = cleanBody(input.body);
  const publishAt = publishAtOf(input, now);
  return withCaller(environment.database, auth, async (tx) => {
    await checkAudience(tx, auth, input.audience);
    const id = uuidv7();
    const [row] = await tx
      .insert(announcements)
      .values({
        tenantId: auth.tenantId,
        id,
        title: input.title,
        bodyHtml,
        status: input.action === 'schedule' ? 'SCHEDULED' : 'DRAFT',
        audienceScopeId: input.audience.scopeId,
        audienceCenterId: input.audience.centerId,
        audienceStaffRoles: input.audience.staffRoles,
        audiencePatients: input.audience.patients,
        channelPush: input.channels.push,
        channelEmail: input.channels.email,
        publishAt,
        authorId: auth.userId,
        authorName: auth.fullName,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (row === undefined) throw new AppError('announcement.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'ANNOUNCEMENT_CREATED',
      targetType: 'announcement',
      targetId: id,
      details: { status: statusAfter(input.action), audience: audienceDetails(input.audience), publishAt: publishAt?.toISOString() ?? null },
      at: now,
    });
    return detailOf(tx, await afterAction(environment, tx, row, input.action, publishAt, now));
  });
}

async function afterAction(
  environment: AnnouncementEnvironment,
  tx: TenantTransaction,
  row: AnnouncementRow,
  action: WriteInput['action'],
  publishAt: Date | null,
  now: Date,
): Promise<AnnouncementRow> {
  const { auth } = environment;
  if (action === 'schedule' && publishAt !== null) {
    await scheduleJob(tx, auth.tenantId, PUBLISH_TASK, { announcementId: row.id }, { runAt: publishAt, jobKey: jobKeyOf(row.id) });
    return row;
  }
  await cancelJob(tx, jobKeyOf(row.id));
  if (action !== 'publish') return row;
  const published = await publishNow(tx, auth.tenantId, row, now);
  await recordAudit(tx, auth.tenantId, environment.audit, {
    action: 'ANNOUNCEMENT_PUBLISHED',
    targetType: 'announcement',
    targetId: row.id,
    details: { scheduled: false },
    at: now,
  });
  return published;
}

async function editable(tx: TenantTransaction, auth: AuthContext, id: string): Promise<AnnouncementRow> {
  const visible = await findAnnouncement(tx, id, reachOf(auth));
  if (visible === undefined) throw new AppError('announcement.notFound');
  const row = await lockAnnouncement(tx, id);
  if (row === undefined) throw new AppError('announcement.notFound');
  if (!ANNOUNCEMENT_EDITABLE.includes(row.status as AnnouncementStatus)) throw new AppError('announcement.notEditable');
  return row;
}

/** PUT /manage/announcements/:id: a draft or a scheduled one, rewritten (and saved, scheduled or published). */
export function updateAnnouncement(environment: AnnouncementEnvironment, id: string, input: WriteInput): Promise<AnnouncementDetail> {
  const { auth } = environment;
  const now = environment.clock.now();
  const bodyHtml = cleanBody(input.body);
  const publishAt = publishAtOf(input, now);
  return withCaller(environment.database, auth, async (tx) => {
    await editable(tx, auth, id);
    await checkAudience(tx, auth, input.audience);
    const [row] = await tx
      .update(announcements)
      .set({
        title: input.title,
        bodyHtml,
        status: input.action === 'schedule' ? 'SCHEDULED' : 'DRAFT',
        audienceScopeId: input.audience.scopeId,
        audienceCenterId: input.audience.centerId,
        audienceStaffRoles: input.audience.staffRoles,
        audiencePatients: input.audience.patients,
        channelPush: input.channels.push,
        channelEmail: input.channels.email,
        publishAt,
        updatedAt: now,
      })
      .where(eq(announcements.id, id))
      .returning();
    if (row === undefined) throw new AppError('announcement.notFound');
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'ANNOUNCEMENT_UPDATED',
      targetType: 'announcement',
      targetId: id,
      details: { status: statusAfter(input.action), audience: audienceDetails(input.audience), publishAt: publishAt?.toISOString() ?? null },
      at: now,
    });
    return detailOf(tx, await afterAction(environment, tx, row, input.action, publishAt, now));
  });
}

/** POST /manage/announcements/:id/cancel: a draft or scheduled one is canceled (its job removed). */
export function cancelAnnouncement(environment: AnnouncementEnvironment, id: string): Promise<AnnouncementDetail> {
  const { auth } = environment;
  const now = environment.clock.now();
  return withCaller(environment.database, auth, async (tx) => {
    await editable(tx, auth, id);
    const [row] = await tx.update(announcements).set({ status: 'CANCELED', canceledAt: now, updatedAt: now }).where(eq(announcements.id, id)).returning();
    if (row === undefined) throw new AppError('announcement.notFound');
    await cancelJob(tx, jobKeyOf(id));
    await recordAudit(tx, auth.tenantId, environment.audit, { action: 'ANNOUNCEMENT_CANCELED', targetType: 'announcement', targetId: id, at: now });
    return detailOf(tx, row);
  });
}

/** GET /manage/announcements: those within the caller's level, with recipients and read counts. */
export function readAnnouncements(environment: AnnouncementEnvironment, query: ListQuery): Promise<AnnouncementPage> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { rows, total } = await listAnnouncements(tx, reachOf(environment.auth), query);
    const items = (await toSummaries(tx, rows)).map(({ bodyHtml: _body, ...summary }) => summary);
    return { items, page: query.page, size: query.size, total };
  });
}

/** GET /manage/announcements/:id: one within the caller's level, with its body. */
export function readAnnouncementDetail(environment: AnnouncementEnvironment, id: string): Promise<AnnouncementDetail> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const row = await findAnnouncement(tx, id, reachOf(environment.auth));
    if (row === undefined) throw new AppError('announcement.notFound');
    return detailOf(tx, row);
  });
}

/**
 * GET /notification/announcements/:id: a published announcement the caller received (its notice
 * is theirs; the notice is marked read). Anyone else: announcement.notFound. Runs where the
 * caller's inbox is, with a patient session's own-rows rule.
 */
export function readAnnouncementAsRecipient(environment: AnnouncementEnvironment, id: string): Promise<AnnouncementView> {
  const { auth } = environment;
  const now = environment.clock.now();
  return environment.database.withTenant(
    auth.accountTenantId,
    async (tx) => {
      const received = await readAsRecipient(tx, id, auth.userId, now);
      if (!received) throw new AppError('announcement.notFound');
      const rows = await tx.select().from(announcements).where(eq(announcements.id, id)).limit(1);
      const row = rows[0];
      if (row === undefined || row.publishedAt === null) throw new AppError('announcement.notFound');
      return { id: row.id, title: row.title, bodyHtml: row.bodyHtml, authorName: row.authorName, publishedAt: row.publishedAt.toISOString() };
    },
    auth.visibility,
  );
}

