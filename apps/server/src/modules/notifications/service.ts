import {
  ALWAYS_ON_NOTIFICATION_TYPES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  type ForceStatus,
  type InboxNotification,
  type InboxPage,
  type NotificationPreference,
  type NotificationPreferencesUpdate,
  type NotificationType,
  type PushSubscribe,
  type UnreadCount,
} from '@rpm/contracts';
import { and, count, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import { notificationPreferences, notifications, patients, pushSubscriptions, users } from '../../db/schema.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { notify } from './notify.js';
import { saveSubscription } from './push.js';

export interface NotificationEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

/**
 * The caller's own inbox lives where its account does (platform staff acting in a tenant keep
 * theirs in the platform tenant); a patient session keeps its row-level rule (own inbox only).
 */
function withInbox<T>(environment: NotificationEnvironment, work: (tx: TenantTransaction) => Promise<T>): Promise<T> {
  const { auth } = environment;
  return environment.database.withTenant(auth.accountTenantId, work, auth.visibility);
}

type Row = typeof notifications.$inferSelect;

function toInbox(row: Row): InboxNotification {
  return {
    id: row.id,
    type: row.type as InboxNotification['type'],
    kind: row.kind as InboxNotification['kind'],
    params: row.params,
    title: row.title,
    body: row.body,
    link: row.link,
    force: row.force,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

async function counts(tx: TenantTransaction, userId: string): Promise<UnreadCount> {
  const [row] = await tx
    .select({
      unread: count(),
      forcePending: sql<number>`count(*) FILTER (WHERE ${notifications.force})`.mapWith(Number),
    })
    .from(notifications)
    .where(and(eq(notifications.recipientId, userId), isNull(notifications.readAt)));
  return { unread: row?.unread ?? 0, forcePending: row?.forcePending ?? 0 };
}

async function page(tx: TenantTransaction, where: SQL | undefined, query: { page: number; size: number }) {
  const rows = await tx
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(query.size)
    .offset(query.page * query.size);
  const [total] = await tx.select({ total: count() }).from(notifications).where(where);
  return { items: rows.map(toInbox), page: query.page, size: query.size, total: total?.total ?? 0 };
}

/** GET /notification/notification/inbox: the caller's notifications, newest first (spec §7: size 15). */
export function readInbox(
  environment: NotificationEnvironment,
  query: { page: number; size: number; unread?: boolean | undefined; type?: NotificationType | undefined },
): Promise<InboxPage> {
  const userId = environment.auth.userId;
  return withInbox(environment, async (tx) => {
    const where = and(
      eq(notifications.recipientId, userId),
      query.unread === true ? isNull(notifications.readAt) : query.unread === false ? sql`${notifications.readAt} IS NOT NULL` : undefined,
      query.type === undefined ? undefined : eq(notifications.type, query.type),
    );
    const result = await page(tx, where, query);
    return { ...result, unread: (await counts(tx, userId)).unread };
  });
}

/** GET /notification/getUnreadCount: unread notices, and of them the mandatory ones. */
export function readUnreadCount(environment: NotificationEnvironment): Promise<UnreadCount> {
  return withInbox(environment, (tx) => counts(tx, environment.auth.userId));
}

/**
 * POST /collector/notification/read (one of the caller's: notification.notFound otherwise) and
 * readAll (every unread one except mandatory notices, which are acknowledged one by one).
 * Reading twice changes nothing (the first read time is kept).
 */
export function markRead(environment: NotificationEnvironment, id: string | null): Promise<UnreadCount> {
  const userId = environment.auth.userId;
  const now = environment.clock.now();
  return withInbox(environment, async (tx) => {
    if (id !== null) {
      const [found] = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.recipientId, userId)));
      if (found === undefined) throw new AppError('notification.notFound');
    }
    await tx
      .update(notifications)
      .set({ readAt: now })
      .where(
        and(
          eq(notifications.recipientId, userId),
          isNull(notifications.readAt),
          id === null ? eq(notifications.force, false) : eq(notifications.id, id),
        ),
      );
    return counts(tx, userId);
  });
}

/** GET /notification/status/force: how many mandatory notices wait, and the oldest of them. */
export function readForceStatus(environment: NotificationEnvironment): Promise<ForceStatus> {
  const userId = environment.auth.userId;
  return withInbox(environment, async (tx) => {
    const pending = and(eq(notifications.recipientId, userId), eq(notifications.force, true), isNull(notifications.readAt));
    const [oldest] = await tx.select().from(notifications).where(pending).orderBy(notifications.createdAt, notifications.id).limit(1);
    const [total] = await tx.select({ total: count() }).from(notifications).where(pending);
    return { pending: total?.total ?? 0, oldest: oldest === undefined ? null : toInbox(oldest) };
  });
}

/** GET /notification/log/force: the caller's mandatory notices, newest first, read or not. */
export function readForceLog(environment: NotificationEnvironment, query: { page: number; size: number }): Promise<InboxPage> {
  const userId = environment.auth.userId;
  return withInbox(environment, async (tx) => {
    const result = await page(tx, and(eq(notifications.recipientId, userId), eq(notifications.force, true)), query);
    return { ...result, unread: (await counts(tx, userId)).unread };
  });
}

