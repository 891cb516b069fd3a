import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/console.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * The list pages' tables come from one column list: a sortable column's header is a button that
 * works from the keyboard, says its order to screen readers (aria-sort) and sends the order to the
 * server; changing the order starts again at the first page.
 */

const suite = useConsoleSuite();

const table = (page: Page) => page.getByTestId('devices-table');
const header = (page: Page, name: string) => table(page).locator('thead th', { hasText: name });
const serials = (page: Page) => table(page).locator('tbody tr td:first-child').allTextContents();

describe('list columns', () => {
  it('sorts the device list from the keyboard by a column header, both ways, back on page 1, and exports it', async () => {
    const page = await suite.driver.openPage();
    await suite.driver.signIn(page, 'admin@demo.example');
    await page.waitForURL('**/admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Devices' }).click();
    await page.waitForURL('**/admin/devices');
    await poll(() => table(page).locator('tbody tr').count()).toBe(15);

    // Sortable columns say "none" until chosen; the others (patient, actions) say nothing.
    expect(await header(page, 'Serial number').getAttribute('aria-sort')).toBe('none');
    expect(await header(page, 'Patient').getAttribute('aria-sort')).toBeNull();
    expect(await header(page, 'Patient').getByRole('button').count()).toBe(0);

    await page.getByRole('button', { name: 'Page 2' }).click();
    await poll(() => page.getByTestId('pager-summary').textContent()).toMatch(/^16–/);

    await header(page, 'Serial number').getByRole('button').focus();
    await page.keyboard.press('Enter');
    await poll(() => header(page, 'Serial number').getAttribute('aria-sort')).toBe('ascending');
    await poll(() => page.getByTestId('pager-summary').textContent()).toMatch(/^1–15 /);
    await poll(async () => {
      const shown = await serials(page);
      return shown.join(',') === [...shown].sort().join(',') && shown.length === 15;
    }).toBe(true);
    expect(await header(page, 'Serial number').textContent()).toContain('▲');
    await screenshot(page, 'list-columns-devices-sorted');

    await page.keyboard.press('Space');
    await poll(() => header(page, 'Serial number').getAttribute('aria-sort')).toBe('descending');
    await poll(async () => {
      const shown = await serials(page);
      return shown.join(',') === [...shown].sort().reverse().join(',') && shown.length === 15;
    }).toBe(true);
    expect(await header(page, 'Serial number').textContent()).toContain('▼');

    // The export is the server's, of the same list: the first watch shown is in the file.
    const [first] = await serials(page);
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    const content = await readFile(await file.path());
    // exceljs's typings predate Node's Buffer generics; the bytes are what it reads.
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
    const cells = workbook.worksheets.flatMap((sheet) =>
      sheet.getSheetValues().flatMap((row) => (Array.isArray(row) ? row.map(String) : [])),
    );
    expect(cells).toContain(first);
    // Another column takes the order over, ascending; the former one goes back to "none".
    await header(page, 'Device type').getByRole('button').click();
    await poll(() => header(page, 'Device type').getAttribute('aria-sort')).toBe('ascending');
    expect(await header(page, 'Serial number').getAttribute('aria-sort')).toBe('none');
  });
});
