/**
 * Registers the offline shell's service worker (built as /app/sw.js by build/pwa-plugin.ts), only
 * in the built app: the dev server has no worker.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => undefined);
  });
}
