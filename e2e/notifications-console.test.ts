import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { callWithCookie, sessionCookie } from './support/api.js';
import { dismissToasts, screenshot } from './support/console.js';
import { queryDatabase } from './support/phone.js';
import { poll, useConsoleSuite, waitForLive } from './support/suite.js';

/**
 * The console's notification centre: an admin sends the demo doctor a message and a mandatory
 * notice through the API; the doctor signs in and must acknowledge the notice first; the bell
 * counts the unread message, the inbox lists it, opening it reads it and leads to its link; a
 * message sent while the page is open reaches the bell at once; "Mark all as read", the unread
 * filter and "Show more" work; the open inbox passes axe. In the account page, in-app appointment
 * notices turned off stay off and alerts cannot be turned off. The same screens in Vietnamese.
 */

const suite = useConsoleSuite();
let doctorId = '';
let adminCookie = '';

/** Titles unique to one attempt, so a retried test never finds an earlier attempt's notices. */
const run = () => Date.now().toString(36).slice(-5);

function send(message: {
  title: string;
  body: string;
  force?: boolean;
  link?: string;
}): Promise<{ sent: number }> {
  return callWithCookie(suite.server.baseUrl, adminCookie, 'POST', '/collector/notification/send', {
    userIds: [doctorId],
    ...message,
  });
}

const bell = (page: Page) => page.getByTestId('notification-bell');
const inbox = (page: Page, name = 'Notifications') => page.getByRole('dialog', { name });
const itemTitled = (page: Page, title: string) =>
  page.getByTestId('notification-item').filter({ hasText: title });

/** The bell's count as its accessible name says it ("Notifications, 3 unread"); 0 without one. */
async function bellCount(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  const match = /(\d+)/.exec(label);
  return match ? Number(match[1]) : 0;
}

beforeAll(async () => {
  const [doctor] = await queryDatabase<{ id: string }>(
    suite.server,
    `SELECT id FROM users WHERE email = 'doctor@demo.example'`,
  );
  if (doctor === undefined) throw new Error('no demo doctor');
  doctorId = doctor.id;
  adminCookie = await sessionCookie(suite.server.baseUrl, 'admin@demo.example');
});

/** The doctor's inbox read and its preferences as they come, whatever ran before. */
async function resetDoctor(): Promise<void> {
  await queryDatabase(
    suite.server,
    'UPDATE notifications SET read_at = now() WHERE recipient_id = $1 AND read_at IS NULL',
    [doctorId],
  );
  await queryDatabase(suite.server, 'DELETE FROM notification_preferences WHERE user_id = $1', [doctorId]);
}

