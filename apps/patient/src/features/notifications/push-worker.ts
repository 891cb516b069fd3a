import { isAppWindow, notificationOptions, notificationTargetUrl, readPushPayload } from './push-message';

/**
 * The service worker's Web Push part, bundled on its own and written into `sw.js` by
 * build/pwa-plugin.ts: a push shows its notification, a tap on it opens the screen it names in the
 * app's window (focused, else a new one). Nothing here may import what the app's pages import too,
 * or the bundler would share a chunk that a classic worker script cannot load.
 */

// The project's DOM typings have no worker globals: the few used here, as the specs define them.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  readonly focused: boolean;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as WorkerScope;

function pushText(event: PushEvent): string | undefined {
  try {
    return event.data?.text();
  } catch {
    return undefined;
  }
}

worker.addEventListener('push', (event) => {
  const payload = readPushPayload(pushText(event));
  // Not one of ours: nothing to show.
  if (payload === undefined) return;
  const icon = new URL('icons/icon-192.png', worker.registration.scope).href;
  event.waitUntil(worker.registration.showNotification(payload.title, notificationOptions(payload, icon)));
});

/** Brings the app's window forward on the screen (focus first: the browser allows it only right after the tap), else opens one. */
async function openInApp(url: string): Promise<void> {
  const scope = worker.registration.scope;
  const windows = (await worker.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((client) => isAppWindow(client.url, scope));
  const appWindow = windows.find((client) => client.focused) ?? windows[0];
  if (appWindow === undefined) {
    await worker.clients.openWindow(url);
    return;
  }
  const focused = await appWindow.focus().catch(() => appWindow);
  // A window this worker does not control cannot be navigated: a new one then.
  const navigated = await focused.navigate(url).catch(() => null);
  if (navigated === null) await worker.clients.openWindow(url);
}

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openInApp(notificationTargetUrl(event.notification.data, worker.registration.scope)));
});
