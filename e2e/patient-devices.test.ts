import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, launchBrowser, type RunningServer } from './support/harness.js';
import { screenshot, startTestServer } from './support/console.js';

/**
 * The patient app's devices at 390×844 with touch: binding a watch by its serial number (and the
 * spec's refusal of a watch bound to someone else), the virtual watch's readings on the home
 * dashboard after one sync, and ten minutes of readings taken offline (the page's clock driven by
 * the test) all stored exactly once when the phone is back online.
 */

const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

let tenantId: string;
let patientId: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const [tenant] = await query<{ id: string }>(`SELECT id FROM tenants WHERE code = $1`, [DEMO_TENANT_CODE]);
  const [patient] = await query<{ id: string }>(
    `SELECT p.id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
  );
  if (!tenant || !patient) throw new Error('demo tenant or patient missing');
  tenantId = tenant.id;
  patientId = patient.id;
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser.close();
  await server.stop();
});

async function openPhone(): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: server.baseUrl, locale: 'en-GB' });
  contexts.push(context);
  return { page: await context.newPage(), context };
}

async function logIn(page: Page): Promise<void> {
  await page.goto('/app/');
  await page.waitForURL('**/app/login');
  await page.getByLabel('Tenant code').fill(DEMO_TENANT_CODE);
  await page.getByLabel('Email or phone number').fill('patient@demo.example');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).tap();
  await page.waitForURL(/\/app\/?$/);
}

async function openDevices(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Devices' }).first().tap();
  await page.waitForURL('**/app/devices');
  await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Devices' }).isVisible()).toBe(true);
  // The list of watches arrives after the heading and pushes the buttons below it down: a tap
  // before then can land on a watch instead.
  const myWatches = page.getByRole('region', { name: 'My watches' });
  await expect.poll(() => myWatches.getByText('Loading').count()).toBe(0);
}

/** Puts a watch in stock (or bound to `boundTo`), afresh on a retry of the test. */
async function stockWatch(model: string, serial: string, boundTo: string | null = null): Promise<void> {
  await query(`DELETE FROM devices WHERE serial_number = $1`, [serial]);
  await query(
    `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, firmware_version)
     VALUES ($1, gen_random_uuid(), $2, $3, $4, $5, '1.0.3')`,
    [tenantId, model, serial, `02:00:00:${serial.slice(-6, -4)}:${serial.slice(-4, -2)}:${serial.slice(-2)}`, boundTo],
  );
}

const queuedCount = async (page: Page) => Number(/(\d+)/.exec((await page.getByTestId('queued').textContent()) ?? '')?.[1] ?? -1);

describe('patient app devices', () => {
  it('binds a watch by its serial number and refuses one bound to another account', async () => {
    const [other] = await query<{ id: string }>(`SELECT id FROM patients WHERE tenant_id = $1 AND id <> $2 LIMIT 1`, [tenantId, patientId]);
    await stockWatch('GT5', 'E2E-GT5-100001');
    await stockWatch('V19', 'E2E-V19-100002', other?.id ?? null);
    const { page } = await openPhone();
    await logIn(page);
    await openDevices(page);
    await page.getByRole('link', { name: 'Bind a watch' }).tap();
    await page.waitForURL('**/app/devices/bind');

    // Bound to someone else: the spec's message, nothing bound.
    await page.getByLabel('Model').selectOption('V19');
    await page.getByLabel('Serial number').fill('E2E-V19-100002');
    await page.getByRole('button', { name: 'Bind', exact: true }).tap();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This device is connected by another user');

    await page.getByLabel('Model').selectOption('GT5');
    await page.getByLabel('Serial number').fill('e2e-gt5-100001');
    await screenshot(page, 'patient-devices-bind');
    await page.getByRole('button', { name: 'Bind', exact: true }).tap();
    await page.waitForURL('**/app/devices');
    const watch = page.getByRole('link', { name: /GT5/ });
    await expect.poll(() => watch.textContent()).toContain('Serial E2E-GT5-100001');
    const [stored] = await query<{ patient_id: string }>(`SELECT patient_id FROM devices WHERE serial_number = 'E2E-GT5-100001'`);
    expect(stored?.patient_id).toBe(patientId);

    // Its own page: settings saved on the server.
    await watch.tap();
    await page.getByLabel('Fall detection').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).tap();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Settings saved' }).isVisible()).toBe(true);
    const [settings] = await query<{ watch_settings: Record<string, boolean> }>(`SELECT watch_settings FROM devices WHERE serial_number = 'E2E-GT5-100001'`);
    expect(settings?.watch_settings).toEqual({ nightSpo2Detection: true, fallDetection: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'patient-devices-watch');
  });

  it('shows the virtual watch’s readings on the dashboard after one sync', async () => {
    const { page } = await openPhone();
    await logIn(page);
    await openDevices(page);
    await page.getByRole('button', { name: 'Add a virtual watch' }).tap();
    await expect.poll(() => page.getByTestId('watch-state').textContent()).toBe('Connected');
    await expect.poll(() => page.getByTestId('last-sync').textContent()).toMatch(/^Last sync: /);
    await expect.poll(() => queuedCount(page)).toBe(0);
    const heartRate = /Heart rate (\d+) bpm/.exec((await page.getByText(/^Heart rate \d+ bpm$/).textContent()) ?? '')?.[1];
    expect(heartRate).toBeDefined();
    await screenshot(page, 'patient-devices-virtual');

    // A firmware upgrade with its progress, then the new version.
    await page.getByRole('button', { name: 'Upgrade firmware to 1.2.0' }).tap();
    await expect.poll(() => page.getByTestId('watch-state').textContent()).toBe('Upgrading firmware');
    expect(await page.getByRole('progressbar', { name: 'Upgrading firmware' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Firmware is up to date').isVisible()).toBe(true);
    expect(await page.getByText('Firmware 1.2.0').isVisible()).toBe(true);
    expect(await page.getByTestId('watch-state').textContent()).toBe('Connected');

    // The device log, downloaded as a file.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export the device log' }).tap();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^device-log-\d{4}-\d{2}-\d{2}\.txt$/);
    const text = await readFile(await file.path(), 'utf8');
    expect(text).toContain('virtual watch added');
    expect(text).toContain('firmware 1.2.0 installed');
    expect(text).toMatch(/sync: batch [0-9a-f-]{36} \d+ stored/);

    await page.getByRole('link', { name: 'Home' }).first().tap();
    await page.waitForURL(/\/app\/?$/);
    const shown = page.locator('.readings li[data-measure="HEART_RATE"] .reading-value');
    await expect.poll(() => shown.textContent()).toMatch(new RegExp(`^${heartRate ?? 'none'}\\b`));
    await screenshot(page, 'patient-devices-home');
  });

  it('keeps ten minutes of readings taken offline and stores each once when back online', async () => {
    const { page, context } = await openPhone();
    // The page's clock starts half an hour ago and is driven by the test from there.
    const start = Date.now() - 30 * 60_000;
    await page.clock.install({ time: start });
    await logIn(page);
    await openDevices(page);
    await page.getByRole('button', { name: 'Add a virtual watch' }).tap();
    await expect.poll(() => page.getByTestId('last-sync').textContent()).toMatch(/^Last sync: /);
    await expect.poll(() => queuedCount(page)).toBe(0);
    const windowStart = new Date(Math.floor(start / 60_000) * 60_000).toISOString();
    const windowEnd = new Date(start + 12 * 60_000).toISOString();
    const countStored = async () =>
      (await query<{ total: number }>(
        `SELECT count(*)::int AS total FROM readings WHERE patient_id = $1 AND measured_at >= $2 AND measured_at <= $3`,
        [patientId, windowStart, windowEnd],
      ))[0]?.total ?? 0;
    const before = await countStored();

    await context.setOffline(true);
    await page.clock.runFor(10 * 60_000);
    await expect.poll(() => page.getByText('No connection: readings are kept on this phone').isVisible()).toBe(true);
    await expect.poll(() => queuedCount(page)).toBeGreaterThanOrEqual(10);
    const queued = await queuedCount(page);
    expect(await countStored()).toBe(before);
    await screenshot(page, 'patient-devices-offline');

    await context.setOffline(false);
    await page.clock.runFor(60_000);
    await expect.poll(() => queuedCount(page), { timeout: 20_000 }).toBe(0);
    const after = await countStored();
    // Every reading kept offline was stored, once (one more minute may have been measured meanwhile).
    expect(after - before).toBeGreaterThanOrEqual(queued);
    expect(after - before).toBeLessThanOrEqual(queued + 8);
    const heartRates = await query<{ total: number }>(
      `SELECT count(*)::int AS total FROM readings WHERE patient_id = $1 AND measure = 'HEART_RATE' AND measured_at >= $2 AND measured_at <= $3`,
      [patientId, windowStart, windowEnd],
    );
    expect(heartRates[0]?.total).toBeGreaterThanOrEqual(11);
    const doubled = await query(
      `SELECT measure, measured_at FROM readings WHERE patient_id = $1 AND measured_at >= $2 AND measured_at <= $3 GROUP BY measure, measured_at HAVING count(*) > 1`,
      [patientId, windowStart, windowEnd],
    );
    expect(doubled).toEqual([]);
    await screenshot(page, 'patient-devices-online');
  });
});
