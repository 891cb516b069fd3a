import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations } from './support/accessibility.js';
import { DEMO_PATIENT, logInPatient, pageWidth, PHONE, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Sub-users in the patient app on a phone (390×844, touch): the account holder adds a sub-user
 * profile (a child), switches the app to it from the header, enters a heart rate for it by hand
 * and sees it on the sub-user's health pages, then switches back to its own record, which does not
 * have it. The SOS button is hidden while the sub-user is active (SOS is for main users only). A
 * followed patient's profile is view only: no entry, no weight or goal form, no watch binding, no SOS.
 */

const suite = usePhoneSuite();

const sosButton = (page: Page) => page.getByRole('button', { name: 'SOS: call for help' });
const switcher = (page: Page) => page.getByRole('button', { name: /^Profile: .*\. Switch profile$/ });
const banner = (page: Page) => page.locator('.profile-banner');
/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(formatViolations(where, await axeViolations(page))).toBe('');
}
const statText = (page: Page, stat: string) => page.locator(`.stats [data-stat="${stat}"] dd`).textContent();

/** Where each heart rate of a manual entry was stored: the own record or a sub-user of the demo patient. */
async function storedHeartRates(): Promise<{ owner: string; value: number }[]> {
  const rows = await queryDatabase<{ owner: string; value: number | string }>(
    suite.server,
    `SELECT CASE WHEN p.user_id = u.id THEN 'own' ELSE p.first_name || ' ' || p.last_name END AS owner, r.value
       FROM readings r JOIN patients p ON p.id = r.patient_id
       JOIN users u ON u.id = p.user_id OR u.id = p.holder_user_id
      WHERE u.email = $1 AND r.measure = 'HEART_RATE' AND r.source = 'MANUAL'`,
    [DEMO_PATIENT],
  );
  return rows.map((row) => ({ owner: row.owner, value: Number(row.value) }));
}

