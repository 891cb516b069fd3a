import type { Contact, ReceivedInvitation, SubUser } from '@rpm/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callFromPage, callWithCookie, sessionCookie } from './support/api.js';
import { dismissToasts, screenshot } from './support/console.js';
import { queryDatabase } from './support/phone.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * The followers tab of a patient profile (spec §1, §3 Follower or relative, §4 relative
 * invitation, §5 contacts): an admin adds a follower (refused for the patient's own phone and for
 * an existing follower), sees the invitation SENT with its resend still blocked, edits it into a
 * favourite (it moves up the call order), sorts the table, and removes it after confirming.
 * A follower who confirmed in the app shows with the account's name and the data hidden from
 * them. Sub-users (spec §3 Sub-user) are marked in the patient list and on their profile, with a link
 * to the holder, whose profile lists them.
 */

const suite = useConsoleSuite();

/** Demo patient BNCS10003 (phone 0981000003) has three seeded followers: Lan (favourite), Tuan, Hoa. */
const PATIENT_CODE = 'BNCS10003';
const PATIENT_PHONE = '0981000003';
const EXISTING_FOLLOWER_PHONE = '0912002001';
const WIDTH = { width: 1280, height: 860 };

const rows = (page: Page) => page.getByTestId('followers-table').getByTestId('follower-row');
const names = (page: Page) => page.getByTestId('followers-table').getByTestId('follower-name').allTextContents();
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });

