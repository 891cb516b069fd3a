import {
  ALWAYS_ON_NOTIFICATION_TYPES,
  NOTIFICATION_KINDS,
  NOTIFICATION_LIVE_EVENT,
  type NotificationChannel,
  type NotificationKind,
  type NotificationType,
} from '@rpm/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { notificationPreferences, notifications } from '../../db/schema.js';
import { publishEvents } from '../realtime/publish.js';
import { queuePushes } from './push.js';

export type NoticeParams = Record<string, string | number | boolean | null>;

export interface Notice {
  /** Accounts (users) to notify, in the transaction's tenant; repeats and nulls are dropped. */
  recipients: readonly (string | null | undefined)[];
  kind: NotificationKind;
  params?: NoticeParams;
  /** A path of the recipients' client (console or app) the notice leads to. */
  link?: string | null;
  /** The patient the notice is about (its deletion deletes the notice). */
  patientId?: string | null;
  senderId?: string | null;
  /** Only for `message`: the text as its sender wrote it. */
  title?: string | null;
  body?: string | null;
  force?: boolean;
  /** False: no Web Push for this notice (its author chose in-app only); default true. */
  push?: boolean;
  at: Date;
}

/**
 * The users among `userIds` who turned `channel` off for `type` (absent rows: on). ALERT and a
 * force notice cannot be turned off, so callers never ask for them.
 */
export async function usersWithChannelOff(
  tx: TenantTransaction,
  userIds: readonly string[],
  type: NotificationType,
  channel: NotificationChannel,
): Promise<Set<string>> {
  if (userIds.length === 0 || ALWAYS_ON_NOTIFICATION_TYPES.includes(type)) return new Set();
  const rows = await tx
    .select({ userId: notificationPreferences.userId })
    .from(notificationPreferences)
    .where(
      and(
        inArray(notificationPreferences.userId, [...userIds]),
        eq(notificationPreferences.type, type),
        eq(notificationPreferences.channel, channel),
        eq(notificationPreferences.enabled, false),
      ),
    );
  return new Set(rows.map((row) => row.userId));
}

/**
 * Writes one notification per recipient in the caller's transaction (so it exists exactly when
 * the event it tells of commits) and a live `notification.created` event addressed to each, which
 * only that account's sockets receive, and a push to each browser the account subscribed
 * (push.ts). Recipients who turned the type's in-app channel off get none (push off: no push),
 * unless the notice is mandatory (force) or the type cannot be turned off. Returns how many were
 * written.
 */
export async function notify(tx: TenantTransaction, tenantId: string, notice: Notice): Promise<number> {
  const type = NOTIFICATION_KINDS[notice.kind];
  const unique = [...new Set(notice.recipients.filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (unique.length === 0) return 0;
  const off = notice.force === true ? new Set<string>() : await usersWithChannelOff(tx, unique, type, 'IN_APP');
  const recipients = unique.filter((id) => !off.has(id));
  if (recipients.length === 0) return 0;
  const pushOff = notice.force === true ? new Set<string>() : await usersWithChannelOff(tx, recipients, type, 'PUSH');
  const rows = recipients.map((recipientId) => ({
    tenantId,
    id: uuidv7(),
    recipientId,
    type,
    kind: notice.kind,
    params: notice.params ?? {},
    title: notice.title ?? null,
    body: notice.body ?? null,
    link: notice.link ?? null,
    force: notice.force ?? false,
    patientId: notice.patientId ?? null,
    senderId: notice.senderId ?? null,
    createdAt: notice.at,
  }));
  await tx.insert(notifications).values(rows);
  await queuePushes(
    tx,
    tenantId,
    rows.filter((row) => notice.push !== false && !pushOff.has(row.recipientId)).map((row) => ({ id: row.id, recipientId: row.recipientId, kind: notice.kind, link: row.link })),
  );
  await publishEvents(
    tx,
    tenantId,
    rows.map((row) => ({
      type: NOTIFICATION_LIVE_EVENT,
      recipientUserId: row.recipientId,
      payload: { notificationId: row.id, type, force: row.force },
    })),
  );
  return rows.length;
}

/**
 * Notifies the account of a patient record: its own account, or for a sub-user the account that
 * holds it (none when neither exists, e.g. a record without an account).
 */
export async function notifyPatient(
  tx: TenantTransaction,
  tenantId: string,
  patientId: string,
  notice: Omit<Notice, 'recipients' | 'patientId'>,
): Promise<number> {
  const result = await tx.execute<{ account: string | null }>(
    sql`SELECT coalesce(user_id, holder_user_id) AS account FROM patients WHERE id = ${patientId}::uuid`,
  );
  return notify(tx, tenantId, { ...notice, recipients: [result.rows[0]?.account], patientId });
}
