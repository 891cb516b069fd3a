/** The scope of the app's worker: its pages, and the registration push subscriptions belong to. */
export const APP_SCOPE = '/app/';

/**
 * Registers the app's service worker (built as /app/sw.js by build/pwa-plugin.ts: the offline
 * shell, and Web Push from features/notifications/push-worker.ts), only in the built app: the dev
 * server has no worker.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register(`${APP_SCOPE}sw.js`, { scope: APP_SCOPE }).catch(() => undefined);
  });
}
