import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer, typeCode } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';
import { startMailCatcher, waitForCode, type MailCatcher } from './support/mail.js';
import {
  backgroundOf,
  chooseFile,
  FAKE_PNG_JPEG,
  horizontalLogo,
  rgbOf,
  squareLogo,
} from './support/tenant-fixtures.js';

/**
 * Tenant branding (spec §2, §3): the super admin creates a tenant with its first administrator,
 * uploads both logos and picks a colour; the administrator sets a password from the welcome
 * email and signs in to a console with the tenant's logo and colour, and a later colour change
 * shows at the next sign-in.
 */

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let mail: MailCatcher;

beforeAll(async () => {
  mail = await startMailCatcher();
  server = await startTestServer({ SMTP_URL: mail.url });
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});

afterEach(async () => {
  await driver.closeAll();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
  await mail.stop();
});

const suffix = randomBytes(2).toString('hex');
const TENANT = `Lotus Care ${suffix}`;
const CODE = `lotus-care-${suffix}`;
const ADMIN_EMAIL = `linh.${suffix}@lotus.example`;
const ADMIN_PASSWORD = 'Lotus#Care2026';
const FIRST_COLOR = '#C2255C';
const SECOND_COLOR = '#2B8A3E';

async function signInToTenant(page: Page) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Tenant code' }).fill(CODE);
  // The typed code names the tenant, with its square logo, before anyone signs in.
  const named = page.getByTestId('tenant-name').filter({ hasText: TENANT });
  await named.waitFor();
  expect(await named.locator('img').getAttribute('src')).toContain(`/manage/tenant/${CODE}/logo?kind=square`);
  await page.getByLabel('Email or phone number').fill(ADMIN_EMAIL);
  await page.getByLabel(/^Password/).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin');
}

async function saveColor(page: Page, color: string) {
  await page.getByRole('tab', { name: 'Branding' }).click();
  await page.getByLabel(/^Primary colour/).fill(color);
  await page.getByLabel(/^Primary colour/).press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByText('Colours and font saved.').isVisible()).toBe(true);
  await dismissToasts(page);
}

describe('tenant branding', () => {
  it('themes the console of the tenant’s users with its logo and colour', { timeout: 180_000 }, async () => {
    const admin = await driver.openPage();
    await driver.signIn(admin, 'super-admin@demo.example');
    await admin.waitForURL('**/sadmin');
    await admin.goto('/sadmin/tenants/new');
    await admin.getByLabel(/^Tenant name/).fill(TENANT);
    await admin.getByLabel('Create the first administrator').check();
    await admin.getByLabel(/^Administrator email/).fill(ADMIN_EMAIL);
    await admin.getByLabel(/^First name/).fill('Linh');
    await admin.getByLabel(/^Last name/).fill('Tran');
    const since = mail.messages.length;
    await admin.getByRole('button', { name: 'Create tenant' }).click();
    await admin.waitForURL(/\/sadmin\/tenants\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => admin.getByText(`A welcome email was sent to ${ADMIN_EMAIL}.`).isVisible())
      .toBe(true);

    // The welcome email, through real SMTP: the tenant's words and a set-password code.
    const welcome = await waitForCode(mail, ADMIN_EMAIL, since);
    expect(welcome.mail.subject).toBe(`${TENANT}: your administrator account is ready`);
    expect(welcome.mail.text).toContain(`Hello Linh Tran,`);
    expect(welcome.mail.text).toContain(`enter the tenant code ${CODE} and your email ${ADMIN_EMAIL}`);
    expect(welcome.mail.text).toContain(`${server.baseUrl}/forgot-password`);
    await dismissToasts(admin);

    // Logos: a JPEG named .png is refused before upload; real PNGs are stored and shown.
    await admin.getByRole('tab', { name: 'Branding' }).click();
    const square = admin.getByTestId('logo-square');
    await chooseFile(admin, square.getByRole('button', { name: 'Upload the Square logo' }), {
      name: 'logo.png',
      buffer: FAKE_PNG_JPEG,
    });
    await expect
      .poll(() => admin.getByTestId('logo-square-error').textContent())
      .toBe('The file is not a PNG image.');
    await chooseFile(admin, square.getByRole('button', { name: 'Upload the Square logo' }), {
      name: 'square.png',
      buffer: squareLogo([194, 37, 92]),
    });
    await expect.poll(() => admin.getByText('Square logo saved.').isVisible()).toBe(true);
    const horizontal = admin.getByTestId('logo-horizontal');
    await chooseFile(admin, horizontal.getByRole('button', { name: 'Upload the Horizontal logo' }), {
      name: 'wide.png',
      buffer: horizontalLogo([194, 37, 92]),
    });
    await expect.poll(() => admin.getByText('Horizontal logo saved.').isVisible()).toBe(true);
    for (const card of [square, horizontal])
      await expect
        .poll(() => card.getByRole('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
    expect(await admin.getByTestId('logo-square-error').count()).toBe(0);
    await dismissToasts(admin);

    // The colour: the preview follows it at once, the tenant's console once saved.
    await saveColor(admin, FIRST_COLOR);
    expect(await backgroundOf(admin.getByTestId('preview-button'))).toBe(rgbOf(FIRST_COLOR));
    await expect
      .poll(() =>
        admin
          .getByTestId('brand-preview')
          .getByRole('img', { name: TENANT })
          .evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(admin, 'tenants-branding-saved');

    // The administrator follows the welcome link: it opens at the code step with the mailed code.
    const person = await driver.openPage();
    const link = /https?:\/\/\S+\/forgot-password#[^\s,;)]+/.exec(welcome.mail.text)?.[0] ?? '';
    expect(link).toContain(`tenant=${CODE}`);
    await person.goto(link.replace(/^https?:\/\/[^/]+/, ''));
    await typeCode(person, welcome.code);
    await person.getByRole('button', { name: 'Continue' }).click();
    await person.getByLabel(/^New password/).fill(ADMIN_PASSWORD);
    await person.getByLabel('Confirm the password').fill(ADMIN_PASSWORD);
    await person.getByRole('button', { name: 'Save new password' }).click();
    await expect.poll(() => person.getByText('Your password has been reset').isVisible()).toBe(true);

    // The branded console: the horizontal logo in the header, the colour on the buttons.
    await signInToTenant(person);
    const logo = person.getByTestId('header-logo');
    await expect
      .poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await logo.getAttribute('alt')).toBe('RPM Console');
    expect(await logo.getAttribute('src')).toContain(`/manage/tenant/${CODE}/logo?kind=horizontal`);
    expect(await person.locator('link[rel="icon"]').getAttribute('href')).toContain(
      `/manage/tenant/${CODE}/logo?kind=square`,
    );
    await person.getByRole('navigation').getByRole('link', { name: 'Roles & permissions' }).click();
    const createRole = person.getByRole('link', { name: 'Create role' }).first();
    await expect.poll(() => backgroundOf(createRole)).toBe(rgbOf(FIRST_COLOR));
    await screenshot(person, 'tenants-branded-console');

    // A new colour reaches the tenant's users when they next sign in.
    await saveColor(admin, SECOND_COLOR);
    await person.getByRole('button', { name: 'Sign out' }).click();
    await person.waitForURL('**/login');
    await signInToTenant(person);
    await person.goto('/admin/roles');
    await expect
      .poll(() => backgroundOf(person.getByRole('link', { name: 'Create role' }).first()))
      .toBe(rgbOf(SECOND_COLOR));
  });
});
