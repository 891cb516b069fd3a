/**
 * A phone notification for an alert, when the patient allowed them (spec §4: at risk, the user is
 * notified). Without permission, or where the browser has no notifications, the in-app notice is
 * all there is.
 */
export function showSystemNotification(title: string, body: string, tag: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag });
  } catch {
    // Some phones only allow notifications from a service worker; the in-app notice remains.
  }
}

export function systemNotificationState(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function askForSystemNotifications(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}
