import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { DEMO_PATIENT, logInPatient, pageWidth, PHONE, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * An at-risk alert on the phone (spec §4: at risk, the patient is notified), at 390×844 with touch:
 * an SpO2 reading under the demo patient's at-risk line makes them AT_RISK; the app shows its in-app
 * notice and, where the patient allowed notifications, asks the phone to show one; the alert is in
 * the notifications list, unread. Without the permission the in-app notice is all there is.
 */

interface ShownNotification {
  title: string;
  body: string | undefined;
  tag: string | undefined;
}

const suite = usePhoneSuite();
let adminCookie = '';
let patientId = '';

beforeAll(async () => {
  adminCookie = await sessionCookie(suite.server.baseUrl, 'admin@demo.example');
  const [found] = await queryDatabase<{ id: string }>(
    suite.server,
    'SELECT p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = $1',
    [DEMO_PATIENT],
  );
  if (found === undefined) throw new Error('the demo patient has no record');
  patientId = found.id;
});

/** The patient back to normal, in a new alert episode (as after values came down). */
const resetPatient = () =>
  queryDatabase(
    suite.server,
    `UPDATE patients SET status = 'NORMAL', alert_episode_level = 'NORMAL', alerts_suppressed_until_normal = false WHERE id = $1`,
    [patientId],
  );

/** 93 % SpO2: under the at-risk line (94), above the high-risk one (92); posted as the watch would. */
const postAtRiskReading = () =>
  callWithCookie(suite.server.baseUrl, adminCookie, 'POST', '/collector/readings', {
    batchId: randomUUID(),
    patientId,
    readings: [{ measure: 'SPO2', value: 93, source: 'WIRELESS_DEVICE', measuredAt: new Date(Date.now() - 60_000).toISOString() }],
  });

const patientStatus = async () =>
  (await queryDatabase<{ status: string }>(suite.server, 'SELECT status FROM patients WHERE id = $1', [patientId]))[0]?.status;

const latestAtRiskAlert = async () =>
  (
    await queryDatabase<{ id: string; type: string }>(
      suite.server,
      `SELECT id, type FROM alerts WHERE patient_id = $1 AND level = 'AT_RISK' ORDER BY created_at DESC LIMIT 1`,
      [patientId],
    )
  )[0];

/**
 * Puts a recorder in place of the page's Notification: it answers with the browser's real
 * permission and keeps what the app asks to show, instead of showing it.
 */
async function recordPhoneNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body: string | undefined; tag: string | undefined }[] = [];
    class RecordedNotification {
      static get permission(): NotificationPermission {
        return Real.permission;
      }
      static requestPermission(): Promise<NotificationPermission> {
        return Real.requestPermission();
      }
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body, tag: options?.tag });
      }
      close(): void {
        // Nothing was shown: nothing to close.
      }
    }
    Object.defineProperty(window, 'shownNotifications', { value: shown });
    Object.defineProperty(window, 'Notification', { value: RecordedNotification, configurable: true, writable: true });
  });
}

const shownNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { shownNotifications: ShownNotification[] }).shownNotifications);

/**
 * Resolves once the app's live channel has answered its first resume: an alert raised after that
 * reaches the page (one raised before it would not be replayed to a fresh connection).
 */
function liveChannelReady(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname !== '/ws') return;
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.includes('"resumed"')) resolve();
      });
    });
  });
}

/** A phone with the demo patient logged in, live, the Notification recorder in place. */
async function openLivePhone(permissions: string[]): Promise<Page> {
  const page = await suite.openPhone({ permissions });
  await recordPhoneNotifications(page);
  const live = liveChannelReady(page);
  await logInPatient(page);
  await live;
  return page;
}

describe('at-risk alert on the phone', () => {
  it('shows the in-app notice, asks the phone to notify when allowed, and lists the alert unread', async () => {
    await resetPatient();
    const page = await openLivePhone(['notifications']);
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');

    await postAtRiskReading();
    const notice = page.getByTestId('at-risk-notice');
    await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await notice.getByText('Health alert').isVisible()).toBe(true);
    expect(await notice.getByText('Your SpO2 reading is at risk.').isVisible()).toBe(true);
    expect(await patientStatus()).toBe('AT_RISK');
    const alert = await latestAtRiskAlert();
    expect(alert?.type).toBe('SPO2');
    // The phone notification, tagged with the alert so a repeat replaces it rather than piling up.
    expect(await shownNotifications(page)).toEqual([
      { title: 'Health alert', body: 'Your SpO2 reading is at risk.', tag: alert?.id },
    ]);
    // At risk is a notice, not the high-risk confirmation.
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    // The notice leaves the SOS button uncovered and in reach.
    const sos = page.getByRole('button', { name: 'SOS: call for help' });
    const hitsSos = await sos.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(hitsSos).toBe(true);
    // The home page shows the status the reading raised, without a reload.
    await expect.poll(() => page.getByText('Status: At risk').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-at-risk-notice');

    await notice.getByRole('link', { name: 'See notifications' }).tap();
    await page.waitForURL('**/app/notifications');
    await expect.poll(() => notice.count()).toBe(0);
    const first = page.getByTestId('notification').first();
    await expect.poll(() => first.textContent()).toContain('At risk: SpO2');
    expect(await first.getAttribute('class')).toContain('unread');
    expect(await first.getByRole('img', { name: 'Unread' }).count()).toBe(1);
    await screenshot(page, 'patient-at-risk-notifications');
  });

  it('without the permission: the in-app notice only, no phone notification', async () => {
    await resetPatient();
    const page = await openLivePhone([]);
    expect(await page.evaluate(() => Notification.permission)).not.toBe('granted');

    await postAtRiskReading();
    const notice = page.getByTestId('at-risk-notice');
    await expect.poll(() => notice.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await notice.getByText('Your SpO2 reading is at risk.').isVisible()).toBe(true);
    expect(await shownNotifications(page)).toEqual([]);
    // Dismissed, it goes; the alert stays in the list.
    await notice.getByRole('button', { name: 'Dismiss' }).tap();
    await expect.poll(() => notice.count()).toBe(0);
    const alertsTab = page.getByRole('navigation').getByRole('link', { name: 'Alerts' });
    await expect.poll(() => alertsTab.getAttribute('aria-label')).toMatch(/^Alerts, [1-9]\d* unread$/);
  });
});
