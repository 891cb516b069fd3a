import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';
import { startMailCatcher, type MailCatcher } from './support/mail.js';
import { chooseFile, FAKE_PNG_JPEG, horizontalLogo, squareLogo } from './support/tenant-fixtures.js';

/**
 * Trial requests (spec §2, §4, §5): organisations ask for a trial on the public page (both PNG
 * logos required); the super admin approves one (the tenant is created and its administrator
 * emailed) and rejects the other with a reason (emailed too); a decided request stays decided.
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
const SUNRISE = {
  name: `Sunrise Clinic ${suffix}`,
  code: `sunrise-clinic-${suffix}`,
  email: `mai.${suffix}@sunrise.example`,
};
const MOONLIGHT = {
  name: `Moonlight Health ${suffix}`,
  code: `moonlight-health-${suffix}`,
  email: `an.${suffix}@moonlight.example`,
};
const REASON = 'We only offer trials to licensed clinics for now.';

const logoButton = (page: Page, label: string) => page.getByRole('button', { name: new RegExp(`^${label}`) });

async function fillRequest(
  page: Page,
  request: { name: string; email: string },
  options: { language?: string } = {},
) {
  await page.getByLabel(/^Organisation name/).fill(request.name);
  await page.getByLabel(/^Official full name/).fill(`${request.name} Joint Stock Company`);
  await page.getByLabel(/^Your name/).fill('Mai Nguyen');
  await page.getByLabel(/^Email/).fill(request.email);
  await page.getByLabel(/^Phone/).fill('0901234567');
  await page.getByLabel(/^Primary colour/).fill('#1971C2');
  await page.getByLabel(/^Primary colour/).press('Escape');
  if (options.language) {
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: options.language }).click();
  }
  await page.getByLabel(/^Message/).fill('We run two clinics and would like to try remote monitoring.');
  await chooseFile(page, logoButton(page, 'Square logo'), {
    name: 'square.png',
    buffer: squareLogo([25, 113, 194]),
  });
  await chooseFile(page, logoButton(page, 'Horizontal logo'), {
    name: 'wide.png',
    buffer: horizontalLogo([25, 113, 194]),
  });
}

async function submitRequest(request: { name: string; email: string }, options: { language?: string } = {}) {
  const page = await driver.openPage();
  await page.goto('/trial-request');
  await fillRequest(page, request, options);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect.poll(() => page.getByTestId('trial-done').isVisible()).toBe(true);
  return page;
}

async function openRequest(page: Page, name: string) {
  await page.goto('/sadmin/trial-requests');
  await page.getByTestId('trial-requests-table').getByRole('link', { name }).click();
  await page.waitForURL(/\/sadmin\/trial-requests\/[0-9a-f-]{36}$/);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
}

describe('trial requests', () => {
  it('checks the public form before sending it and shows the server’s answers', async () => {
    const page = await driver.openPage();
    await page.goto('/login');
    await expect.poll(() => page.getByRole('link', { name: 'Request a trial' }).isVisible()).toBe(true);
    await screenshot(page, 'tenants-login-link');
    await page.getByRole('link', { name: 'Request a trial' }).click();
    await page.waitForURL('**/trial-request');
    await screenshot(page, 'tenants-trial-page');

    // Nothing filled in: every required field says so, both logos included.
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByText('This field is required').count()).toBe(4);
    expect(await page.getByText('Choose the logo as a PNG file').count()).toBe(2);
    // A JPEG renamed .png is caught where it is chosen.
    await chooseFile(page, logoButton(page, 'Square logo'), { name: 'photo.png', buffer: FAKE_PNG_JPEG });
    await expect.poll(() => page.getByText('The file is not a PNG image.').isVisible()).toBe(true);
    await page.getByLabel(/^Phone/).fill('12');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByText('Enter a phone number of 3 to 16 digits').isVisible()).toBe(true);
    await screenshot(page, 'tenants-trial-errors');

    // A name already in use is the server's answer, under the name.
    await fillRequest(page, { name: await driver.demoTenantName(), email: `taken.${suffix}@example.com` });
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByText('Tenant name already exists').isVisible()).toBe(true);
    expect(await page.getByTestId('trial-done').count()).toBe(0);

    // The page in Vietnamese, as chosen with the language switch.
    await page.getByText('Tiếng Việt', { exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Đăng ký dùng thử');
    expect(await page.getByRole('button', { name: 'Gửi yêu cầu' }).isVisible()).toBe(true);
    await screenshot(page, 'tenants-trial-page-vi');
  });

  it('approves one request and rejects another, emailing both requesters', { timeout: 120_000 }, async () => {
    const done = await submitRequest(SUNRISE);
    expect(await done.getByTestId('trial-done').textContent()).toContain(
      `We received the trial request for ${SUNRISE.name} and will write to ${SUNRISE.email}`,
    );
    await screenshot(done, 'tenants-trial-done');
    await submitRequest(MOONLIGHT, { language: 'Vietnamese' });

    const admin = await driver.openPage();
    await driver.signIn(admin, 'super-admin@demo.example');
    await admin.waitForURL('**/sadmin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Trial requests' }).click();
    const table = admin.getByTestId('trial-requests-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    const row = await table.locator('tbody tr', { hasText: SUNRISE.name }).locator('td').allTextContents();
    expect(row.slice(1)).toEqual([
      SUNRISE.code,
      `Mai Nguyen${SUNRISE.email}`,
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/),
      'New',
    ]);
    await screenshot(admin, 'tenants-trial-list');

    // Approve: the tenant is created and the requester receives the welcome email.
    await openRequest(admin, SUNRISE.name);
    for (const name of ['Square logo', 'Horizontal logo'])
      await expect
        .poll(() =>
          admin.getByRole('img', { name }).evaluate((image: HTMLImageElement) => image.naturalWidth),
        )
        .toBeGreaterThan(0);
    await screenshot(admin, 'tenants-trial-detail');
    await admin.getByRole('button', { name: 'Approve', exact: true }).click();
    const approve = admin.getByRole('dialog', { name: 'Approve the trial request' });
    expect(await approve.getByLabel(/^Login code/).inputValue()).toBe(SUNRISE.code);
    // Once the opening animation is over, so the screenshot shows the dialog as a person sees it.
    await expect.poll(() => approve.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    await screenshot(admin, 'tenants-trial-approve');
    const beforeApproval = mail.messages.length;
    await approve.getByRole('button', { name: 'Approve and create tenant' }).click();
    await expect
      .poll(() => admin.getByTestId('request-decision').textContent())
      .toMatch(/^Approved on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}Open the tenant$/);
    const welcome = await mail.waitFor(
      (candidate) =>
        mail.messages.indexOf(candidate) >= beforeApproval && candidate.to.includes(SUNRISE.email),
      15_000,
    );
    expect(welcome.subject).toBe(`${SUNRISE.name}: your administrator account is ready`);
    expect(welcome.text).toContain(`enter the tenant code ${SUNRISE.code} and your email ${SUNRISE.email}`);
    expect(welcome.text).toMatch(/use this code: \d{6}/);
    expect(await admin.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    await dismissToasts(admin);
    await screenshot(admin, 'tenants-trial-approved');

    // Reject, while another tab still shows the request as new.
    await openRequest(admin, MOONLIGHT.name);
    const stale = await admin.context().newPage();
    await stale.goto(admin.url());
    await expect
      .poll(() => stale.getByRole('button', { name: 'Approve', exact: true }).isVisible())
      .toBe(true);

    await admin.getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = admin.getByRole('dialog', { name: 'Reject the trial request' });
    await reject.getByRole('button', { name: 'Reject request' }).click();
    await expect.poll(() => reject.getByText('This field is required').isVisible()).toBe(true);
    await reject.getByLabel(/^Reason/).fill(REASON);
    const beforeRejection = mail.messages.length;
    await reject.getByRole('button', { name: 'Reject request' }).click();
    await expect
      .poll(() => admin.getByTestId('request-decision').textContent())
      .toMatch(new RegExp(`^Rejected on .+Reason: ${REASON}$`));
    // Written in the language of the request.
    const rejection = await mail.waitFor(
      (candidate) =>
        mail.messages.indexOf(candidate) >= beforeRejection && candidate.to.includes(MOONLIGHT.email),
      15_000,
    );
    expect(rejection.subject).toBe(`Yêu cầu dùng thử cho ${MOONLIGHT.name}`);
    expect(rejection.text).toContain(`Lý do: ${REASON}`);
    await dismissToasts(admin);
    await screenshot(admin, 'tenants-trial-rejected');

    // The stale tab cannot decide again: the server's message, then the decision is shown.
    await stale.getByRole('button', { name: 'Approve', exact: true }).click();
    const staleDialog = stale.getByRole('dialog', { name: 'Approve the trial request' });
    await staleDialog.getByRole('button', { name: 'Approve and create tenant' }).click();
    await expect
      .poll(() => staleDialog.getByTestId('decision-error').textContent())
      .toBe('This request has already been approved or rejected');
    await staleDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => stale.getByTestId('request-decision').textContent())
      .toContain(`Reason: ${REASON}`);

    // The lists: by status, and the new tenant among the tenants.
    await admin.goto('/sadmin/trial-requests?status=APPROVED');
    await expect
      .poll(() => table.locator('tbody tr').allTextContents())
      .toEqual([expect.stringContaining(SUNRISE.name)]);
    const statusFilter = admin.getByRole('radiogroup', { name: 'Status' });
    await statusFilter.getByText('Rejected', { exact: true }).click();
    await expect
      .poll(() => table.locator('tbody tr').allTextContents())
      .toEqual([expect.stringContaining(MOONLIGHT.name)]);
    await statusFilter.getByText('New', { exact: true }).click();
    await expect.poll(() => admin.getByText('No requests here').isVisible()).toBe(true);
    await admin.goto('/sadmin/tenants');
    await expect
      .poll(() => admin.getByTestId('tenants-table').getByRole('link', { name: SUNRISE.name }).isVisible())
      .toBe(true);
  });
});
