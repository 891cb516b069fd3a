import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { DEMO_PASSWORD, launchBrowser, type RunningServer } from './support/harness.js';

/**
 * The level switcher of the header (spec §2: role, tenant, scope, health center) and two account
 * tabs (units, deactivate account), driven in the browser against the real server.
 */

/**
 * Waits for what the page shows after a server round trip. Longer than expect.poll's one second:
 * on a loaded machine (two e2e files at once) an answer can take longer, and that is not a failure.
 */
function poll<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 15_000 });
}

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

async function signIn(username: string, area: string): Promise<Page> {
  const page = await driver.openPage();
  // Shorter than the test's own limit, so a stuck step reports which one it was.
  page.setDefaultTimeout(15_000);
  await driver.signIn(page, username);
  await page.waitForURL(`**/${area}`);
  return page;
}

/** Popovers and dialogs fade in; a screenshot taken during the fade shows them half transparent. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

const rows = (page: Page) => page.getByTestId('staff-table').locator('tbody tr');
const total = async (page: Page) => (await page.getByTestId('pager-summary').textContent()) ?? '';

async function places(page: Page): Promise<string[]> {
  return rows(page).evaluateAll((elements) =>
    elements.map((row) => row.querySelectorAll('td')[3]?.textContent ?? ''),
  );
}

describe('level switcher', () => {
  it('narrows a super admin to one health center, the lists follow, and back', async () => {
    const page = await signIn('super-admin@demo.example', 'sadmin');
    await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
    await page.waitForURL('**/sadmin/staff');
    await poll(() => rows(page).count()).toBeGreaterThan(1);
    const before = await total(page);
    // Tenant-wide staff (the admin) are listed before narrowing.
    expect(await places(page)).toContain('Whole organisation');
    expect(await page.getByTestId('level-current').textContent()).toBe(
      'Super admin · Demo Health · All health centers',
    );

    await page.getByTestId('level-switcher').click();
    const form = page.getByRole('form', { name: 'Choose your access level' });
    await form.getByRole('combobox', { name: 'Health center' }).click();
    await page.getByRole('option', { name: 'Saigon Heart Center' }).click();
    await settle(page);
    await screenshot(page, 'org-level-switcher');
    await form.getByRole('button', { name: 'Apply' }).click();
    await form.waitFor({ state: 'hidden' });

    await expect
      .poll(() => page.getByTestId('level-current').textContent())
      .toBe('Super admin · Demo Health · Saigon Heart Center');
    // The list was asked again at the new level: only Saigon Heart Center's people remain.
    await poll(() => places(page).then((names) => [...new Set(names)])).toEqual(['Saigon Heart Center']);
    expect(await total(page)).not.toBe(before);
    await dismissToasts(page);
    await screenshot(page, 'org-level-narrowed');
    // Narrowed, the health centers page shows only what the level reaches.
    await page.getByRole('navigation').getByRole('link', { name: 'Health centers' }).click();
    // The staff list stays on screen while the centers page's code loads: wait for the centers table.
    const centers = page.getByTestId('centers-table');
    await poll(() => centers.getByText('Saigon Heart Center').first().isVisible()).toBe(true);
    expect(await page.getByText('Hoan Kiem Care Center').count()).toBe(0);

    // Back to everything.
    await page.getByRole('navigation').getByRole('link', { name: 'Staff' }).click();
    await page.getByTestId('level-switcher').click();
    await form.getByRole('button', { name: 'Show everything' }).click();
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('level-current').textContent())
      .toBe('Super admin · Demo Health · All health centers');
    await poll(() => total(page)).toBe(before);
  });

  it('is not shown to someone with nothing to switch to', async () => {
    const page = await signIn('doctor@demo.example', 'doctor');
    await poll(() => page.getByTestId('user-name').isVisible()).toBe(true);
    expect(await page.getByTestId('level-switcher').count()).toBe(0);
  });
});

describe('account settings: units and deactivation', () => {
  it('changes a unit, shows what applies, and goes back to the organisation default', async () => {
    const page = await signIn('coach@demo.example', 'coach');
    await page.goto('/coach/account?tab=units');
    const glucose = page.getByRole('combobox', { name: 'Blood glucose' });
    await poll(() => glucose.inputValue()).toBe('Organisation default (mg/dL)');
    expect(await page.getByTestId('effective-bloodGlucoseUnit').textContent()).toBe('In use now: mg/dL');
    await glucose.click();
    await page.getByRole('option', { name: 'mmol/L', exact: true }).click();
    await page.getByRole('combobox', { name: 'Temperature' }).click();
    await page.getByRole('option', { name: 'Fahrenheit °F' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByTestId('effective-bloodGlucoseUnit').textContent()).toBe('In use now: mmol/L');
    expect(await page.getByTestId('effective-thermalUnit').textContent()).toBe('In use now: Fahrenheit °F');
    await dismissToasts(page);
    await screenshot(page, 'org-units-tab');

    // Kept by the server: a reload shows the own choice.
    await page.reload();
    await poll(() => page.getByRole('combobox', { name: 'Blood glucose' }).inputValue()).toBe('mmol/L');
    await page.getByRole('combobox', { name: 'Blood glucose' }).click();
    await page.getByRole('option', { name: 'Organisation default (mg/dL)' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await poll(() => page.getByTestId('effective-bloodGlucoseUnit').textContent()).toBe('In use now: mg/dL');
  });

  it('deactivates a coach’s own account: signed out, back at login with the message', async () => {
    const page = await signIn('coach@demo.example', 'coach');
    await page.goto('/coach/account?tab=deactivate');
    const form = page.getByRole('form', { name: 'Deactivate account' });
    await form.getByRole('button', { name: 'Deactivate my account' }).click();
    await poll(() => form.getByText('Choose one of the options').isVisible()).toBe(true);
    expect(await form.getByText('This field is required').isVisible()).toBe(true);

    await form.getByRole('combobox', { name: /^Deactivate for/ }).click();
    await page.getByRole('option', { name: '3 days' }).click();
    await form.getByLabel(/^Your password/).fill('Wrong@2026x');
    await form.getByRole('button', { name: 'Deactivate my account' }).click();
    await poll(() => form.getByText('Wrong current password', { exact: false }).count()).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, 'org-deactivate-tab');

    await form.getByLabel(/^Your password/).fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Deactivate my account' }).click();
    await page.waitForURL('**/login');
    await poll(() => page.getByText('Your account is deactivated').isVisible()).toBe(true);
    expect(
      await page.getByText(/It stays deactivated until \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./).isVisible(),
    ).toBe(true);
    await screenshot(page, 'org-deactivated-login');

    // The session is really over: the account area sends back to login.
    await page.goto('/coach/account');
    await page.waitForURL('**/login');
  });
});
