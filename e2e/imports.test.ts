import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';
import { chooseFile } from './support/tenant-fixtures.js';

/**
 * Bulk imports (spec §2, §5): the admin downloads the patient template, fills it with rows of which
 * two are wrong, uploads it, watches it run, reads the result and downloads the error file; then
 * imports watches for two of the new patients, finds them on the devices page and moves one to
 * another patient (unbind, bind).
 */

function poll<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 20_000 });
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

async function rowsOfWorkbook(content: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

async function workbookOf(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Clicks a button that starts a download and returns the downloaded bytes. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; content: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const filePath = await file.path();
  return { name: file.suggestedFilename(), content: await readFile(filePath) };
}

const jobCard = (page: Page) => page.getByTestId('import-job');

/** Codes, phones and watches of their own per run: a retried run must not meet the first one's rows. */
const RUN = Math.floor(Math.random() * 900) + 100;
const code = (index: number) => `E${RUN}${String(index + 1).padStart(5, '0')}`;
const GOOD_PATIENTS = Array.from({ length: 1500 }, (_, index) => ({
  code: code(index),
  phone: `097${RUN}${String(index).padStart(4, '0')}`,
}));
const hex = (value: number) => value.toString(16).padStart(2, '0').toUpperCase();

describe('bulk imports', () => {
  it('imports patients with two bad rows and devices, with progress, result and error file', async () => {
    const page = await driver.openPage();
    await driver.signIn(page, 'admin@demo.example');
    await page.waitForURL('**/admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Imports' }).click();
    await page.waitForURL('**/admin/imports');
    await page.getByRole('tab', { name: 'Patients' }).waitFor();
    // A fresh demo tenant has none; a retried run finds the first attempt's.
    await poll(
      async () => (await page.getByText('No import yet').isVisible()) || (await jobCard(page).isVisible()),
    ).toBe(true);
    await screenshot(page, 'imports-start');

    // The template: its header row is what the file must keep.
    const template = await download(page, () =>
      page.getByRole('button', { name: 'Download template' }).click(),
    );
    expect(template.name).toBe('patient-import-template.xlsx');
    const [headers = [], ...exampleRows] = await rowsOfWorkbook(template.content);
    expect(headers[0]).toBe('Patient ID');
    // The sheet that is imported holds the headers only: the example is on the instructions sheet.
    expect(exampleRows).toEqual([]);

    const row = (code: string, firstName: string, birthday: string, phone: string) => {
      const values: unknown[] = headers.map(() => null);
      values[0] = code;
      values[1] = firstName;
      values[2] = 'Tran';
      values[3] = birthday;
      values[4] = 'FEMALE';
      values[5] = phone;
      values[7] = 160;
      values[8] = 55;
      values[9] = 'A+';
      values[10] = '5 Hai Ba Trung, District 1';
      return values;
    };
    const rows = [
      headers,
      ...GOOD_PATIENTS.slice(0, 700).map((patient) => row(patient.code, 'Lan', '02/03/1970', patient.phone)),
      row(`B${RUN}01`, 'L4n', '02/03/1970', `096${RUN}9001`),
      ...GOOD_PATIENTS.slice(700).map((patient) => row(patient.code, 'Mai', '12/11/1965', patient.phone)),
      row(`B${RUN}02`, 'Hoa', '01/01/2090', `096${RUN}9002`),
    ];
    const file = await workbookOf(rows);

    // A file that is not .xlsx is refused before anything is sent.
    await chooseFile(page, page.getByRole('button', { name: /Excel file/ }), {
      name: 'patients.csv',
      buffer: Buffer.from('a,b'),
      mimeType: 'text/csv',
    });
    await poll(() => page.getByText('Choose an Excel file ending in .xlsx.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);

    await chooseFile(page, page.getByRole('button', { name: /Excel file/ }), {
      name: 'patients-e2e.xlsx',
      buffer: file,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    // The rows name no health center: they go to the default one chosen here.
    await page.getByTestId('import-default-center').click();
    await page.getByRole('option').first().click();
    await page.getByRole('button', { name: 'Start import' }).click();

    // The accepted job shows at once with its processing progress, then its result.
    await poll(() => jobCard(page).getAttribute('data-status')).toMatch(/QUEUED|RUNNING|PARTIAL/);
    const sawProgress = await page
      .getByRole('progressbar', { name: 'Processing progress' })
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    expect(sawProgress || (await jobCard(page).getAttribute('data-status')) === 'PARTIAL').toBe(true);
    // Some rows were refused: partly imported, not a plain success.
    await poll(() => jobCard(page).getAttribute('data-status')).toBe('PARTIAL');
    expect(await page.getByTestId('import-status').textContent()).toBe('Partly imported');
    expect(await page.getByTestId('rows-stored').textContent()).toBe((1500).toLocaleString('en'));
    expect(await page.getByTestId('rows-failed').textContent()).toBe('2');
    await poll(() => page.getByText('1,500 rows were imported and 2 were not').isVisible()).toBe(true);
    await poll(() => page.getByTestId('import-history').getByText('patients-e2e.xlsx').isVisible()).toBe(
      true,
    );
    await screenshot(page, 'imports-patients-result');

    const errors = await download(page, () =>
      page.getByRole('button', { name: 'Download error file' }).click(),
    );
    expect(errors.name).toBe('patients-e2e-errors.xlsx');
    const errorRows = await rowsOfWorkbook(errors.content);
    expect(errorRows[0]?.slice(-2)).toEqual(['Row', 'Reason']);
    expect(errorRows.slice(1).map((line) => [line[0], line[headers.length]])).toEqual([
      [`B${RUN}01`, 702],
      [`B${RUN}02`, 1503],
    ]);

    // After a reload the last import is shown again.
    await page.reload();
    await poll(() => jobCard(page).getAttribute('data-status')).toBe('PARTIAL');

    // Devices: two watches for two of the new patients (account name = patient code).
    await page.getByRole('tab', { name: 'Devices' }).click();
    await page.waitForURL('**/admin/imports?kind=DEVICE');
    const deviceTemplate = await download(page, () =>
      page.getByRole('button', { name: 'Download template' }).click(),
    );
    const [deviceHeaders = []] = await rowsOfWorkbook(deviceTemplate.content);
    expect(deviceHeaders).toEqual(['Account name', 'MAC', 'Device type', 'Serial']);
    const devices = await workbookOf([
      deviceHeaders,
      [code(0), `D4:3B:04:${hex(RUN >> 8)}:${hex(RUN & 255)}:01`, 'V19', `SNE${RUN}1`],
      [code(1), `D4:3B:04:${hex(RUN >> 8)}:${hex(RUN & 255)}:02`, 'GT5', `SNE${RUN}2`],
    ]);
    await chooseFile(page, page.getByRole('button', { name: /Excel file/ }), {
      name: 'watches.xlsx',
      buffer: devices,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await page.getByRole('button', { name: 'Start import' }).click();
    await poll(() => jobCard(page).getAttribute('data-status')).toBe('SUCCEEDED');
    expect(await page.getByTestId('rows-stored').textContent()).toBe('2');
    await screenshot(page, 'imports-devices-result');

    await page.goto('/admin/devices');
    await screenshot(page, 'imports-devices-page');
    await page.getByRole('textbox', { name: 'Search devices' }).fill(`SNE${RUN}`);
    await poll(() => page.getByTestId('devices-table').getByText(`SNE${RUN}1`).isVisible()).toBe(true);
    expect(await page.getByTestId('devices-table').getByText(`SNE${RUN}2`).isVisible()).toBe(true);
    await screenshot(page, 'imports-devices-listed');

    // One imported watch moves to another patient: unbind it, then bind it to BNCS10002.
    const table = page.getByTestId('devices-table');
    await page.getByRole('button', { name: `Actions for device SNE${RUN}1` }).click();
    await page.getByRole('menuitem', { name: 'Unbind' }).click();
    await page.getByRole('dialog', { name: 'Unbind device' }).getByRole('button', { name: 'Unbind' }).click();
    await poll(() => page.getByText('Device unbound').isVisible()).toBe(true);
    await dismissToasts(page);
    await page.getByRole('button', { name: `Actions for device SNE${RUN}1` }).click();
    await page.getByRole('menuitem', { name: 'Bind to a patient' }).click();
    const bind = page.getByRole('form', { name: `Bind device SNE${RUN}1` });
    await bind.getByRole('textbox', { name: 'Search patients' }).fill('BNCS10002');
    await poll(() => bind.getByRole('radio').count()).toBe(1);
    await bind.getByRole('radio').first().check();
    await bind.getByRole('button', { name: 'Bind' }).click();
    await poll(() => page.getByText(/^Device bound to /).isVisible()).toBe(true);
    await poll(
      async () => (await table.locator('tr', { hasText: `SNE${RUN}1` }).textContent()) ?? '',
    ).toContain('BNCS10002');
    await screenshot(page, 'imports-device-bound');
  });
});
