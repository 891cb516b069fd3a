import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { ConsoleDriver, dismissToasts } from './support/console.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Activation-code packages across the two apps: the demo admin generates a code package in the
 * console (the form says what is missing; the spreadsheet of codes is downloaded once), marks its
 * codes paid, locks and unlocks one and exports the code list (no secret in it); the demo patient
 * enters a wrong code (the spec's message), then a right one typed loosely, and is on the package;
 * the console then shows the code used by the patient.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
const DEVICE_SERIAL = 'E2E-CODE-0001';
const PACKAGE_NAME = 'E2E Gold by card';

/** Picks an option of a Mantine select by the select's label. */
async function choose(page: Page, label: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: new RegExp(`^${label}( \\*)?$`) }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Clicks what starts a download and returns the file's name and its first sheet's rows. */
async function downloadSheet(page: Page, click: () => Promise<void>): Promise<{ name: string; rows: string[][] }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings predate Node's Buffer generics; the bytes are what it reads.
  await workbook.xlsx.load((await readFile(await file.path())) as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((value) => (value instanceof Date ? value.toISOString() : String(value))));
  });
  return { name: file.suggestedFilename(), rows };
}

/** A day as the console's date fields take it (dd/MM/yyyy), `days` from today (UTC). */
function typedDay(days: number): string {
  const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const [year, month, date] = day.split('-');
  return `${date ?? ''}/${month ?? ''}/${year ?? ''}`;
}