describe('patient app sub-users', () => {
  it('adds a sub-user, enters a reading for it from its profile without SOS, and keeps it off the own record', async () => {
    const page = await suite.openPhone();
    await logInPatient(page);
    await expect.poll(() => sosButton(page).isVisible()).toBe(true);
    expect(await banner(page).count()).toBe(0);

    // The header's switcher leads to the sub-users screen, with the demo patient's daughter Linh.
    await switcher(page).tap();
    await page.getByRole('link', { name: 'Manage sub-users' }).tap();
    await page.waitForURL('**/app/sub-users');
    await expect.poll(() => page.locator('.sub-user-list > li').filter({ hasText: 'Linh Pham' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Add a sub-user' }).tap();
    await page.waitForURL('**/app/sub-users/new');

    // Refused before anything is sent: no names, a birthday in the future.
    await page.getByLabel('Birthday').fill('2999-01-01');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    await expect.poll(() => page.getByText('The birthday cannot be in the future.').isVisible()).toBe(true);
    expect(await page.getByText('Required.').count()).toBe(3);
    await expectAccessible(page, 'sub-user form with its messages');

    // A child is allowed.
    await page.getByLabel('First name').fill('Bé');
    await page.getByLabel('Last name').fill('Na');
    await page.getByLabel('Gender').selectOption('FEMALE');
    await page.getByLabel('Birthday').fill('2019-05-01');
    await page.getByLabel('Relation to you').selectOption('CHILD');
    await page.getByLabel('Diabetes').check();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-sub-users-form');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    await page.waitForURL('**/app/sub-users');
    const item = page.locator('.sub-user-list li').filter({ hasText: 'Bé Na' });
    await expect.poll(() => item.locator('.sub-user-facts').textContent()).toMatch(/^Child · Age \d+$/);
    await screenshot(page, 'patient-sub-users-list');

    // Switch to the sub-user from the header: the banner says whose data is shown, no SOS button.
    await switcher(page).tap();
    const menu = page.locator('.profile-menu');
    await expect.poll(() => menu.getByRole('button', { name: /Bé Na/ }).isVisible()).toBe(true);
    expect(await menu.getByRole('button').allTextContents()).toEqual([
      expect.stringMatching(/Me$/),
      'Linh PhamSub-user',
      'Bé NaSub-user',
    ]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-sub-users-switcher');
    await expectAccessible(page, 'switcher menu');
    await menu.getByRole('button', { name: /Bé Na/ }).tap();
    await page.waitForURL(/\/app\/?$/);
    await expect.poll(() => banner(page).textContent()).toBe('Viewing Bé NaBack to me');
    expect(await switcher(page).textContent()).toContain('Bé Na');
    expect(await sosButton(page).count()).toBe(0);

    // Manual entry works for a sub-user.
    await page.getByRole('link', { name: 'Add', exact: true }).tap();
    await page.waitForURL('**/app/entry');
    await page.getByLabel('Measure', { exact: true }).selectOption('HEART_RATE');
    await page.getByLabel('Heart rate (bpm)').fill('77');
    const saved = page.waitForResponse((response) => new URL(response.url()).pathname === '/health/manual');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    const savedResponse = await saved;
    expect({ status: savedResponse.status(), body: savedResponse.status() === 200 ? null : await savedResponse.text() }).toEqual({ status: 200, body: null });
    expect(savedResponse.request().headers()['x-patient-profile']).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Saved' }).isVisible()).toBe(true);
    expect(await sosButton(page).count()).toBe(0);
    await screenshot(page, 'patient-sub-users-entry-saved');
    expect(await storedHeartRates()).toEqual([{ owner: 'Bé Na', value: 77 }]);

    // The sub-user's health: the home dashboard and the heart rate page show it.
    await page.getByRole('link', { name: 'Home' }).tap();
    const heart = page.locator('.readings li[data-measure="HEART_RATE"]');
    await expect.poll(() => heart.locator('.reading-value').textContent()).toBe('77 bpm');
    await heart.getByRole('link').tap();
    await page.waitForURL('**/app/health/heart-rate');
    await expect.poll(() => statText(page, 'max')).toBe('77 bpm');
    await screenshot(page, 'patient-sub-users-health');
    // In Vietnamese too.
    await page.getByLabel('Language').selectOption('vi');
    await expect.poll(() => banner(page).textContent()).toBe('Đang xem Bé NaVề hồ sơ của tôi');
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-sub-users-health-vi');
    await page.getByLabel('Ngôn ngữ').selectOption('en');

    // Back to the own record: the banner goes, SOS returns, and the reading is not the holder's.
    await page.getByRole('button', { name: 'Back to me' }).tap();
    await page.waitForURL(/\/app\/?$/);
    await expect.poll(() => banner(page).count()).toBe(0);
    await expect.poll(() => sosButton(page).isVisible()).toBe(true);
    await expect.poll(() => page.locator('.readings, .home .hint').first().isVisible()).toBe(true);
    expect(await page.locator('.readings li[data-measure="HEART_RATE"]').count()).toBe(0);
    await page.goto('/app/health/heart-rate');
    await expect.poll(() => page.getByText('No values in this period.').isVisible()).toBe(true);
    await screenshot(page, 'patient-sub-users-own-again');
  });

  it('shows a followed patient view only: no entry, weight form, watch binding or SOS', async () => {
    // The demo patient follows another patient of its tenant (a confirmed invitation, as the app's confirm leaves it).
    const [followed] = await queryDatabase<{ id: string; name: string }>(
      suite.server,
      `WITH me AS (SELECT u.id, u.tenant_id FROM users u WHERE u.email = $1)
       INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status,
                                     follower_user_id, last_sent_at, confirmed_at)
       SELECT p.tenant_id, gen_random_uuid(), p.id, 'CARING', 'Demo', $2, 'FRIEND', 'CONFIRMED', me.id, now(), now()
         FROM patients p JOIN me ON me.tenant_id = p.tenant_id
        WHERE p.account_kind <> 'SUB_USER' AND p.user_id IS DISTINCT FROM me.id AND p.status = 'NORMAL'
        ORDER BY p.first_name, p.last_name, p.id LIMIT 1
       RETURNING patient_id AS id,
                 (SELECT first_name || ' ' || last_name FROM patients WHERE id = patient_contacts.patient_id) AS name`,
      // A number of its own, so that a second try of this test does not meet the first one's contact.
      [DEMO_PATIENT, `091${String(Date.now() % 10_000_000).padStart(7, '0')}`],
    );
    if (followed === undefined) throw new Error('the demo tenant has no other patient to follow');
    const page = await suite.openPhone();
    await logInPatient(page);
    await switcher(page).tap();
    const choice = page.locator('.profile-menu').getByRole('button', { name: new RegExp(followed.name) });
    await expect.poll(() => choice.textContent()).toBe(`${followed.name}View only`);
    await choice.tap();
    await page.waitForURL(/\/app\/?$/);
    await expect.poll(() => banner(page).textContent()).toBe(`Viewing ${followed.name} — view onlyBack to me`);
    expect(await sosButton(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add', exact: true }).count()).toBe(0);
    // The followed patient's dashboard reads as any other (its status shown).
    await expect.poll(() => page.locator('.home .status-pill').isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-followed-view-only');
    await expectAccessible(page, 'home of a followed patient');

    const notice = `You are viewing ${followed.name}'s data. You can see it here but not change it.`;
    for (const path of ['/app/entry', '/app/entry/photo', '/app/weight', '/app/devices/bind']) {
      await page.goto(path);
      await expect.poll(() => page.getByText(notice).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: /^(Save|Add weight|Set goal|Bind)$/ }).count()).toBe(0);
    }
    await page.goto('/app/devices');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Bind a watch' }).count()).toBe(0);
    // Still view only after a reload: the profile is kept for the tab.
    expect(await banner(page).textContent()).toContain('view only');

    // Logging out forgets the profile: the next login starts on the own record.
    await page.getByRole('button', { name: 'Back to me' }).tap();
    await page.waitForURL(/\/app\/?$/);
    await switcher(page).tap();
    await page.locator('.profile-menu').getByRole('button', { name: new RegExp(followed.name) }).tap();
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    // The followed patient's dashboard loads first: it moves the button down when it comes.
    await expect.poll(() => page.locator('.home .status-pill').isVisible()).toBe(true);
    await expect.poll(() => page.locator('.home [role="status"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Log out' }).tap();
    await page.waitForURL('**/app/login');
    expect(await page.evaluate(() => sessionStorage.getItem('rpm.patient.profile'))).toBeNull();
  });

  it('stops at the sub-user limit with the cannot-add-more message, and deletes one after confirming', async () => {
    const page = await suite.openPhone();
    await logInPatient(page);
    // Sub-users added through the API with the phone's own session (one session per account), up to the limit of 5.
    const added = await page.evaluate(async () => {
      const stored = sessionStorage.getItem('rpm.patient.session') ?? localStorage.getItem('rpm.patient.session') ?? '{}';
      const { accessToken } = JSON.parse(stored) as { accessToken?: string };
      const headers = { Authorization: `Bearer ${accessToken ?? ''}`, 'Content-Type': 'application/json', Accept: 'application/json' };
      const list = (await (await fetch('/health/me/sub-users', { headers })).json()) as { data: unknown[] };
      const statuses: number[] = [];
      for (let index = list.data.length; index < 5; index++) {
        const body = { firstName: 'Child', lastName: ['A', 'B', 'C', 'D', 'E'][index], birthday: '2015-01-01', relation: 'CHILD', smoking: false };
        statuses.push((await fetch('/health/me/sub-users', { method: 'POST', headers, body: JSON.stringify(body) })).status);
      }
      return statuses;
    });
    expect(added.every((status) => status === 200)).toBe(true);

    await page.goto('/app/sub-users');
    const limit = 'You cannot add more sub-users: an account holds at most 5.';
    await expect.poll(() => page.getByText(limit).isVisible()).toBe(true);
    expect(await page.locator('.sub-user-list > li').count()).toBe(5);
    expect(await page.getByRole('link', { name: 'Add a sub-user' }).count()).toBe(0);
    await screenshot(page, 'patient-sub-users-limit');

    // The server says the same to a form sent past the limit (409 subUser.limitReached).
    await page.goto('/app/sub-users/new');
    await page.getByLabel('First name').fill('Child');
    await page.getByLabel('Last name').fill('F');
    await page.getByLabel('Birthday').fill('2016-02-02');
    await page.getByLabel('Relation to you').selectOption('CHILD');
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/health/me/sub-users' && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save', exact: true }).tap();
    expect((await refused).status()).toBe(409);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(limit);

    // Delete asks first; cancelling keeps it, confirming removes it and adding is possible again.
    await page.getByRole('link', { name: 'Back to sub-users' }).tap();
    await page.waitForURL('**/app/sub-users');
    const last = page.locator('.sub-user-list > li').filter({ hasText: 'Child E' });
    await last.getByRole('button', { name: 'Delete Child E' }).tap();
    await expect.poll(() => last.getByText('Delete Child E and their health data? This cannot be undone.').isVisible()).toBe(true);
    await last.getByRole('button', { name: 'Cancel' }).tap();
    expect(await last.getByRole('button', { name: 'Yes, delete' }).count()).toBe(0);
    await last.getByRole('button', { name: 'Delete Child E' }).tap();
    await screenshot(page, 'patient-sub-users-delete');
    await expectAccessible(page, 'sub-user list asking to delete');
    await last.getByRole('button', { name: 'Yes, delete' }).tap();
    await expect.poll(() => page.locator('.sub-user-list > li').count()).toBe(4);
    await expect.poll(() => page.getByRole('link', { name: 'Add a sub-user' }).isVisible()).toBe(true);
    // Deleted like a patient account: kept until its purge date.
    const deleted = await queryDatabase<{ purging: boolean }>(
      suite.server,
      `SELECT p.purge_after IS NOT NULL AS purging FROM patients p JOIN users u ON u.id = p.holder_user_id
        WHERE u.email = $1 AND p.first_name = 'Child' AND p.last_name = 'E'`,
      [DEMO_PATIENT],
    );
    expect(deleted).toEqual([{ purging: true }]);

    // The switcher no longer offers it; Escape closes the menu and gives the focus back to its button.
    await switcher(page).tap();
    const menu = page.locator('.profile-menu');
    await expect.poll(() => menu.getByRole('button', { name: /^Child D/ }).isVisible()).toBe(true);
    expect(await menu.getByRole('button', { name: /^Child E/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await switcher(page).evaluate((button) => button === document.activeElement)).toBe(true);
  });
});