/** Opens a row's actions menu and picks one. */
async function rowAction(page: Page, name: string, action: string): Promise<void> {
  await rowOf(page, name).getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** From the patient list, by the patient's code, to the profile's followers tab (words in `language`). */
async function openFollowers(
  page: Page,
  { language = 'en', area = 'admin', code = PATIENT_CODE }: { language?: 'en' | 'vi'; area?: string; code?: string } = {},
): Promise<void> {
  const words =
    language === 'en'
      ? { nav: 'Patients', search: 'Search patients', open: /^Open the profile of /, tab: 'Followers' }
      : { nav: 'Bệnh nhân', search: 'Tìm bệnh nhân', open: /^Mở hồ sơ của /, tab: 'Người theo dõi' };
  await page.setViewportSize(WIDTH);
  await page.getByRole('navigation').getByRole('link', { name: words.nav }).click();
  await page.waitForURL(`**/${area}/patients`);
  await page.getByLabel(words.search).fill(code);
  await poll(() => page.getByTestId('patient-row').count()).toBe(1);
  await page.getByTestId('patient-row').getByRole('link', { name: words.open }).click();
  await page.getByRole('tab', { name: words.tab }).click();
  await poll(() => rows(page).count()).toBeGreaterThanOrEqual(3);
}

describe('patient followers in the console', () => {
  it('adds a follower, shows it sent with the resend blocked, edits it, sorts, and removes it', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await openFollowers(page);
    const before = await rows(page).count();
    // The server's call order: the favourite first, marked with a star.
    expect(await rows(page).first().getByTestId('favourite-star').count()).toBe(1);
    expect(await rows(page).nth(1).getByTestId('favourite-star').count()).toBe(0);
    await screenshot(page, 'followers-console-list');

    // Add: the contract's rules first (nothing sent), then the server's refusals under the phone.
    await page.getByRole('button', { name: 'Add follower' }).click();
    const form = page.getByRole('form', { name: 'Add a follower' });
    await form.getByRole('button', { name: 'Add and invite' }).click();
    await poll(() => form.getByText('Enter a phone number of 3 to 16 digits').isVisible()).toBe(true);
    expect(await form.getByText('This field is required').count()).toBe(1);
    // Relationship and type not chosen.
    expect(await form.getByText('Choose one of the options').count()).toBe(2);
    await form.getByLabel(/^Alias name/).fill('Coach Vy');
    await form.getByRole('textbox', { name: /^Phone/ }).fill(PATIENT_PHONE);
    await form.getByRole('combobox', { name: /^Relationship/ }).click();
    await page.getByRole('option', { name: 'Friend' }).click();
    await form.getByRole('combobox', { name: /^Contact type/ }).click();
    await page.getByRole('option', { name: 'Coach' }).click();
    await form.getByRole('button', { name: 'Add and invite' }).click();
    await poll(() => form.getByText('You cannot send a request to yourself').isVisible()).toBe(true);
    await form.getByRole('textbox', { name: /^Phone/ }).fill(EXISTING_FOLLOWER_PHONE);
    await form.getByRole('button', { name: 'Add and invite' }).click();
    await poll(() => form.getByText('This user is already in the follower list').isVisible()).toBe(true);
    await screenshot(page, 'followers-console-add-refused');
    await form.getByRole('textbox', { name: /^Phone/ }).fill('0912555123');
    await form.getByRole('button', { name: 'Add and invite' }).click();
    await poll(() => page.getByText('Invitation sent to Coach Vy.').isVisible()).toBe(true);
    await dismissToasts(page);

    // Sent, not confirmed by anyone yet; the resend waits 5 minutes and says until when.
    await poll(() => rows(page).count()).toBe(before + 1);
    const added = rowOf(page, 'Coach Vy');
    expect(await added.getByTestId('invitation-status').getAttribute('data-status')).toBe('SENT');
    expect(await added.getByTestId('invitation-status').textContent()).toBe('Sent');
    expect(await added.getByText('Not confirmed yet').isVisible()).toBe(true);
    expect(await added.getByText('0912555123').isVisible()).toBe(true);
    expect(await added.getByTestId('resend-available').textContent()).toMatch(/^Resend from \d{1,2}:\d{2}/);
    await added.getByRole('button', { name: 'Actions for Coach Vy' }).click();
    const resend = page.getByRole('menuitem', { name: 'Resend invitation' });
    await resend.waitFor();
    expect(await resend.isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await screenshot(page, 'followers-console-sent');

    // A browser whose clock runs ahead offers the resend: the server, whose clock decides, refuses
    // it and the refusal is said above the table.
    await page.clock.setFixedTime(new Date(Date.now() + 6 * 60_000));
    await page.getByRole('tab', { name: 'Info' }).click();
    await page.getByRole('tab', { name: 'Followers' }).click();
    await poll(() => rows(page).count()).toBe(before + 1);
    await rowAction(page, 'Coach Vy', 'Resend invitation');
    await poll(() => page.getByTestId('resend-error').textContent()).toBe(
      'An invitation was sent to this phone less than 5 minutes ago. Please try again later',
    );
    await screenshot(page, 'followers-console-resend-refused');

    // Edit into a favourite: it moves up to the favourites, after the favourite emergency contact.
    await rowAction(page, 'Coach Vy', 'Edit');
    const edit = page.getByRole('form', { name: 'Edit follower' });
    await edit.getByLabel(/^Alias name/).fill('Vy Tran');
    await edit.getByLabel('Favourite: called first during an SOS').check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByText('Follower saved.').isVisible()).toBe(true);
    await dismissToasts(page);
    await poll(async () => (await names(page))[1]).toBe('Vy Tran');
    expect(await rowOf(page, 'Vy Tran').getByTestId('favourite-star').count()).toBe(1);
    expect(await rowOf(page, 'Vy Tran').getByTestId('invitation-status').textContent()).toBe('Sent');

    // Sorting by alias name, both ways; then back to the call order.
    const header = page.getByTestId('followers-table').locator('thead th', { hasText: 'Alias name' });
    expect(await header.getAttribute('aria-sort')).toBe('none');
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    const ascending = await names(page);
    expect(ascending).toEqual([...ascending].sort((left, right) => left.localeCompare(right)));
    await header.getByRole('button').click();
    await poll(() => header.getAttribute('aria-sort')).toBe('descending');
    expect(await names(page)).toEqual([...ascending].reverse());
    await screenshot(page, 'followers-console-sorted');
    await page.getByRole('button', { name: 'Back to call order' }).click();
    await poll(async () => (await names(page))[1]).toBe('Vy Tran');

    // Remove, after confirming: the row goes (the contact is kept as DELETED on the server).
    await rowAction(page, 'Vy Tran', 'Remove');
    const dialog = page.getByRole('dialog', { name: 'Remove follower' });
    await poll(() => dialog.getByText('Vy Tran will no longer be a contact of this patient').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await poll(() => page.getByText('Follower removed.').isVisible()).toBe(true);
    await poll(() => rows(page).count()).toBe(before);
    expect(await rowOf(page, 'Vy Tran').count()).toBe(0);
  });

  it('shows the followers tab in Vietnamese', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.evaluate(() => {
      localStorage.setItem('rpm.console.language', 'vi');
    });
    await page.reload();
    await openFollowers(page, { language: 'vi' });
    expect(await page.getByRole('heading', { name: 'Người theo dõi và liên hệ' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Thêm người theo dõi' }).isVisible()).toBe(true);
    await screenshot(page, 'followers-console-vi');
  });

  it('marks a sub-user in the list and on its profile, and lists it on its holder’s profile', async () => {
    // The demo patient (Hung Pham, BNCS10001) adds a sub-user in the app.
    const cookie = await sessionCookie(suite.server.baseUrl, 'patient@demo.example');
    const subUser = await callWithCookie<SubUser>(suite.server.baseUrl, cookie, 'POST', '/health/me/sub-users', {
      firstName: 'Bao',
      lastName: 'Pham',
      gender: 'MALE',
      birthday: '2016-05-04',
      relation: 'CHILD',
      smoking: false,
      treatedConditions: [],
    });

    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.setViewportSize(WIDTH);
    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/admin/patients');
    await page.getByLabel('Search patients').fill(subUser.patientCode);
    await poll(() => page.getByTestId('patient-row').count()).toBe(1);
    const row = page.getByTestId('patient-row');
    expect(await row.getByTestId('sub-user-badge').textContent()).toBe('Sub-user');
    expect(await row.getByText('Hung Pham').isVisible()).toBe(true);
    await screenshot(page, 'sub-users-console-list');

    // Its profile says whose it is, with a link to the holder.
    await row.getByRole('link', { name: 'Open the profile of Bao Pham' }).click();
    const mark = page.getByTestId('sub-user-of');
    await poll(() => mark.isVisible()).toBe(true);
    expect(await mark.textContent()).toContain('Sub-user of Hung Pham');
    expect(await page.getByRole('tab', { name: 'Sub-users' }).count()).toBe(0);
    await screenshot(page, 'sub-users-console-profile');

    // The holder's profile lists its sub-users, each a link back.
    await mark.getByRole('link', { name: 'Hung Pham' }).click();
    await page.getByRole('tab', { name: 'Sub-users' }).click();
    // The demo's own sub-user (Linh) is listed too.
    const subUsers = page.getByTestId('sub-users-table').getByTestId('sub-user-row').filter({ hasText: subUser.patientCode });
    await poll(() => subUsers.count()).toBe(1);
    expect(await subUsers.getByText(subUser.patientCode).isVisible()).toBe(true);
    expect(await subUsers.getByText('Child').isVisible()).toBe(true);
    await screenshot(page, 'sub-users-console-holder');
    await subUsers.getByRole('link', { name: 'Open the profile of Bao Pham' }).click();
    await poll(() => page.getByTestId('sub-user-of').isVisible()).toBe(true);
  });

  it('shows a confirmed follower with the app account and the data the patient hides from them', async () => {
    const page = await suite.signIn('admin@demo.example', 'admin');
    await openFollowers(page);
    const patientId = /\/patients\/([^/]+)/.exec(page.url())?.[1] ?? '';
    // Staff invite the demo patient's account (Hung Pham, phone 0981000001), who confirms in the app.
    const invited = await callFromPage<Contact>(page, 'POST', `/account/patients/${patientId}/contacts`, {
      contactType: 'CARING',
      name: 'Uncle Hung',
      phone: '0981000001',
      relationship: 'OTHER',
      favourite: false,
    });
    const follower = await sessionCookie(suite.server.baseUrl, 'patient@demo.example');
    const received = await callWithCookie<ReceivedInvitation[]>(suite.server.baseUrl, follower, 'GET', '/health/me/invitations');
    expect(received.map((invitation) => invitation.id)).toContain(invited.id);
    // With the code of the invitation SMS, as the holder of the phone reads it (the local provider's outbox).
    const [sms] = await queryDatabase<{ body: string }>(
      suite.server,
      `SELECT body FROM outbox_messages WHERE purpose = 'FOLLOWER_INVITATION' AND recipient = '0981000001' ORDER BY id DESC LIMIT 1`,
      [],
    );
    const code = /(?:Code|Mã): (\d{6})\./u.exec(sms?.body ?? '')?.[1] ?? '';
    await callWithCookie(suite.server.baseUrl, follower, 'POST', `/health/me/invitations/${invited.id}/confirm`, { code });
    // What the patient hides from this follower, as the patient's app stores it.
    await queryDatabase(suite.server, `UPDATE patient_contacts SET hidden_kinds = '{HEART_RATE,SLEEP}' WHERE id = $1`, [
      invited.id,
    ]);

    await page.reload();
    await page.getByRole('tab', { name: 'Followers' }).click();
    const row = rowOf(page, 'Uncle Hung');
    await poll(() => row.getByTestId('invitation-status').getAttribute('data-status')).toBe('CONFIRMED');
    expect(await row.getByTestId('invitation-status').textContent()).toBe('Confirmed');
    expect(await row.getByTestId('follower-account').textContent()).toBe('Hung Pham');
    expect(await row.getByText(/^Confirmed \d{2}\/\d{2}\/\d{4}$/).isVisible()).toBe(true);
    expect(await row.getByTestId('hidden-kinds').textContent()).toBe('Heart rateSleep');
    expect(await row.getByTestId('resend-available').count()).toBe(0);
    await screenshot(page, 'followers-console-confirmed');

    // Once confirmed there is nothing to resend, and the phone the follower confirmed stays.
    await row.getByRole('button', { name: 'Actions for Uncle Hung' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Resend invitation' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit follower' });
    expect(await edit.getByRole('textbox', { name: /^Phone/ }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('shows the followers read only to staff without relative.update', async () => {
    const page = await suite.signIn('operator@demo.example', 'operator');
    // The demo patient of the operator's own health center.
    await openFollowers(page, { area: 'operator', code: 'BNCS10001' });
    expect(await page.getByRole('button', { name: 'Add follower' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for / }).count()).toBe(0);
    expect(await rows(page).first().getByTestId('invitation-status').isVisible()).toBe(true);
  });
});
