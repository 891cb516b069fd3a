import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Spec §4: a deactivated doctor can be restored within 30 days only. The staff page's Enable
 * button follows the same rule as the deactivated-doctors restore: after 30 days the admin is
 * told why, and the doctor stays disabled.
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

async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Deactivates a doctor `days` ago (the database records the time from updated_at). */
const deactivate = (id: string, days: number) =>
  query(`UPDATE users SET status = 'DISABLED', disabled_until = NULL, updated_at = now() - make_interval(days => $2) WHERE id = $1`, [id, days]);
const statusOf = async (id: string) => (await query<{ status: string }>('SELECT status FROM users WHERE id = $1', [id]))[0]?.status;

async function openStaff(page: Page, doctor: { id: string; name: string }) {
  await page.goto(`/admin/staff/${doctor.id}`);
  await expect.poll(() => page.getByRole('heading', { name: doctor.name }).isVisible(), { timeout: 15_000 }).toBe(true);
}

describe('enabling a deactivated doctor', () => {
  it('is refused after 30 days with the reason, and done within them', async () => {
    const doctors = await query<{ id: string; name: string }>(
      `SELECT users.id, users.first_name || ' ' || users.last_name AS name FROM users JOIN tenants ON tenants.id = users.tenant_id
        WHERE tenants.code = 'demo' AND users.role = 'DOCTOR' AND users.status = 'ACTIVE' AND users.email <> 'doctor@demo.example'
        ORDER BY users.email LIMIT 2`,
    );
    const [late, recent] = doctors;
    if (late === undefined || recent === undefined) throw new Error('the demo tenant has fewer than two other doctors');
    await deactivate(late.id, 31);
    await deactivate(recent.id, 10);

    const page = await driver.openPage();
    await driver.signIn(page, 'admin@demo.example');
    await page.waitForURL('**/admin');
    await openStaff(page, late);
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect
      .poll(() => page.getByText('A deactivated doctor can be restored within 30 days only; this period is over').first().isVisible(), { timeout: 15_000 })
      .toBe(true);
    // Toasts slide in: the picture is taken once this one is in place.
    await page.waitForTimeout(600);
    await screenshot(page, 'staff-enable-restore-period-over');
    expect(await statusOf(late.id)).toBe('DISABLED');
    expect(await page.getByTestId('staff-status').textContent()).not.toBe('Active');

    await openStaff(page, recent);
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => page.getByTestId('staff-status').textContent(), { timeout: 15_000 }).toBe('Active');
    expect(await statusOf(recent.id)).toBe('ACTIVE');
  });
});
