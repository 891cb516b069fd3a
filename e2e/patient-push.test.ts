import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { SCREENSHOT_DIR } from './support/harness.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Web Push in the patient app on a small phone (360 px). Headless Chromium has no push service, so
 * what is tested is what the browser can do here: a phone that blocks notifications is told so and
 * offered no button (a prompt left unanswered is not tested: headless Chromium never answers it); with notifications allowed, "Turn on" either reaches a push service (then the
 * server keeps the subscription and sign-out forgets it) or says the push service could not be
 * reached, never "On"; and the service worker's push handler, given a push by DevTools (no push
 * service, no server), shows the payload's notification, tagged with its id, and ignores a
 * malformed one. The tap on a notification is covered by push-message.test.ts (unit).
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;

const card = (page: Page) => page.getByTestId('push-device');

/** The page, and the card alone at its real size (the page's picture is long). */
async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await card(page).screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-card.png`) });
}

async function openSettings(page: Page): Promise<void> {
  await page.goto('/app/notifications/settings');
  await expect.poll(() => page.getByRole('heading', { name: 'Notification preferences', level: 1 }).isVisible()).toBe(true);
  await expect.poll(() => card(page).getAttribute('data-state')).not.toBe('checking');
}

async function pushSubscriptionsOfDemoPatient(): Promise<string[]> {
  const rows = await queryDatabase<{ endpoint: string }>(
    suite.server,
    `SELECT endpoint FROM push_subscriptions WHERE user_id = (SELECT id FROM users WHERE email = 'patient@demo.example')`,
  );
  return rows.map((row) => row.endpoint);
}

/** Waits for the app's worker to be active; a DevTools session on it, and its registration id. */
async function workerRegistration(page: Page): Promise<{ cdp: CDPSession; registrationId: string }> {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/app/'))?.active?.state ?? 'none'))
    .toBe('activated');
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      const found = event.registrations.find((registration) => registration.scopeURL.endsWith('/app/') && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await registrations };
}

describe('patient app push notifications', () => {
  it('tells a phone that blocks notifications so, with no button to press', async () => {
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    // The site's notifications blocked, as a person would in the browser's settings.
    const cdp = await page.context().newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: suite.server.baseUrl,
      browserContextId: targetInfo.browserContextId,
    });
    await openSettings(page);
    expect(await card(page).getAttribute('data-state')).toBe('blocked');
    expect(await card(page).getByRole('heading', { name: 'Push notifications on this device' }).isVisible()).toBe(true);
    expect(await card(page).getByRole('status').textContent()).toBe('Blocked');
    expect(await card(page).textContent()).toContain('Notifications are blocked for this app in your browser settings.');
    expect(await card(page).getByRole('button').count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshots(page, 'patient-push-blocked-360');
  });

  it('turns push on only when a push service answers, in English and Vietnamese', async () => {
    await queryDatabase(suite.server, 'DELETE FROM push_subscriptions');
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await page.context().grantPermissions(['notifications']);
    await logInPatient(page);
    await openSettings(page);
    const button = card(page).getByRole('button', { name: 'Turn on' });
    expect(await card(page).getByRole('status').textContent()).toBe('Off');
    const problems = await axeViolations(page);
    expect(problems, formatViolations('push card', problems)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshots(page, 'patient-push-off-360');

    // Pressed from the keyboard: the focus stays on the one button as the state changes.
    await button.focus();
    await page.keyboard.press('Enter');
    const pushButton = card(page).getByRole('button');
    // Settled when it is on or says why not (the button may not yet read "Turning on…" right after the key).
    await expect
      .poll(async () => (await card(page).getAttribute('data-state')) === 'on' || (await card(page).locator('.push-problem').count()) > 0, {
        timeout: 30_000,
      })
      .toBe(true);
    await expect.poll(() => pushButton.textContent()).not.toBe('Turning on…');
    const state = await card(page).getAttribute('data-state');
    const stored = await pushSubscriptionsOfDemoPatient();
    if (state === 'on') {
      // A push service answered: the server keeps this browser's subscription, and sign-out forgets it.
      const endpoint = await page.evaluate(async () =>
        (await (await navigator.serviceWorker.getRegistration('/app/'))?.pushManager.getSubscription())?.endpoint,
      );
      expect(stored).toEqual([endpoint]);
      expect(await pushButton.textContent()).toBe('Turn off');
      await screenshots(page, 'patient-push-on-360');
      await page.goto('/app/');
      await page.getByRole('button', { name: 'Log out' }).tap();
      await page.waitForURL('**/app/login');
      await expect.poll(pushSubscriptionsOfDemoPatient).toEqual([]);
      return;
    }
    // No push service here: the card says so and claims nothing.
    expect(state).toBe('off');
    expect(await card(page).textContent()).toContain('The push service could not be reached, so push notifications are still off.');
    expect(await card(page).getByRole('status').textContent()).toBe('Off');
    expect(await pushButton.textContent()).toBe('Turn on');
    expect(await pushButton.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(stored).toEqual([]);
    expect(await page.evaluate(async () => (await (await navigator.serviceWorker.getRegistration('/app/'))?.pushManager.getSubscription()) ?? null)).toBeNull();
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshots(page, 'patient-push-unreachable-360');

    await page.locator('header select').selectOption('vi');
    await expect.poll(() => card(page).getByRole('heading', { name: 'Thông báo đẩy trên thiết bị này' }).isVisible()).toBe(true);
    expect(await card(page).getByRole('status').textContent()).toBe('Đang tắt');
    expect(await card(page).getByRole('button', { name: 'Bật' }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshots(page, 'patient-push-off-vi-360');
    await card(page).getByRole('button', { name: 'Bật' }).tap();
    await expect.poll(() => card(page).textContent(), { timeout: 30_000 }).toContain('Không kết nối được với dịch vụ thông báo đẩy');
    await screenshots(page, 'patient-push-unreachable-vi-360');
    await page.locator('header select').selectOption('en');

    // Signing out looks for this device's subscription (none here) and is not held up by it.
    await page.goto('/app/');
    await page.getByRole('button', { name: 'Log out' }).tap();
    await page.waitForURL('**/app/login', { timeout: 5000 });
  });

  it("shows a push's notification from the service worker, and ignores a malformed push", async () => {
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await page.context().grantPermissions(['notifications']);
    await logInPatient(page);
    const { cdp, registrationId } = await workerRegistration(page);
    const notifications = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/app/');
        return (await registration?.getNotifications())?.map((shown) => ({ title: shown.title, body: shown.body, tag: shown.tag, data: shown.data as unknown, icon: shown.icon })) ?? [];
      });
    const id = '0190f2a4-7b7e-7c3a-9d1e-2f4b5c6d7e8f';
    // Delivered by DevTools to the worker itself: no push service and no server are involved.
    const deliver = (data: string) => cdp.send('ServiceWorker.deliverPushMessage', { origin: suite.server.baseUrl, registrationId, data });
    await deliver('not a payload');
    await deliver(JSON.stringify({ notificationId: id, title: 'Appointment', link: null }));
    await deliver(JSON.stringify({ notificationId: id, title: 'Appointment', body: 'Open the app to read it.', link: `/appointments/${id}` }));
    await expect.poll(notifications).toHaveLength(1);
    expect(await notifications()).toEqual([
      {
        title: 'Appointment',
        body: 'Open the app to read it.',
        tag: id,
        data: { link: `/appointments/${id}` },
        icon: `${suite.server.baseUrl}/app/icons/icon-192.png`,
      },
    ]);
    // The same notice again replaces its notification (same tag) rather than stacking.
    await deliver(JSON.stringify({ notificationId: id, title: 'Appointment', body: 'Open the app to read it.', link: null }));
    await expect.poll(async () => (await notifications())[0]?.data).toEqual({ link: null });
    expect(await notifications()).toHaveLength(1);
  });
});
