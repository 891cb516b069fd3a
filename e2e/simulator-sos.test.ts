import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type RunningFleet } from '../tools/simulator/fleet.js';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './support/harness.js';

/**
 * The SOS path end to end (issue "Browser tests"): the simulated watch of a patient sends an SOS
 * press through the collector; the operator, sitting on the SOS call list, gets the popup and sees
 * the list update without reloading, opens the case and takes it through to closed with actions.
 */
function poll<T>(read: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(read, { timeout });
}

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let fleet: RunningFleet | undefined;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});
afterEach(async () => {
  await fleet?.stop();
  await driver.closeAll();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
});

/** Calls the API from inside the page, with the operator's own session cookie. */
async function callApi<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (address) => {
    const response = await fetch(address);
    return ((await response.json()) as { data: unknown }).data;
  }, url) as Promise<T>;
}

describe('an SOS from a simulated watch', () => {
  it('pops up for the operator, joins the SOS call list live, and is handled through to closed', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'operator@demo.example');
    await page.waitForURL('**/operator');
    await page.getByRole('navigation').getByRole('link', { name: 'SOS call list' }).click();
    await page.waitForURL('**/operator/sos');
    await poll(() => page.getByTestId('live-status').getAttribute('data-status')).toBe('live');
    // A marker that a reload would wipe.
    await page.evaluate(() => {
      (window as unknown as { liveMarker: string }).liveMarker = 'still here';
    });

    // The demo doctor's watches (the fleet npm start runs), one batch of history each.
    fleet = await startFleet({
      url: server.baseUrl,
      tenant: DEMO_TENANT_CODE,
      username: 'doctor@demo.example',
      password: DEMO_PASSWORD,
      app: 'doctor',
      patients: 14,
      speed: 1,
      eventRates: {},
      historyHours: 0.25,
      replayHours: 0,
      seed: 11,
      log: () => undefined,
    });
    await fleet.flush();
    // A patient in a normal state, with no SOS case open.
    let target: { patientId: string; fullName: string } | undefined;
    for (const watch of fleet.watches) {
      const patient = await callApi<{ status: string; fullName: string }>(
        page,
        `/account/patients/${watch.patientId}`,
      );
      if (patient.status === 'NORMAL') {
        target = { patientId: watch.patientId, fullName: patient.fullName };
        break;
      }
    }
    if (target === undefined) throw new Error('no simulated patient in a normal state');
    const row = page.getByTestId('sos-row').filter({ hasText: target.fullName });
    expect(await row.count()).toBe(0);

    fleet.injectEvent('sos', target.patientId);
    await fleet.flush();
    expect(fleet.stats.eventsSent.sos).toBe(1);

    const popup = page.getByRole('dialog', { name: 'SOS received' });
    await popup.waitFor({ timeout: 15_000 });
    await poll(() => popup.textContent()).toContain(target.fullName);
    expect(await popup.textContent()).toContain('SOS button');
    // The list behind the popup shows the new case, without a reload.
    await poll(() => row.count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
      'still here',
    );
    await page.waitForTimeout(400);
    await screenshot(page, 'simulator-sos-popup');

    await popup.getByRole('button', { name: 'Open the case' }).click();
    await page.waitForURL(/\/operator\/sos\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('heading', { name: `Patient in SOS: ${target.fullName}` }).count()).toBe(
      1,
    );
    const status = () => page.getByTestId('sos-status').first().getAttribute('data-status');
    expect(await status()).toBe('NEW');

    await page.getByTestId('sos-actions').getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await poll(status).toBe('IN_PROCESS');
    await dismissToasts(page);
    await page.getByTestId('sos-actions').getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^Reason/)
      .fill('Reached the patient by phone: a fall at home, neighbour with him');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await poll(status).toBe('RESOLVED');
    await dismissToasts(page);
    await page.getByTestId('sos-actions').getByRole('button', { name: 'Close', exact: true }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^Reason/)
      .fill('Family doctor visited, no injury');
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await poll(status).toBe('CLOSED');
    const history = page.getByTestId('sos-history');
    for (const entry of ['SOS received', 'Accepted', 'Resolved', 'Closed']) {
      await poll(() => history.getByText(entry, { exact: true }).count()).toBeGreaterThan(0);
    }
    await screenshot(page, 'simulator-sos-closed');
  });
});
