import { apiRequest } from '../../api/client';
import { APP_SCOPE } from '../../service-worker';

/**
 * This device's push subscription, kept small for the sign-out (auth-api.ts, on the first screen);
 * the settings card's part is push-device.ts. No import of the centre's other modules: auth-api
 * imports this one, and they import auth-api.
 */

/** The longest a sign-out waits for this device's push subscription to go. */
const SIGN_OUT_WAIT_MS = 3000;

/** This device's push subscription with the app's worker: null without push support, a worker or a subscription. */
export async function deviceSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator) || typeof PushManager === 'undefined') return null;
  const registration = await navigator.serviceWorker.getRegistration(APP_SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Stops pushes to this device: the browser drops the subscription and the server forgets it (under
 * the account's own session). The browser's part is what counts: a dropped endpoint is gone for the
 * push service too, which tells the server at its next push, so a failed server call is no failure.
 */
export async function unsubscribeDevice(subscription: PushSubscription): Promise<void> {
  const [dropped] = await Promise.allSettled([
    subscription.unsubscribe(),
    apiRequest('POST', '/notification/push/unsubscribe', { endpoint: subscription.endpoint }, undefined, { ownRecord: true }),
  ]);
  if (dropped.status === 'rejected') throw dropped.reason;
}

/**
 * At sign-out, before the session ends: the next person on a shared phone must not get this
 * account's pushes. Best effort and bounded in time: a sign-out never fails or hangs on it.
 */
export async function forgetPushOnSignOut(): Promise<void> {
  const forget = async () => {
    const subscription = await deviceSubscription();
    if (subscription !== null) await unsubscribeDevice(subscription);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    forget().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SIGN_OUT_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}
