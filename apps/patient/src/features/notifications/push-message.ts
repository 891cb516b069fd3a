import type { PushPayload } from '@rpm/contracts';

/**
 * What the service worker makes of a push (push-worker.ts): the payload the server sends
 * (contracts `pushPayloadSchema`), read defensively, and where tapping its notification leads.
 * Pure and free of zod: the worker is bundled on its own and stays small.
 */

/** Bounds that a real payload never reaches: anything longer is not ours. */
const MAX_ID = 100;
const MAX_TITLE = 200;
const MAX_BODY = 1000;
const MAX_LINK = 300;

/** Where a notification without a link of its own leads: the notification centre. */
export const NOTIFICATIONS_PATH = '/notifications';

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/** An app path the app routes (relative to its base), or null for anything else (`//host`, `http:`, `\`). */
export function appPathOf(link: unknown): string | null {
  if (!isText(link, MAX_LINK) || !link.startsWith('/') || link.startsWith('//') || link.includes('\\')) return null;
  return link;
}

/**
 * The payload of a push, or undefined when it is not one of ours (no data, not JSON, a field
 * missing or of the wrong kind): such a push shows nothing. A link that is no app path is dropped
 * (the notification then opens the notification centre).
 */
export function readPushPayload(text: string | null | undefined): PushPayload | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { notificationId, title, body, link } = data as Record<string, unknown>;
  if (!isText(notificationId, MAX_ID) || notificationId === '') return undefined;
  if (!isText(title, MAX_TITLE) || title.trim() === '' || !isText(body, MAX_BODY)) return undefined;
  if (link !== null && typeof link !== 'string') return undefined;
  return { notificationId, title, body, link: appPathOf(link) };
}

/**
 * The options of the notification a push shows: its id as the tag (a repeated push replaces its
 * notification rather than stacking), the link kept for the click.
 */
export function notificationOptions(payload: PushPayload, iconUrl: string): NotificationOptions {
  return { body: payload.body, tag: payload.notificationId, data: { link: payload.link }, icon: iconUrl, badge: iconUrl };
}

/**
 * The address a tapped notification opens: its link under the app's scope (`https://host/app/`),
 * else the notification centre. `data` is the notification's data as the browser kept it.
 */
export function notificationTargetUrl(data: unknown, scope: string): string {
  const link = appPathOf(typeof data === 'object' && data !== null ? (data as Record<string, unknown>).link : null);
  const base = new URL(scope);
  const fallback = new URL(NOTIFICATIONS_PATH.slice(1), base).href;
  if (link === null) return fallback;
  const target = new URL(link.slice(1), base);
  // `/../console` resolves outside the app: the centre instead.
  return target.origin === base.origin && target.pathname.startsWith(base.pathname) ? target.href : fallback;
}

/** Whether a window shows the app (its address under the scope, `/app` itself included). */
export function isAppWindow(url: string, scope: string): boolean {
  const base = new URL(scope);
  const page = new URL(url);
  return page.origin === base.origin && (page.pathname.startsWith(base.pathname) || `${page.pathname}/` === base.pathname);
}
