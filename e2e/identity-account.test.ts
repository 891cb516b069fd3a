import { deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Account settings (spec §2): profile with photo, language and time zone, change password,
 * own activity, terms and FAQs; every tab driven in the browser against the real server.
 */

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});

afterEach(async () => {
  await driver.closeAll();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** A real 1×1 PNG, built here so the server's content check (magic bytes) sees a true image. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const pixels = deflateSync(Buffer.from([0, 11, 114, 133]));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('account settings', () => {
  it('edits the profile and the photo, rejecting what the server would refuse', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'doctor@demo.example');
    await page.waitForURL('**/doctor');
    await page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/doctor/account');
    const firstName = page.getByLabel(/^First name/);
    await expect.poll(() => firstName.inputValue()).toBe('Linh');

    // The contract's rules, shown before anything is sent.
    await firstName.fill('Linh2');
    await page.getByLabel(/^Street address/).fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('Names may not contain digits').isVisible()).toBe(true);
    expect(await page.getByText('This field is required').count()).toBeGreaterThan(0);

    await firstName.fill('Linh');
    await page.getByLabel(/^Nickname/).fill('Dr. Linh');
    await page.getByRole('combobox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await page.getByLabel(/^Date of birth/).fill('');
    await page.getByLabel(/^Date of birth/).pressSequentially('12041986');
    await page.getByLabel(/^Street address/).fill('12 Le Loi');
    await page.getByLabel(/^Country/).fill('Vietnam');
    await page.getByLabel('Height (cm)').fill('165');
    // A doctor saves through its own role's call (PUT /account/doctor/me/profile).
    const saved = page.waitForResponse((response) => response.url().endsWith('/account/doctor/me/profile'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => page.getByText('Your profile has been saved.').isVisible()).toBe(true);

    // Photo: a file over 1 MB is refused in the browser; a real PNG is stored and shown.
    const upload = page.locator('input[type="file"]');
    await upload.setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1024 * 1024 + 1, 1),
    });
    await expect
      .poll(() => page.getByTestId('avatar-error').textContent())
      .toBe('The photo must be under 1 MB.');
    await upload.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect
      .poll(() => page.getByTestId('avatar-error').textContent())
      .toBe('Choose a PNG, JPEG, GIF or WEBP image.');
    const uploaded = page.waitForResponse((response) => response.url().endsWith('/upload-avatar'));
    await upload.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng() });
    expect((await uploaded).status()).toBe(200);
    await expect.poll(() => page.getByText('Your profile photo has been updated.').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId('profile-avatar').locator('img').getAttribute('src'))
      .toContain('/account/me/avatar');
    await page.reload();
    await expect.poll(() => page.getByLabel(/^Nickname/).inputValue()).toBe('Dr. Linh');
    expect(await page.getByLabel(/^Date of birth/).inputValue()).toBe('12/04/1986');
    await screenshot(page, 'identity-account-profile');
  });

  it('saves language and time zone, switching the interface language', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'doctor-assistant@demo.example');
    await page.waitForURL('**/doctor-assistant');
    await page.goto('/doctor-assistant/account?tab=preferences');
    const zone = page
      .getByRole('textbox', { name: 'Time zone' })
      .or(page.getByRole('combobox', { name: 'Time zone' }));
    await zone.fill('Bangkok');
    await page.getByRole('option', { name: 'Asia/Bangkok' }).click();
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Tiếng Việt' }).click();
    await screenshot(page, 'identity-account-preferences');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    // The saved language is the interface's at once.
    await expect.poll(() => page.getByRole('tab', { name: 'Ngôn ngữ và múi giờ' }).isVisible()).toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('vi');
    const profile = (await (await page.request.get('/account/me/profile/get')).json()) as {
      data: { language: string; timeZone: string };
    };
    expect(profile.data).toMatchObject({ language: 'vi', timeZone: 'Asia/Bangkok' });
    await screenshot(page, 'identity-account-preferences-vi');
  });

  it('changes the password, then signs in with the new one', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'operator@demo.example');
    await page.waitForURL('**/operator');
    await page.goto('/operator/account?tab=password');

    const current = page.getByLabel(/^Current password/);
    const next = page.getByLabel(/^New password/);
    const confirmation = page.getByLabel(/^Confirm the password/);
    // Same as the current one, and a confirmation that differs: both refused before sending.
    await current.fill('Demo@2026');
    await next.fill('Demo@2026');
    await confirmation.fill('Demo@2027');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => page.getByText('The new password must be different from the current one').isVisible())
      .toBe(true);
    expect(await page.getByText('The passwords do not match').isVisible()).toBe(true);

    // A wrong current password is the server's answer, shown under that field.
    await current.fill('Wrong@2026');
    await next.fill('Operator#Safe42');
    await confirmation.fill('Operator#Safe42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('Wrong current password').isVisible()).toBe(true);

    await current.fill('Demo@2026');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => page.getByTestId('password-changed').textContent())
      .toContain('You were signed out on your other devices');
    await screenshot(page, 'identity-account-password');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await driver.signIn(page, 'operator@demo.example', 'Operator#Safe42');
    await page.waitForURL('**/operator');

    // The change is in the user's own activity, with a translated label, date and address.
    await page.goto('/operator/account?tab=activity');
    const table = page.getByTestId('activity-table');
    await expect.poll(() => table.textContent()).toContain('Password changed');
    expect(await table.textContent()).toContain('Signed in');
    expect(await table.locator('tbody tr').first().locator('td').first().textContent()).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );
    await screenshot(page, 'identity-account-activity');

    await page
      .getByRole('textbox', { name: 'Action' })
      .or(page.getByRole('combobox', { name: 'Action' }))
      .click();
    await page.getByRole('option', { name: 'Password changed' }).click();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
  });

  it('shows the terms, privacy links and FAQs', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'cskh@demo.example');
    await page.waitForURL('**/cskh');
    await page.goto('/cskh/account?tab=legal');
    await expect.poll(() => page.getByRole('heading', { name: 'Terms of use' }).isVisible()).toBe(true);
    await screenshot(page, 'identity-account-legal');
    await page.getByRole('link', { name: 'Read' }).first().click();
    await page.waitForURL('**/cskh/terms');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Terms of use', level: 1 }).isVisible())
      .toBe(true);

    await page.goto('/cskh/account?tab=faq');
    await page.getByRole('button', { name: 'Why is my account locked?' }).click();
    await expect.poll(() => page.getByText('After 5 wrong passwords in a row').isVisible()).toBe(true);
    // Let the panel finish opening, so the picture shows the answer rather than the animation.
    await page.waitForTimeout(400);
    await screenshot(page, 'identity-account-faq');
  });
});