describe('activation-code packages', () => {
  it('the admin generates, pays and manages a code package; the patient redeems a code', async () => {
    const server = suite.server;
    const [patient] = await queryDatabase<{ tenant_id: string; id: string; full_name: string }>(
      server,
      `SELECT p.tenant_id, p.id, btrim(concat_ws(' ', u.first_name, u.last_name)) AS full_name
         FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    // A retry starts from nothing made here: no code package, package, subscription or attempt.
    await queryDatabase(server, 'DELETE FROM activation_attempts');
    await queryDatabase(server, `DELETE FROM activation_codes WHERE code_package_id IN (SELECT id FROM code_packages WHERE prefix = 'E2E')`);
    await queryDatabase(server, `DELETE FROM code_packages WHERE prefix = 'E2E'`);
    await queryDatabase(
      server,
      `DELETE FROM subscriptions WHERE patient_id = $1 OR package_id IN (SELECT id FROM service_packages WHERE code LIKE 'E2E%')`,
      [patient.id],
    );
    await queryDatabase(server, `DELETE FROM service_packages WHERE code LIKE 'E2E%'`);
    // Paid packages need a bound wearable.
    await queryDatabase(
      server,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id)
         VALUES ($1, gen_random_uuid(), 'V19', $2, 'E2:E0:00:00:00:02', $3) ON CONFLICT DO NOTHING`,
      [patient.tenant_id, DEVICE_SERIAL, patient.id],
    );
    const cookie = await sessionCookie(server.baseUrl, 'admin@demo.example');
    // The tenant sells packages: its free default (the demo seeds one), and the package the cards give.
    const offer = await callWithCookie<{ items: { plan: string | null }[] }>(server.baseUrl, cookie, 'GET', '/account/packages?size=100');
    if (!offer.items.some((item) => item.plan === 'ZERO'))
      await callWithCookie(server.baseUrl, cookie, 'POST', '/account/packages', {
      code: 'E2E_CARD_ZERO',
      kind: 'PACKAGE',
      name: 'E2E Free',
      plan: 'ZERO',
      priceMinor: 0,
      currency: 'VND',
      durationMonths: -1,
    });
    await callWithCookie(server.baseUrl, cookie, 'POST', '/account/packages', {
      code: 'E2E_CARD_GOLD',
      kind: 'PACKAGE',
      name: PACKAGE_NAME,
      level: 'GOLD',
      priceMinor: 240_000,
      currency: 'VND',
      durationMonths: 12,
      userFeatures: ['VIDEO_CONSULTATION'],
    });

    const consoleDriver = new ConsoleDriver(suite.browser, server.baseUrl);
    const admin = await consoleDriver.openPage();
    await consoleDriver.signIn(admin, 'admin@demo.example');
    await admin.waitForURL('**/admin');
    await admin.getByRole('navigation').getByRole('link', { name: 'Code packages' }).click();
    await admin.waitForURL('**/admin/code-packages');
    await admin.getByText('No code packages yet').waitFor();

    // An empty form says what each field needs (spec §5: every field required).
    await admin.getByRole('button', { name: 'New code package' }).click();
    const form = admin.getByTestId('code-package-form');
    await form.waitFor();
    expect(await form.textContent()).toContain('The codes are shown only once');
    await form.getByRole('button', { name: 'Generate codes' }).click();
    for (const message of [
      'Enter the name of the code package',
      'Choose the type: package or add-on service',
      'Enter the series prefix',
      'Enter how many codes to generate',
      'Enter the expiry date',
      'Choose the upgrade membership package',
      'Enter the recipient organization',
    ])
      await expect.poll(() => form.getByText(message).isVisible()).toBe(true);

    await form.getByRole('textbox', { name: /^Name/ }).fill('E2E partner cards');
    await form.getByRole('textbox', { name: /^Recipient organization/ }).fill('E2E Partner Hospital');
    await choose(admin, 'Type', 'Package');
    await choose(admin, 'Upgrade membership package', new RegExp(PACKAGE_NAME));
    await form.getByRole('textbox', { name: /^Series prefix/ }).fill('e2e');
    expect(await form.getByRole('textbox', { name: /^Series prefix/ }).inputValue()).toBe('E2E');
    await form.getByRole('textbox', { name: /^Total codes/ }).fill('3');
    await form.getByRole('textbox', { name: /^Available from/ }).fill(typedDay(-1).replace(/\//g, ''));
    // The end before the start is said at once.
    await form.getByRole('textbox', { name: /^Expiry date/ }).fill(typedDay(-2).replace(/\//g, ''));
    await form.getByRole('textbox', { name: /^Purpose/ }).fill('Patients discharged from the partner hospital');
    await form.getByRole('textbox', { name: /^Benefit/ }).fill('A year of Gold');
    await form.getByRole('button', { name: 'Generate codes' }).click();
    await expect.poll(() => form.getByText('The expiry date must be after the availability date').isVisible()).toBe(true);
    await form.getByRole('textbox', { name: /^Expiry date/ }).fill(typedDay(365).replace(/\//g, ''));
    await screenshot(admin, 'console-code-package-form');

    // The spreadsheet of codes comes once, downloaded as the batch is generated.
    const generated = await downloadSheet(admin, () => form.getByRole('button', { name: 'Generate codes' }).click());
    expect(generated.name).toBe('codes-E2E.xlsx');
    expect(generated.rows[0]).toEqual(['Series', 'Code', 'Package', 'Expires']);
    const cards = generated.rows.slice(1);
    expect(cards.map((row) => row[0])).toEqual(['E2E000001', 'E2E000002', 'E2E000003']);
    const done = admin.getByTestId('code-package-generated');
    await done.waitFor();
    expect(await done.textContent()).toContain('the codes are shown only this once');
    await screenshot(admin, 'console-code-package-generated');
    await done.getByRole('link', { name: 'Open the code package' }).click();
    await admin.waitForURL(/\/admin\/code-packages\/[0-9a-f-]{36}$/);
    const detailUrl = admin.url();

    // The detail: its fields, counts and codes; all codes paid after a confirmation.
    await expect.poll(() => admin.getByTestId('code-count-NOT_PAID').textContent(), { timeout: 15_000 }).toBe('3');
    expect(await admin.getByTestId('code-package-fields').textContent()).toContain('E2E Partner Hospital');
    const codes = admin.getByTestId('activation-codes-table');
    await expect.poll(() => codes.getByRole('row').count()).toBe(4);
    await admin.getByRole('button', { name: 'Mark paid' }).click();
    let dialog = admin.getByRole('dialog', { name: 'Mark the codes of “E2E partner cards” paid?' });
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => admin.getByTestId('code-count-PAID').textContent()).toBe('3');
    await expect.poll(() => codes.getByTestId('code-state').allTextContents()).toEqual(['Paid', 'Paid', 'Paid']);
    expect(await admin.getByRole('button', { name: 'Mark paid' }).isDisabled()).toBe(true);
    await dismissToasts(admin);

    // One code locked, seen under the Locked filter, then unlocked.
    const second = codes.getByRole('row').filter({ hasText: 'E2E000002' });
    await second.getByRole('button', { name: 'Lock E2E000002' }).click();
    dialog = admin.getByRole('dialog', { name: 'Lock code E2E000002?' });
    await dialog.getByRole('button', { name: 'Lock' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => second.getByTestId('code-state').textContent()).toBe('Locked');
    await choose(admin, 'State', 'Locked');
    await expect.poll(() => codes.getByRole('row').count()).toBe(2);
    await second.getByRole('button', { name: 'Unlock E2E000002' }).click();
    dialog = admin.getByRole('dialog', { name: 'Unlock code E2E000002?' });
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => admin.getByText('No code matches').isVisible()).toBe(true);
    await dismissToasts(admin);

    // The patient: a wrong code is refused in the spec's words; the right one, typed loosely, works.
    const [, firstCode] = cards[0] ?? [];
    if (firstCode === undefined) throw new Error('no code in the file');
    const phone = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(phone);
    await phone.getByRole('link', { name: 'My package' }).tap();
    await phone.waitForURL('**/app/subscription');
    await phone.getByRole('link', { name: 'Enter a scratch card code' }).tap();
    await phone.waitForURL('**/app/subscription/redeem');
    await phone.getByLabel('Series number').fill('e2e000001');
    expect(await phone.getByLabel('Series number').inputValue()).toBe('E2E000001');
    // A code of the wrong length is caught before it counts as a wrong code.
    await phone.getByLabel('Code', { exact: true }).fill('ACDE-FGHJ');
    await phone.getByRole('button', { name: 'Use this code' }).tap();
    await expect.poll(() => phone.getByText('The code has 12 letters and digits').isVisible()).toBe(true);
    const wrongCode = firstCode.startsWith('A') ? 'CCCC-CCCC-CCCC' : 'AAAA-AAAA-AAAA';
    await phone.getByLabel('Code', { exact: true }).fill(wrongCode);
    await phone.getByRole('button', { name: 'Use this code' }).tap();
    await expect
      .poll(() => phone.getByTestId('redeem-error').textContent(), { timeout: 15_000 })
      .toBe('Scratch card code or security code incorrect');
    expect(await pageWidth(phone)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(phone, 'patient-redeem-wrong-360');
    await phone.getByLabel('Code', { exact: true }).fill(` ${firstCode.replace(/-/g, ' ').toLowerCase()} `);
    await phone.getByRole('button', { name: 'Use this code' }).tap();
    await phone.waitForURL('**/app/subscription');
    await expect.poll(() => phone.getByTestId('code-redeemed').textContent()).toContain(`Code accepted: you are now on ${PACKAGE_NAME} until`);
    await expect.poll(() => phone.getByTestId('my-package-name').textContent()).toBe(PACKAGE_NAME);
    expect(await pageWidth(phone)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(phone, 'patient-redeemed-360');

    // The console shows the code used by the patient; the export has no secret code.
    await admin.goto(detailUrl);
    const used = codes.getByRole('row').filter({ hasText: 'E2E000001' });
    await expect.poll(() => used.getByTestId('code-state').textContent(), { timeout: 15_000 }).toBe('Used');
    expect(await used.textContent()).toContain(patient.full_name);
    expect(await admin.getByTestId('code-count-USED').textContent()).toBe('1');
    const exported = await downloadSheet(admin, () => admin.getByRole('button', { name: 'Export code list' }).click());
    expect(exported.name).toBe('code-list-E2E.xlsx');
    expect(exported.rows.slice(1).map((row) => [row[0], row[1]])).toEqual([
      ['E2E000001', 'USED'],
      ['E2E000002', 'PAID'],
      ['E2E000003', 'PAID'],
    ]);
    expect(JSON.stringify(exported.rows)).not.toContain(firstCode);
    await screenshot(admin, 'console-code-package-detail');
    await admin.goto('/admin/code-packages');
    await expect.poll(() => admin.getByTestId('code-packages-table').getByTestId('code-counts').textContent(), { timeout: 15_000 }).toContain('1 used');
    await screenshot(admin, 'console-code-packages-list');
    await consoleDriver.closeAll();
  });
});
