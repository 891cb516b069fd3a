import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { callWithCookie, sessionCookie } from './support/api.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * The notification centre in the patient app on a small phone (360 px, touch): an admin sends the
 * demo patient a message and a mandatory notice through the API; the patient signs in, the notice
 * covers the screen until "I have read this", the message waits under Updates, unread, and tapping
 * it reads it (the navigation's count goes down). A message sent while the page is open appears at
 * once and leads where its link says. In the settings, in-app prescriptions turned off stay off
 * and alerts cannot be turned off. The Updates tab passes axe; the same screens in Vietnamese.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
const ZONE = 'Asia/Ho_Chi_Minh';

/** The messages of one attempt, their titles unique to it (a retry sends new ones). */
function messagesOfAttempt() {
  const run = Date.now().toString(36).slice(-5);
  return {
    run,
    MESSAGE: { title: `Clinic hours ${run}`, body: 'From Monday the clinic opens at 7:00.\nBring your watch to your next visit.' },
    FORCE: { title: `Privacy notice ${run}`, body: 'We updated how your health data is kept. Please read this notice.' },
    LIVE: { title: `Your booking ${run}`, body: 'Please book your next check-up.' },
  };
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const updates = (page: Page) => page.getByTestId('update');
const updateTitled = (page: Page, title: string) => updates(page).filter({ hasText: title });

/** The number on the navigation's Notifications tab (0 when it shows none). */
async function badgeCount(page: Page): Promise<number> {
  const label = await nav(page).getByRole('link', { name: /^(Alerts|Thông báo)/ }).getAttribute('aria-label');
  if (label === null) return 0;
  return Number(/(\d+)/.exec(label)?.[1] ?? 'NaN');
}

describe('patient app notification centre', () => {
  it('shows a mandatory notice until read, lists messages with their read marks, live, and keeps the settings', async () => {
    const server = suite.server;
    const { run, MESSAGE, FORCE, LIVE } = messagesOfAttempt();
    const [patient] = await queryDatabase<{ id: string; user_id: string }>(
      server,
      `SELECT p.id, p.user_id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    // A retry starts with nothing unread (an earlier attempt's notices read).
    await queryDatabase(server, 'UPDATE notifications SET read_at = now() WHERE recipient_id = $1 AND read_at IS NULL', [patient.user_id]);
    const admin = await sessionCookie(server.baseUrl, 'admin@demo.example');
    const send = (message: { title: string; body: string }, extra: { force?: boolean; link?: string } = {}) =>
      callWithCookie<{ sent: number }>(server.baseUrl, admin, 'POST', '/collector/notification/send', {
        patientIds: [patient.id],
        ...message,
        ...extra,
      });
    // The settings as they come (a retry finds what the first attempt changed).
    await queryDatabase(
      server,
      'DELETE FROM notification_preferences WHERE user_id = $1',
      [patient.user_id],
    );

    expect(await send(MESSAGE)).toEqual({ sent: 1 });
    expect(await send(FORCE, { force: true })).toEqual({ sent: 1 });

    // Signed in: the mandatory notice covers the home page, and Escape does not close it.
    const page = await suite.openPhone({ viewport: SMALL_PHONE, timezoneId: ZONE });
    await logInPatient(page);
    const sheet = page.getByTestId('force-notice');
    await expect.poll(() => sheet.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('alertdialog', { name: FORCE.title }).isVisible()).toBe(true);
    expect(await sheet.textContent()).toContain('Important notice');
    expect(await sheet.textContent()).toContain(FORCE.body);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('I have read this');
    await page.keyboard.press('Escape');
    expect(await sheet.isVisible()).toBe(true);
    // The SOS button stays in reach over the notice.
    expect(await sheet.getByRole('button', { name: 'SOS: call for help' }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-notifications-force-360');
    await sheet.getByRole('button', { name: 'I have read this' }).tap();
    await expect.poll(() => sheet.count()).toBe(0);
    const [acknowledged] = await queryDatabase<{ read_at: Date | null }>(server, 'SELECT read_at FROM notifications WHERE title = $1', [FORCE.title]);
    expect(acknowledged?.read_at).toBeInstanceOf(Date);

    // The navigation counts the unread message (with any unread alert of the demo patient).
    await expect.poll(() => badgeCount(page)).toBeGreaterThanOrEqual(1);
    const before = await badgeCount(page);
    await nav(page).getByRole('link', { name: /^Alerts/ }).tap();
    await page.waitForURL(/\/app\/notifications/);
    const updatesTab = page.getByRole('tab', { name: /^Updates/ });
    await updatesTab.tap();
    expect(await updatesTab.getAttribute('aria-selected')).toBe('true');
    expect(await updatesTab.textContent()).toMatch(/1 unread/);
    const message = updateTitled(page, MESSAGE.title);
    await expect.poll(() => message.count()).toBe(1);
    expect(await message.getAttribute('data-read')).toBe('false');
    expect(await message.textContent()).toContain('Message');
    expect(await message.textContent()).toContain('From Monday the clinic opens at 7:00.');
    // The acknowledged notice is listed too, read.
    expect(await updateTitled(page, FORCE.title).getAttribute('data-read')).toBe('true');
    const problems = await axeViolations(page);
    expect(problems, formatViolations('updates tab', problems)).toEqual([]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-notifications-updates-360');
    // The tabs answer the arrow keys, and the focus follows.
    await updatesTab.focus();
    await page.keyboard.press('ArrowRight');
    const alertsTab = page.getByRole('tab', { name: /^Alerts/ });
    await expect.poll(() => alertsTab.getAttribute('aria-selected')).toBe('true');
    expect(await alertsTab.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => updatesTab.getAttribute('aria-selected')).toBe('true');

    // Tapping the message reads it: the mark and the counts go.
    await message.getByRole('button').tap();
    await expect.poll(() => message.getAttribute('data-read')).toBe('true');
    await expect.poll(() => badgeCount(page)).toBe(before - 1);
    await expect.poll(() => updatesTab.textContent()).toBe('Updates');

    // Sent while the page is open: it appears at once, and leads where its link says.
    await send(LIVE, { link: '/appointments' });
    const live = updateTitled(page, LIVE.title);
    await expect.poll(() => live.count(), { timeout: 15_000 }).toBe(1);
    expect(await live.getAttribute('data-read')).toBe('false');
    await expect.poll(() => badgeCount(page)).toBe(before);
    await page.getByRole('button', { name: 'Unread', exact: true }).tap();
    await expect.poll(() => updates(page).count()).toBe(1);
    await live.getByRole('button').tap();
    await page.waitForURL('**/app/appointments');
    await expect.poll(() => badgeCount(page)).toBe(before - 1);
    await page.goBack();
    await page.waitForURL(/\/app\/notifications/);
    await page.getByRole('tab', { name: /^Updates/ }).tap();
    await page.getByRole('button', { name: 'Unread', exact: true }).tap();
    await expect.poll(() => page.getByTestId('updates-empty').textContent()).toBe('No unread notifications');

    // Settings: in-app prescriptions off, kept; alerts always on.
    await page.getByRole('link', { name: 'Settings' }).tap();
    await page.waitForURL('**/app/notifications/settings');
    await expect.poll(() => page.getByRole('heading', { name: 'Notification preferences', level: 1 }).isVisible()).toBe(true);
    const prescriptionInApp = page.getByRole('group', { name: 'Prescription' }).getByRole('switch', { name: 'In the app' });
    await expect.poll(() => prescriptionInApp.isChecked()).toBe(true);
    const alerts = page.getByRole('group', { name: 'Alert' });
    expect(await alerts.getByText('Always on').isVisible()).toBe(true);
    const alertSwitches = alerts.getByRole('switch');
    expect(await alertSwitches.count()).toBeGreaterThan(0);
    for (const alertSwitch of await alertSwitches.all()) {
      expect(await alertSwitch.isChecked()).toBe(true);
      expect(await alertSwitch.isDisabled()).toBe(true);
    }
    await prescriptionInApp.tap();
    await expect.poll(() => page.getByTestId('preferences-saved').isVisible()).toBe(true);
    expect(await prescriptionInApp.isChecked()).toBe(false);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-notifications-preferences-360');
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Notification preferences', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => prescriptionInApp.isChecked()).toBe(false);
    await expect.poll(() => page.getByRole('group', { name: 'Prescription' }).getByRole('switch', { name: 'E-mail' }).isChecked()).toBe(true);
    const stored = await queryDatabase<{ type: string; channel: string; enabled: boolean }>(
      server,
      `SELECT type, channel, enabled FROM notification_preferences
        WHERE user_id = (SELECT id FROM users WHERE email = 'patient@demo.example') ORDER BY type, channel`,
    );
    expect(stored).toEqual([{ type: 'PRESCRIPTION', channel: 'IN_APP', enabled: false }]);

    // In Vietnamese: the settings, the updates, and a mandatory notice arriving live.
    await page.locator('header select').selectOption('vi');
    await expect.poll(() => page.getByRole('heading', { name: 'Tùy chọn thông báo', level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Cảnh báo' }).getByText('Luôn bật').isVisible()).toBe(true);
    await screenshot(page, 'patient-notifications-preferences-vi-360');
    await page.getByRole('link', { name: 'Quay lại thông báo' }).tap();
    await page.getByRole('tab', { name: /^Cập nhật/ }).tap();
    await expect.poll(() => updateTitled(page, MESSAGE.title).textContent()).toContain('Tin nhắn');
    await screenshot(page, 'patient-notifications-updates-vi-360');
    await send({ title: `Thông báo ${run}`, body: 'Phòng khám nghỉ ngày thứ Hai.' }, { force: true });
    await expect.poll(() => sheet.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await sheet.textContent()).toContain('Thông báo quan trọng');
    await screenshot(page, 'patient-notifications-force-vi-360');
    await sheet.getByRole('button', { name: 'Tôi đã đọc' }).tap();
    await expect.poll(() => sheet.count()).toBe(0);
    await page.locator('header select').selectOption('en');
  });
});
