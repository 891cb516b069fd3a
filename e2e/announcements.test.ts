import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts } from './support/console.js';
import { logInPatient, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';
import { poll } from './support/suite.js';

/**
 * Announcements end to end: the demo admin composes one in the console (title, rich text with a
 * list, the whole tenant's doctors and patients, publish now), sees it listed as published with
 * its read count; the demo patient's app lists its notice under Updates and opens it on the
 * announcement screen (the sanitized body, list and all); the demo doctor's bell counts it and
 * opening it shows the announcement; the read count then says so.
 */

const suite = usePhoneSuite();
let driver: ConsoleDriver;
beforeAll(() => {
  driver = new ConsoleDriver(suite.browser, suite.server.baseUrl);
});
afterEach(async () => {
  await driver.closeAll();
});

describe('announcements', () => {
  it('reaches a patient’s app and a doctor’s bell when published in the console', async () => {
    const server = suite.server;
    const title = `Vaccination week ${Date.now().toString(36).slice(-5)}`;
    // A retry starts with nothing unread for the two readers.
    await queryDatabase(
      server,
      `UPDATE notifications SET read_at = now() WHERE read_at IS NULL AND recipient_id IN (SELECT id FROM users WHERE email IN ('patient@demo.example', 'doctor@demo.example'))`,
    );

    // The admin composes and publishes it.
    const admin = await driver.openPage();
    await driver.signIn(admin, 'admin@demo.example');
    await admin.waitForURL('**/admin');
    await admin.getByRole('link', { name: 'Announcements' }).click();
    await admin.waitForURL('**/admin/announcements');
    await admin.getByRole('link', { name: 'New announcement' }).click();
    await admin.waitForURL('**/admin/announcements/new');
    // Publishing with nothing filled in says what is missing, and sends nothing.
    await admin.getByRole('button', { name: 'Publish', exact: true }).click();
    await poll(() => admin.getByText('This field is required').count()).toBe(2);
    expect(await queryDatabase(server, 'SELECT id FROM announcements WHERE title = $1', [title])).toEqual([]);
    await admin.getByRole('textbox', { name: 'Title' }).fill(title);
    const editor = admin.getByTestId('announcement-body');
    await editor.click();
    await admin.keyboard.type('Flu shots all week at every center.');
    await admin.keyboard.press('Enter');
    await admin.getByRole('button', { name: 'Bulleted list' }).click();
    await admin.keyboard.type('Monday to Friday');
    await admin.keyboard.press('Enter');
    await admin.keyboard.type('8:00 to 11:00');
    await admin.getByRole('checkbox', { name: 'Doctor', exact: true }).check();
    expect(await admin.getByRole('checkbox', { name: 'Patients' }).isChecked()).toBe(true);
    await admin.getByRole('button', { name: 'Preview' }).click();
    const preview = admin.getByTestId('announcement-preview');
    await poll(() => preview.locator('li').count()).toBe(2);
    await screenshot(admin, 'announcements-compose-preview');
    await admin.keyboard.press('Escape');
    await screenshot(admin, 'announcements-compose');
    await admin.getByRole('button', { name: 'Publish', exact: true }).click();
    await admin.waitForURL('**/admin/announcements');
    await dismissToasts(admin);
    const row = admin.getByTestId('announcements-table').getByRole('row').filter({ hasText: title });
    await poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Published');
    const [stored] = await queryDatabase<{ id: string; recipients: number }>(
      server,
      `SELECT a.id, (SELECT count(*)::int FROM notifications n WHERE n.params ->> 'announcementId' = a.id::text) AS recipients FROM announcements a WHERE a.title = $1`,
      [title],
    );
    if (stored === undefined) throw new Error('the announcement was not stored');
    expect(stored.recipients).toBeGreaterThan(1);
    expect(await row.getByTestId('announcement-reads').textContent()).toBe(`0 of ${String(stored.recipients)}`);
    await screenshot(admin, 'announcements-list');

    // The patient's app: the notice under Updates opens the announcement screen.
    const phone = await suite.openPhone();
    await logInPatient(phone);
    await phone.goto('/app/notifications');
    await phone.getByRole('tab', { name: /^Updates/ }).tap();
    const notice = phone.getByTestId('update').filter({ hasText: title });
    await poll(() => notice.count()).toBe(1);
    expect(await notice.getAttribute('data-read')).toBe('false');
    expect(await notice.textContent()).toContain('Announcement');
    await notice.getByRole('button').tap();
    await phone.waitForURL(`**/app/announcements/${stored.id}`);
    const screen = phone.getByTestId('announcement');
    await poll(() => screen.getByRole('heading', { name: title }).isVisible()).toBe(true);
    expect(await screen.getByTestId('announcement-body').locator('li').allTextContents()).toEqual(['Monday to Friday', '8:00 to 11:00']);
    await screenshot(phone, 'announcements-patient-app');

    // The doctor's bell counts it; opening it shows the announcement.
    const doctor = await driver.openPage();
    await driver.signIn(doctor, 'doctor@demo.example');
    await doctor.waitForURL('**/doctor');
    const bell = doctor.getByTestId('notification-bell');
    await poll(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    await bell.click();
    const item = doctor.getByTestId('notification-item').filter({ hasText: title });
    await poll(() => item.count()).toBe(1);
    await item.getByRole('link').click();
    await doctor.waitForURL(`**/doctor/announcements/${stored.id}`);
    const view = doctor.getByTestId('announcement-view');
    await poll(() => view.getByRole('heading', { name: title }).isVisible()).toBe(true);
    expect(await view.getByTestId('announcement-html').locator('li').count()).toBe(2);
    await poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await screenshot(doctor, 'announcements-doctor-view');

    // Both have read it.
    await admin.reload();
    await poll(() => admin.getByTestId('announcements-table').getByRole('row').filter({ hasText: title }).getByTestId('announcement-reads').textContent()).toBe(
      `2 of ${String(stored.recipients)}`,
    );
  });
});
