import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { NOTIFICATION_KINDS, type NotificationKind, type PushPayload, type PushSubscribe } from '@rpm/contracts';
import { pickLanguage, resources } from '@rpm/i18n';
import { and, eq, inArray } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import webPush from 'web-push';
import type { Config } from '../../config.js';
import type { TenantTransaction } from '../../db/database.js';
import { pushSubscriptions, users } from '../../db/schema.js';
import { enqueueMessage } from '../messaging/outbox-store.js';
import type { DeliveryReceipt } from '../messaging/providers.js';

/** The second line of every push: the notice itself is read in the app (lock screens show pushes). */
const OPEN_TO_READ = { en: 'Open the app to read it.', vi: 'Mở ứng dụng để xem chi tiết.' } as const;

/** A push's title: the kind's title in the recipient's language (a written message: its own title is not pushed). */
function pushTitle(kind: NotificationKind, language: string): string {
  const lang = pickLanguage(language);
  const node = kind.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], resources[lang].notifications.kinds);
  const title = (node as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? title : NOTIFICATION_KINDS[kind];
}

/**
 * Queues a push to every browser subscribed for each recipient (one outbox message per
 * subscription, channel PUSH), in the notice's transaction; the outbox sends and retries them.
 */
export async function queuePushes(
  tx: TenantTransaction,
  tenantId: string,
  notices: readonly { id: string; recipientId: string; kind: NotificationKind; link: string | null }[],
): Promise<void> {
  if (notices.length === 0) return;
  const recipients = [...new Set(notices.map((notice) => notice.recipientId))];
  const subscriptions = await tx
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, language: users.language })
    .from(pushSubscriptions)
    .innerJoin(users, and(eq(users.tenantId, pushSubscriptions.tenantId), eq(users.id, pushSubscriptions.userId)))
    .where(inArray(pushSubscriptions.userId, recipients));
  for (const notice of notices) {
    for (const subscription of subscriptions.filter((row) => row.userId === notice.recipientId)) {
      const payload: PushPayload = {
        notificationId: notice.id,
        title: pushTitle(notice.kind, subscription.language),
        body: OPEN_TO_READ[pickLanguage(subscription.language)],
        link: notice.link,
      };
      await enqueueMessage(tx, tenantId, {
        channel: 'PUSH',
        recipient: subscription.id,
        body: JSON.stringify(payload),
        purpose: `NOTIFICATION_${NOTIFICATION_KINDS[notice.kind]}`,
      });
    }
  }
}

/** Saves a browser's subscription for the caller (the same endpoint again: moved to the caller, keys renewed). */
export async function saveSubscription(
  tx: TenantTransaction,
  tenantId: string,
  userId: string,
  subscription: PushSubscribe,
  userAgent: string | null,
  now: Date,
): Promise<void> {
  await tx
    .insert(pushSubscriptions)
    .values({
      tenantId,
      id: uuidv7(),
      userId,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      userAgent: userAgent?.slice(0, 300) ?? null,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [pushSubscriptions.tenantId, pushSubscriptions.endpoint],
      set: { userId, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, userAgent: userAgent?.slice(0, 300) ?? null, createdAt: now },
    });
}

/** The push gateway the outbox sends through (RFC 8030 with VAPID, RFC 8292; payloads encrypted per RFC 8291 by `web-push`). */
export interface PushSender {
  readonly name: string;
  /** Rejects with a PushGone error when the push service says the subscription no longer exists (404, 410). */
  send(subscription: { endpoint: string; p256dh: string; auth: string }, payload: string): Promise<DeliveryReceipt>;
  close(): void;
}

export class PushGone extends Error {
  constructor(readonly statusCode: number) {
    super(`push subscription gone (${String(statusCode)})`);
    this.name = 'PushGone';
  }
}

export function createPushSender(config: Pick<Config, 'webPush'>): PushSender {
  const vapidDetails = { subject: config.webPush.subject, publicKey: config.webPush.publicKey, privateKey: config.webPush.privateKey };
  const ca = config.webPush.ca;
  // The system's authorities plus any configured ones.
  const agent = ca === undefined ? undefined : new Agent({ ca: [...rootCertificates, ca], keepAlive: true });
  return {
    name: 'webpush',
    async send(subscription, payload) {
      try {
        const result = await webPush.sendNotification(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          payload,
          // A day to reach a device that is off; bounded so that one hung push service cannot hold the lease.
          { vapidDetails, TTL: 86_400, timeout: 15_000, urgency: 'high', contentEncoding: 'aes128gcm', ...(agent === undefined ? {} : { agent }) },
        );
        return { providerMessageId: result.headers.location ?? String(result.statusCode) };
      } catch (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        if (status === 404 || status === 410) throw new PushGone(status);
        throw error;
      }
    },
    close() {
      agent?.destroy();
    },
  };
}
