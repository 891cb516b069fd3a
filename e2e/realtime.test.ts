import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * The console's live layer (spec §1 SOS functions; issue "Real time"): an operator sitting on the
 * console sees an SOS pop up, with a sound, and the dashboard counts move, without reloading.
 */

function poll<T>(read: () => T | Promise<T>) {
  // Well under the dashboard's own 30 s refresh: what moves the counts here is the live event.
  return expect.poll(read, { timeout: 12_000 });
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

interface PatientRow {
  id: string;
  fullName?: string;
  firstName?: string;
  lastName?: string;
  status: string;
}

/** Calls the API from inside the page, with the page's own session cookie. */
function callApi(
  page: Page,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; data: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const envelope = (await response.json()) as { data: unknown };
      return { status: response.status, data: envelope.data };
    },
    { method, url, body },
  );
}

const count = async (page: Page, status: string) =>
  Number((await page.getByTestId(`dashboard-${status}`).locator('p').last().textContent()) ?? 'NaN');

describe('live console', () => {
  it('pops up an SOS for the operator and updates the dashboard counts without reloading', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'operator@demo.example');
    await page.waitForURL('**/operator');
    // The header says the live layer is connected.
    await expect
      .poll(() => page.getByTestId('live-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('live');
    expect(await page.getByTestId('live-status').textContent()).toBe('Live');
    await poll(() => count(page, 'SOS')).not.toBeNaN();
    const sosBefore = await count(page, 'SOS');
    // A marker that a reload would wipe.
    await page.evaluate(() => {
      (window as unknown as { liveMarker: string }).liveMarker = 'still here';
    });

    const list = await callApi(page, 'GET', '/account/patients?sortField=code&sortType=asc&size=50');
    expect(list.status).toBe(200);
    const items = (list.data as { items: PatientRow[] }).items;
    const patient = items.find((row) => row.status === 'NORMAL') ?? items.find((row) => row.status !== 'SOS');
    if (patient === undefined) throw new Error('no patient to raise');
    const hotline = await callApi(page, 'POST', '/health/sos/hotline', {
      patientId: patient.id,
      location: { lat: 10.77689, lng: 106.70081 },
    });
    expect(hotline.status).toBe(200);

    const popup = page.getByRole('dialog', { name: 'SOS received' });
    await popup.waitFor({ timeout: 12_000 });
    await expect.poll(() => popup.textContent()).toContain('10.77689, 106.70081');
    await poll(() => count(page, 'SOS')).toBe(sosBefore + 1);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
      'still here',
    );
    await page.waitForTimeout(400);
    await screenshot(page, 'realtime-sos-popup');

    await popup.getByRole('button', { name: 'Open the case' }).click();
    await page.waitForURL(/\/operator\/sos\/[0-9a-f-]{36}$/);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
      'still here',
    );
  });
});