describe('console notification centre', () => {
  it('shows a mandatory notice first, counts and lists messages, reads them, and updates live', async () => {
    await resetDoctor();
    const id = run();
    const MESSAGE = {
      title: `Clinic hours ${id}`,
      body: 'From Monday the clinic opens at 7:00.\nBring your badge.',
      link: '/appointments',
    };
    const FORCE = {
      title: `Privacy notice ${id}`,
      body: 'We updated how patient data is kept. Please read this notice.',
      force: true,
    };
    expect(await send(MESSAGE)).toEqual({ sent: 1 });
    expect(await send(FORCE)).toEqual({ sent: 1 });

    // Signed in: the mandatory notice covers the home page; Escape and a click outside leave it.
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    const notice = page.getByRole('dialog', { name: 'Important notice' });
    await poll(() => notice.isVisible()).toBe(true);
    expect(await notice.getByTestId('force-notice-title').textContent()).toBe(FORCE.title);
    expect(await notice.getByTestId('force-notice-body').textContent()).toBe(FORCE.body);
    expect(await notice.textContent()).toContain('Message');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('I have read this');
    await screenshot(page, 'notifications-console-force');
    await page.keyboard.press('Escape');
    await page.mouse.click(10, 400);
    expect(await notice.isVisible()).toBe(true);
    await notice.getByRole('button', { name: 'I have read this' }).click();
    await poll(() => notice.count()).toBe(0);
    const [acknowledged] = await queryDatabase<{ read_at: Date | null }>(
      suite.server,
      'SELECT read_at FROM notifications WHERE title = $1',
      [FORCE.title],
    );
    expect(acknowledged?.read_at).toBeInstanceOf(Date);

    // The bell counts the unread message.
    await poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 1 unread');
    expect(await page.getByTestId('notification-badge').textContent()).toBe('1');
    await screenshot(page, 'notifications-console-bell');

    // The inbox (opened from the keyboard) lists the message, unread, with its line break, and the
    // acknowledged notice, read.
    await bell(page).focus();
    await page.keyboard.press('Enter');
    const drawer = inbox(page);
    await poll(() => drawer.isVisible()).toBe(true);
    const message = itemTitled(page, MESSAGE.title);
    await poll(() => message.count()).toBe(1);
    expect(await message.getAttribute('data-read')).toBe('false');
    expect(await message.getByTestId('notification-type').textContent()).toBe('Message');
    expect(await message.getByTestId('notification-body').innerText()).toBe(MESSAGE.body);
    expect(await itemTitled(page, FORCE.title).getAttribute('data-read')).toBe('true');
    await page.waitForTimeout(400); // the drawer's opening transition
    const problems = await axeViolations(page);
    expect(problems, formatViolations('open inbox', problems)).toEqual([]);
    await screenshot(page, 'notifications-console-inbox');

    // Opening the message reads it and leads to its link, in the doctor's area.
    await message.getByRole('link').click();
    await page.waitForURL('**/doctor/appointments');
    await poll(() => drawer.isVisible()).toBe(false);
    await poll(() => bellCount(page)).toBe(0);
    expect(await page.getByTestId('notification-badge').count()).toBe(0);
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');

    // Sent while the page is open: the bell counts them at once (its poll is a minute away).
    await waitForLive(page);
    const LIVE = [`Ward round ${id}`, `Team meeting ${id}`];
    for (const title of LIVE) await send({ title, body: 'See the schedule.' });
    await poll(() => bellCount(page)).toBe(2);
    expect(await page.getByTestId('notification-badge').textContent()).toBe('2');

    // "Mark all as read" clears the count; the unread filter then shows nothing.
    await bell(page).click();
    await poll(() => itemTitled(page, LIVE[1] ?? '').getAttribute('data-read')).toBe('false');
    await drawer.getByRole('button', { name: 'Mark all as read' }).click();
    await poll(() => bellCount(page)).toBe(0);
    await poll(() => itemTitled(page, LIVE[0] ?? '').getAttribute('data-read')).toBe('true');
    await drawer.getByText('Unread', { exact: true }).click();
    await poll(() => drawer.getByText('No unread notifications').isVisible()).toBe(true);
    await drawer.getByText('All', { exact: true }).click();

    // One marked read on its own: 16 more make two pages; "Show more" brings the rest.
    for (let index = 1; index <= 16; index++)
      await send({ title: `Bulletin ${String(index)} ${id}`, body: 'Weekly bulletin.' });
    await poll(() => bellCount(page)).toBe(16);
    await poll(() => drawer.getByTestId('notification-item').count()).toBe(15);
    const newest = itemTitled(page, `Bulletin 16 ${id}`);
    await newest.getByRole('button', { name: `Mark as read: Bulletin 16 ${id}` }).click();
    await poll(() => bellCount(page)).toBe(15);
    await poll(() => newest.getAttribute('data-read')).toBe('true');
    await drawer.getByRole('button', { name: 'Show more' }).click();
    await poll(() => itemTitled(page, MESSAGE.title).count()).toBe(1);
    await page.keyboard.press('Escape');
    await poll(() => drawer.isVisible()).toBe(false);
    expect(await bell(page).evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('keeps the channels chosen in the account page, alerts always on, and speaks Vietnamese', async () => {
    await resetDoctor();
    const id = run();
    await send({ title: `Clinic hours ${id}`, body: 'From Monday the clinic opens at 7:00.' });
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    await page.goto('/doctor/account?tab=notifications');
    const table = page.getByTestId('notification-preferences');
    await poll(() => table.isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Notifications' }).getAttribute('aria-selected')).toBe('true');
    const appointmentInApp = table.getByRole('switch', { name: 'Appointment by In the app' });
    expect(await appointmentInApp.isChecked()).toBe(true);
    const alertRow = page.getByTestId('preference-row-ALERT');
    expect(await alertRow.getByText('Always on').isVisible()).toBe(true);
    const alertSwitches = await alertRow.getByRole('switch').all();
    expect(alertSwitches.length).toBe(4);
    for (const alertSwitch of alertSwitches) {
      expect(await alertSwitch.isChecked()).toBe(true);
      expect(await alertSwitch.isDisabled()).toBe(true);
    }
    await appointmentInApp.click({ force: true });
    expect(await appointmentInApp.isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await poll(() => page.getByText('Preferences saved').isVisible()).toBe(true);
    await screenshot(page, 'notifications-console-preferences');
    await dismissToasts(page);
    await page.reload();
    await poll(() => table.isVisible()).toBe(true);
    await poll(() => appointmentInApp.isChecked()).toBe(false);
    expect(await table.getByRole('switch', { name: 'Appointment by E-mail' }).isChecked()).toBe(true);
    const stored = await queryDatabase<{ type: string; channel: string; enabled: boolean }>(
      suite.server,
      'SELECT type, channel, enabled FROM notification_preferences WHERE user_id = $1 AND NOT enabled',
      [doctorId],
    );
    expect(stored).toEqual([{ type: 'APPOINTMENT', channel: 'IN_APP', enabled: false }]);

    // In Vietnamese: the preferences, the bell and its inbox, and a mandatory notice arriving live.
    await page.getByRole('banner').getByText('Tiếng Việt').click();
    await poll(() => page.getByRole('heading', { name: 'Tùy chọn thông báo' }).isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Thông báo' }).getAttribute('aria-selected')).toBe('true');
    expect(await alertRow.getByText('Luôn bật').isVisible()).toBe(true);
    await screenshot(page, 'notifications-console-preferences-vi');
    await poll(() => bell(page).getAttribute('aria-label')).toBe('Thông báo, 1 chưa đọc');
    await screenshot(page, 'notifications-console-bell-vi');
    await bell(page).click();
    const drawer = inbox(page, 'Thông báo');
    await poll(() => drawer.isVisible()).toBe(true);
    await poll(() =>
      itemTitled(page, `Clinic hours ${id}`).getByTestId('notification-type').textContent(),
    ).toBe('Tin nhắn');
    expect(await drawer.getByRole('button', { name: 'Đánh dấu tất cả đã đọc' }).isVisible()).toBe(true);
    await page.waitForTimeout(400);
    await screenshot(page, 'notifications-console-inbox-vi');
    await page.keyboard.press('Escape');
    await waitForLive(page);
    await send({
      title: `Lịch nghỉ ${id}`,
      body: 'Phòng khám nghỉ ngày thứ Hai.\nVui lòng sắp xếp lịch hẹn.',
      force: true,
    });
    const notice = page.getByRole('dialog', { name: 'Thông báo quan trọng' });
    await poll(() => notice.isVisible()).toBe(true);
    await screenshot(page, 'notifications-console-force-vi');
    await notice.getByRole('button', { name: 'Tôi đã đọc' }).click();
    await poll(() => notice.count()).toBe(0);
    await page.getByRole('banner').getByText('English').click();
  });
});