async function preferencesOf(tx: TenantTransaction, userId: string): Promise<NotificationPreference[]> {
  const rows = await tx.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  const off = new Set(rows.filter((row) => !row.enabled).map((row) => `${row.type}:${row.channel}`));
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS.map((channel) => {
      const changeable = !ALWAYS_ON_NOTIFICATION_TYPES.includes(type);
      return { type, channel, enabled: !changeable || !off.has(`${type}:${channel}`), changeable };
    }),
  );
}

/** GET /notification/preferences: every type × channel, on unless turned off. */
export function readPreferences(environment: NotificationEnvironment): Promise<{ items: NotificationPreference[] }> {
  return withInbox(environment, async (tx) => ({ items: await preferencesOf(tx, environment.auth.userId) }));
}

/** PUT /notification/preferences: the choices given change; ALERT stays on (its `false` is ignored). */
export function updatePreferences(
  environment: NotificationEnvironment,
  update: NotificationPreferencesUpdate,
): Promise<{ items: NotificationPreference[] }> {
  const { auth } = environment;
  const now = environment.clock.now();
  return withInbox(environment, async (tx) => {
    const changes = update.items.filter((item) => !ALWAYS_ON_NOTIFICATION_TYPES.includes(item.type));
    for (const item of changes) {
      await tx
        .insert(notificationPreferences)
        .values({ tenantId: auth.accountTenantId, userId: auth.userId, type: item.type, channel: item.channel, enabled: item.enabled, updatedAt: now })
        .onConflictDoUpdate({
          target: [notificationPreferences.tenantId, notificationPreferences.userId, notificationPreferences.type, notificationPreferences.channel],
          set: { enabled: item.enabled, updatedAt: now },
        });
    }
    await recordAudit(tx, auth.accountTenantId, environment.audit, {
      action: 'NOTIFICATION_PREFERENCES_UPDATED',
      targetType: 'user',
      targetId: auth.userId,
      details: { changes: changes.map((item) => `${item.type}:${item.channel}:${item.enabled ? 'on' : 'off'}`) },
      at: now,
    });
    return { items: await preferencesOf(tx, auth.userId) };
  });
}

/**
 * POST /collector/notification/send (notification.send): a message written by staff to accounts
 * of the tenant the sender acts in — staff accounts by user id, patients by patient id (the record's
 * account, else the holder of a sub-user) — each of whom the sender must see (the caller's
 * visibility applies: another center's patient is notification.recipientNotFound). Audited.
 */
export function sendMessage(
  environment: NotificationEnvironment,
  message: { userIds: string[]; patientIds: string[]; title: string; body: string; force: boolean; link: string | null },
): Promise<{ sent: number }> {
  const { auth } = environment;
  const now = environment.clock.now();
  if (message.userIds.length + message.patientIds.length === 0) throw new AppError('notification.noRecipients');
  return withCaller(environment.database, auth, async (tx) => {
    const userIds = [...new Set(message.userIds)];
    const patientIds = [...new Set(message.patientIds)];
    const staff =
      userIds.length === 0
        ? []
        : await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, userIds), isNull(users.deletedAt), ne(users.role, 'PATIENT')));
    const held =
      patientIds.length === 0
        ? []
        : await tx
            .select({ id: patients.id, account: sql<string | null>`coalesce(${patients.userId}, ${patients.holderUserId})` })
            .from(patients)
            .where(inArray(patients.id, patientIds));
    if (staff.length !== userIds.length || held.length !== patientIds.length || held.some((row) => row.account === null)) {
      throw new AppError('notification.recipientNotFound');
    }
    const recipients = [...staff.map((row) => row.id), ...held.map((row) => row.account)];
    const sent = await notify(tx, auth.tenantId, {
      recipients,
      kind: 'message',
      title: message.title,
      body: message.body,
      link: message.link,
      force: message.force,
      senderId: auth.accountTenantId === auth.tenantId ? auth.userId : null,
      patientId: patientIds.length === 1 ? patientIds[0] : null,
      at: now,
    });
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'NOTIFICATION_SENT',
      targetType: 'notification',
      details: { userIds, patientIds, force: message.force, sent },
      at: now,
    });
    return { sent };
  });
}

/** POST /notification/push/subscribe: this browser's subscription, kept for the caller's account. */
export function subscribePush(
  environment: NotificationEnvironment,
  subscription: PushSubscribe,
  userAgent: string | null,
): Promise<{ subscribed: boolean }> {
  const { auth } = environment;
  return withInbox(environment, async (tx) => {
    await saveSubscription(tx, auth.accountTenantId, auth.userId, subscription, userAgent, environment.clock.now());
    return { subscribed: true };
  });
}

/** POST /notification/push/unsubscribe: forgets the caller's subscription with that endpoint. */
export function unsubscribePush(environment: NotificationEnvironment, endpoint: string): Promise<{ subscribed: boolean }> {
  const { auth } = environment;
  return withInbox(environment, async (tx) => {
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, auth.userId)));
    return { subscribed: false };
  });
}
