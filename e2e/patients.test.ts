import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * Patients and the dashboard (spec §2, §4, §7): an operator searches and filters the patient list,
 * a doctor changes a patient's status with a reason, and the home dashboard shows the counts.
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

async function signIn(username: string, area: string): Promise<Page> {
  const page = await driver.openPage();
  await driver.signIn(page, username);
  await page.waitForURL(`**/${area}`);
  return page;
}

const rows = (page: Page) => page.getByTestId('patients-table').locator('tbody tr');
const statusesOf = (page: Page) =>
  rows(page).evaluateAll((elements) =>
    elements.map((row) => row.querySelector('[data-status]')?.getAttribute('data-status') ?? ''),
  );
const namesOf = (page: Page) =>
  rows(page).evaluateAll((elements) =>
    elements.map((row) => row.querySelectorAll('td')[1]?.querySelector('a')?.textContent ?? ''),
  );

describe('patients', () => {
  it('shows the operator the counts on the home dashboard, then searches and filters the list', async () => {
    const page = await signIn('operator@demo.example', 'operator');
    const dashboard = page.getByTestId('patient-dashboard');
    await poll(() => dashboard.getByTestId('dashboard-total').textContent()).toMatch(/\d+/);
    const total = Number((await dashboard.getByTestId('dashboard-total').textContent())?.replace(/\D/g, ''));
    const parts = await Promise.all(
      ['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS'].map(async (status) =>
        Number((await dashboard.getByTestId(`dashboard-${status}`).textContent())?.replace(/\D/g, '')),
      ),
    );
    expect(total).toBeGreaterThan(0);
    expect(parts.reduce((sum, count) => sum + count, 0)).toBe(total);
    await page.waitForTimeout(600);
    await screenshot(page, 'patients-dashboard');

    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/operator/patients');
    await poll(() => rows(page).count()).toBeGreaterThan(1);
    // The operator works at Saigon Heart Center: every listed patient is of that center.
    const centers = await rows(page).evaluateAll((elements) =>
      elements.map((row) => row.querySelectorAll('td')[4]?.textContent ?? ''),
    );
    expect(new Set(centers)).toEqual(new Set(['Saigon Heart Center']));
    // The operator may not create patients.
    expect(await page.getByRole('link', { name: 'New patient' }).count()).toBe(0);
    await screenshot(page, 'patients-list');

    await page.getByRole('textbox', { name: 'Search patients' }).fill('Hung Pham');
    await poll(() => namesOf(page)).toEqual(['Hung Pham']);
    await page.getByRole('textbox', { name: 'Search patients' }).fill('');
    await poll(() => rows(page).count()).toBeGreaterThan(1);

    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'SOS', exact: true }).click();
    await poll(async () => new Set(await statusesOf(page))).toEqual(new Set(['SOS']));
    await page.getByRole('textbox', { name: 'Search patients' }).fill('nobody-has-this-name');
    await poll(() => page.getByText('No patients match').isVisible()).toBe(true);
  });

  it('lets a doctor change a patient’s status with a required reason; badge and history follow', async () => {
    const page = await signIn('doctor@demo.example', 'doctor');
    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/doctor/patients');
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Normal', exact: true }).click();
    await poll(async () => new Set(await statusesOf(page))).toEqual(new Set(['NORMAL']));
    const [name] = await namesOf(page);
    await rows(page).first().locator('td').nth(1).getByRole('link').click();
    await poll(() => page.getByRole('heading', { name }).isVisible()).toBe(true);
    const header = page.locator('h1').locator('..');
    expect(await header.getByTestId('patient-status').getAttribute('data-status')).toBe('NORMAL');

    await page.getByRole('button', { name: 'Change status' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'At risk' }).check();
    await dialog.getByRole('button', { name: 'Change status' }).click();
    await poll(() => dialog.getByText('Please enter a reason').isVisible()).toBe(true);
    await dialog
      .getByRole('textbox', { name: /^Reason/ })
      .fill('Blood pressure above 150/95 three days in a row');
    await page.waitForTimeout(400);
    await screenshot(page, 'patients-status-dialog');
    await dialog.getByRole('button', { name: 'Change status' }).click();
    await poll(() => header.getByTestId('patient-status').getAttribute('data-status')).toBe('AT_RISK');
    await dismissToasts(page);

    await page.getByRole('tab', { name: 'Status history' }).click();
    const history = page.getByTestId('history-row').first();
    await poll(() => history.textContent()).toContain('Blood pressure above 150/95 three days in a row');
    expect(await history.textContent()).toContain('Linh Nguyen');
    await screenshot(page, 'patients-profile-history');
    await page.getByRole('tab', { name: 'Info' }).click();
    await page.waitForTimeout(300);
    await screenshot(page, 'patients-profile');
  });

  it('says a broad search has more matches than it counted, and pages on', async () => {
    // 10,100 patients named Tallis Rowe, in the demo tenant's first center.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, health_center_id)
         SELECT center.tenant_id, gen_random_uuid(), 'TR' || lpad(n::text, 5, '0'), 'Tallis', 'Rowe', center.id
           FROM (SELECT center.tenant_id, center.id FROM health_centers center JOIN tenants tenant ON tenant.id = center.tenant_id
                  WHERE tenant.code = 'demo' ORDER BY center.created_at LIMIT 1) AS center, generate_series(1, 10100) n`,
      );
    } finally {
      await client.end();
    }
    const page = await signIn('admin@demo.example', 'admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/admin/patients');
    await page.getByRole('textbox', { name: 'Search patients' }).fill('Tallis Rowe');
    // The first page reads up to 10,000 matches (500 for each row up to its end), then stops counting.
    await poll(() => page.getByTestId('pager-summary').textContent()).toBe('1–20 of more than 10,000');
    expect(await rows(page).count()).toBe(20);
    await page.waitForTimeout(300);
    await screenshot(page, 'patients-search-more');
    // The second page reads up to 20,000: all 10,100, counted exactly.
    await page.getByRole('button', { name: 'Page 2' }).click();
    await poll(() => page.getByTestId('pager-summary').textContent()).toBe('21–40 of 10,100');
    expect(new Set(await namesOf(page))).toEqual(new Set(['Tallis Rowe']));
  });
});
