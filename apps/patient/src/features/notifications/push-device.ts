import { pushAnswerSchema, pushKeySchema } from '@rpm/contracts';
import { apiRequest } from '../../api/client';
import { deviceSubscription, unsubscribeDevice } from './forget-push';
import { keyBytes } from './vapid-key';
import { ACCOUNT_CALL, NOTIFICATION_CENTRE_KEY } from './notifications-api';

/** Whether this device receives the account's pushes, as the settings card shows it. */
export type PushState = 'unsupported' | 'blocked' | 'off' | 'on';

/** Why turning push on did not work, each with its own message (appAlerts `push.problems`). */
export type PushProblemReason = 'dismissed' | 'blocked' | 'notReady' | 'unreachable';

export class PushProblem extends Error {
  constructor(readonly reason: PushProblemReason, options?: ErrorOptions) {
    super(`push not turned on: ${reason}`, options);
    this.name = 'PushProblem';
  }
}

export const PUSH_DEVICE_KEY = [...NOTIFICATION_CENTRE_KEY, 'push-device'] as const;

/** The worker is registered as the page loads: a worker that is not there by then will not come. */
const WORKER_WAIT_MS = 10_000;
/** A push service that does not answer (no network, none in this browser) must not leave the button turning. */
const SUBSCRIBE_WAIT_MS = 20_000;

export function isPushSupported(): boolean {
  return 'serviceWorker' in navigator && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';
}

function within<T>(promise: Promise<T>, ms: number, reason: PushProblemReason): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new PushProblem(reason));
    }, ms);
  });
  return Promise.race([promise, late]).finally(() => {
    clearTimeout(timer);
  });
}

/** `POST /notification/push/subscribe`: the server pushes this account's notices to the subscription. */
async function saveSubscription(subscription: PushSubscription): Promise<void> {
  const { keys } = subscription.toJSON();
  const body = { endpoint: subscription.endpoint, keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } };
  await apiRequest('POST', '/notification/push/subscribe', body, pushAnswerSchema, ACCOUNT_CALL);
}

/**
 * The device's state. A subscription found is saved again for the account signed in now (the same
 * endpoint moves to the caller): on a phone shared without a sign-out, "On" stays true for the
 * person who reads it. That save is best effort: the device's own state is what shows.
 */
export async function readPushState(): Promise<PushState> {
  if (!isPushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const subscription = await deviceSubscription();
  if (subscription === null || Notification.permission !== 'granted') return 'off';
  await saveSubscription(subscription).catch(() => undefined);
  return 'on';
}

/** Asks for permission, subscribes with the server's key, and has the server keep the subscription. */
export async function turnPushOn(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushProblem('blocked');
  if (permission !== 'granted') throw new PushProblem('dismissed');
  const registration = await within(navigator.serviceWorker.ready, WORKER_WAIT_MS, 'notReady');
  const { publicKey } = await apiRequest('GET', '/notification/push/key', undefined, pushKeySchema, ACCOUNT_CALL);
  // One made with another key (the server's changed) would make subscribe() fail.
  const previous = await registration.pushManager.getSubscription();
  if (previous !== null) await previous.unsubscribe();
  let subscription: PushSubscription;
  try {
    subscription = await within(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
      SUBSCRIBE_WAIT_MS,
      'unreachable',
    );
  } catch (error) {
    throw error instanceof PushProblem ? error : new PushProblem('unreachable', { cause: error });
  }
  try {
    await saveSubscription(subscription);
  } catch (error) {
    // Not kept by the server: nothing would arrive, so the device is not left subscribed.
    await subscription.unsubscribe().catch(() => false);
    throw error;
  }
}

export async function turnPushOff(): Promise<void> {
  const subscription = await deviceSubscription();
  if (subscription !== null) await unsubscribeDevice(subscription);
}
