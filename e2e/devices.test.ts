import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Devices (spec §2, §4, §5): the admin adds a watch (a bad MAC address is refused with its
 * message), binds it to a patient and finds it on the patient's devices tab; then opens a demo
 * watch's connection and phone histories.
 */

/** Waits for what the page shows after a server round trip (a loaded machine can be slow). */
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

async function signInAsAdmin(): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, 'admin@demo.example');
  await page.waitForURL('**/admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).click();
  await page.waitForURL('**/admin/devices');
  return page;
}

/** Dialogs fade in; a screenshot taken during the fade shows them half transparent. */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

const rows = (page: Page) => page.getByTestId('devices-table').locator('tbody tr');

describe('devices', () => {
  it('adds a watch, refusing a bad MAC address, binds it to a patient and shows it on the patient', async () => {
    const page = await signInAsAdmin();
    await poll(() => rows(page).count()).toBe(15);
    await screenshot(page, 'devices-list');

    await page.getByRole('button', { name: 'Add device' }).click();
    const form = page.getByRole('form', { name: 'Add a device' });
    await form.getByRole('combobox', { name: /^Device type/ }).click();
    await page.getByRole('option', { name: 'GT5', exact: true }).click();
    await form.getByRole('textbox', { name: /^Serial number/ }).fill('SN-E2E-0001');
    await form.getByRole('textbox', { name: /^MAC address/ }).fill('AA:BB:CC:DD');
    await form.getByRole('button', { name: 'Add device' }).click();
    await poll(() => form.getByText('Invalid MAC address format').isVisible()).toBe(true);
    await settle(page);
    await screenshot(page, 'devices-form-invalid-mac');

    await form.getByRole('textbox', { name: /^MAC address/ }).fill('aa-bb-cc-dd-ee-99');
    await form.getByRole('button', { name: 'Add device' }).click();
    await poll(() => page.getByText('Device added').isVisible()).toBe(true);
    await dismissToasts(page);

    await page.getByRole('textbox', { name: 'Search devices' }).fill('AA:BB:CC:DD:EE:99');
    await poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('SN-E2E-0001');
    expect(await rows(page).first().textContent()).toContain('Not activated');

    await page.getByRole('button', { name: 'Actions for device SN-E2E-0001' }).click();
    await page.getByRole('menuitem', { name: 'Bind to a patient' }).click();
    const bind = page.getByRole('form', { name: 'Bind device SN-E2E-0001' });
    await bind.getByRole('textbox', { name: 'Search patients' }).fill('BNCS10002');
    await poll(() => bind.getByRole('radio').count()).toBe(1);
    await bind.getByRole('radio').first().check();
    await settle(page);
    await screenshot(page, 'devices-bind-dialog');
    await bind.getByRole('button', { name: 'Bind' }).click();
    await poll(() => page.getByText(/^Device bound to /).isVisible()).toBe(true);
    await dismissToasts(page);
    await poll(() => rows(page).first().textContent()).toContain('BNCS10002');

    // The device page links to its patient, whose devices tab lists the watch.
    await page.getByRole('link', { name: 'Open device SN-E2E-0001' }).click();
    await page.waitForURL(/\/admin\/devices\/[0-9a-f-]{36}$/);
    await page.getByRole('link', { name: /\(BNCS10002\)/ }).click();
    await page.waitForURL(/\/admin\/patients\/[0-9a-f-]{36}$/);
    await page.getByRole('tab', { name: 'Devices' }).click();
    const patientDevices = page.getByTestId('patient-devices-table');
    await poll(() => patientDevices.textContent()).toContain('SN-E2E-0001');
    expect(await patientDevices.textContent()).toContain('AA:BB:CC:DD:EE:99');
    await screenshot(page, 'devices-patient-tab');
  });

  it('opens a watch’s connection and phone histories', async () => {
    const page = await signInAsAdmin();
    await page.getByRole('textbox', { name: 'Search devices' }).fill('SN202600001');
    await poll(() => rows(page).count()).toBe(1);
    await page.getByRole('link', { name: 'Open device SN202600001' }).click();
    await page.waitForURL(/\/admin\/devices\/[0-9a-f-]{36}$/);
    const history = page.getByTestId('connection-history-table').locator('tbody tr');
    await poll(() => history.count()).toBe(3);
    expect(await history.first().textContent()).toContain('Still connected');
    await screenshot(page, 'devices-connection-history');

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Disconnected' }).click();
    await poll(() => history.count()).toBe(2);

    await page.getByRole('tab', { name: 'Phone history' }).click();
    const phones = page.getByTestId('phone-history-table').locator('tbody tr');
    await poll(() => phones.count()).toBe(2);
    await screenshot(page, 'devices-phone-history');
  });
});
