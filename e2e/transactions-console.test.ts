import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { PaymentPartnerKey } from '@rpm/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, formatViolations, horizontalOverflow } from './support/accessibility.js';
import { callWithCookie, sessionCookie } from './support/api.js';
import { ConsoleDriver, dismissToasts, screenshot } from './support/console.js';
import { logInPatient, queryDatabase, usePhoneSuite } from './support/phone.js';
import { poll } from './support/suite.js';

/**
 * A package from its creation to its refund (spec §2, §3, §5, §6): the demo tenant takes payments
 * through the sandbox; the admin creates a Gold package under Packages and a coupon under
 * Transactions; the demo patient, on the free package, cannot read values from a photo; it buys
 * the package in the app with the coupon and pays on the sandbox's page, and photo entry opens;
 * the admin finds the order in the history, reads its items, exports the columns it chooses to
 * Excel, downloads a CDR file and refunds the order.
 */

const suite = usePhoneSuite();
const WIDE = { width: 1440, height: 900 };
const TABLET = { width: 768, height: 1024 };
const DEVICE_SERIAL = 'E2E-TX-0001';
const CDR_DAY = '2020-01-15';
const CDR_CONTENT = 'record_type,order_code\r\nORDER,ORD-E2E\r\n';

/** yyyy-MM-dd `days` from today (UTC) and the same day as the console types it (dd/MM/yyyy). */
function day(days: number): { iso: string; typed: string } {
  const iso = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const [year = '', month = '', date = ''] = iso.split('-');
  return { iso, typed: `${date}/${month}/${year}` };
}

async function rowsOfWorkbook(content: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings predate Node's Buffer generics; the bytes are what it reads.
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/** Clicks what starts a download and answers the downloaded file. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; content: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), content: await readFile(await file.path()) };
}

/** WCAG AA as the accessibility test checks it (axe-core): no serious or critical violation. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(formatViolations(where, await axeViolations(page))).toBe('');
}

/** The demo tenant takes payments through the sandbox (no keys), with 10 % tax. */
async function sandboxPayments(baseUrl: string, tenantId: string): Promise<void> {
  const superAdmin = await sessionCookie(baseUrl, 'super-admin@demo.example');
  const call = <T>(method: string, path: string, body: unknown) =>
    callWithCookie<T>(baseUrl, superAdmin, method, path, body);
  const key = await call<PaymentPartnerKey>('POST', '/auth/sadmin/payment-config/partner-key', { tenantId });
  await call('POST', '/auth/sadmin/payment-config/verify-partner-auth', { tenantId, ...key });
  await call('POST', '/auth/sadmin/payment-config/verify-payment-method', {
    tenantId,
    method: 'SANDBOX',
    callbackUrl: `${baseUrl}/`,
  });
  await call('PUT', '/auth/sadmin/payment-config/tax', { tenantId, rate: 1000 });
}

/** Picks an option of a Mantine select by the select's label. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: new RegExp(`^${label}( \\*)?$`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('transactions in the console', () => {
  it('a package made by the admin is bought in the app, unlocks photo entry, and is listed, exported and refunded', async () => {
    const server = suite.server;
    // Codes of their own per attempt: a retried attempt must not meet the first one's.
    const run = String(Math.floor(Math.random() * 900) + 100);
    const PACKAGE_CODE = `E2E_TX_${run}`;
    const PACKAGE_NAME = `E2E Transactions Gold ${run}`;
    const COUPON = `E2ETEN${run}`;
    const { baseUrl } = server;
    const [patient] = await queryDatabase<{ tenant_id: string; id: string; user_id: string }>(
      server,
      `SELECT p.tenant_id, p.id, p.user_id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    await sandboxPayments(baseUrl, patient.tenant_id);

    // A paid package needs a bound wearable, and payments a phone of 10 digits starting 098.
    const devices = await queryDatabase(server, 'SELECT 1 FROM devices WHERE patient_id = $1', [patient.id]);
    if (devices.length === 0) {
      await queryDatabase(
        server,
        `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id)
           VALUES ($1, gen_random_uuid(), 'V19', $2, 'E2:E0:00:00:7A:01', $3)`,
        [patient.tenant_id, DEVICE_SERIAL, patient.id],
      );
    }
    await queryDatabase(server, `UPDATE users SET phone = '0986540321' WHERE id = $1`, [patient.user_id]);
    // The demo patient starts on the free default package (its seeded Basic taken away).
    await queryDatabase(server, 'DELETE FROM subscriptions WHERE patient_id = $1', [patient.id]);
    // A CDR file as the daily job writes them.
    await queryDatabase(
      server,
      `INSERT INTO cdr_files (tenant_id, id, day, file_name, rows, content, created_at)
         VALUES ($1, gen_random_uuid(), $2, $3, 1, convert_to($4, 'UTF8'), now()) ON CONFLICT DO NOTHING`,
      [patient.tenant_id, CDR_DAY, `cdr-${CDR_DAY}.csv`, CDR_CONTENT],
    );

    const consoleDriver = new ConsoleDriver(suite.browser, baseUrl);
    const page = await consoleDriver.openPage();
    await consoleDriver.signIn(page, 'admin@demo.example');
    await page.waitForURL('**/admin');
    await page.setViewportSize(WIDE);

    // The package, made in the console: Gold, 240,000 dong for 12 months, with photo entry.
    await page.getByRole('navigation').getByRole('link', { name: 'Packages', exact: true }).click();
    await page.waitForURL('**/admin/packages');
    await page.getByRole('button', { name: 'New package' }).click();
    const packageForm = page.getByTestId('package-form');
    await packageForm.getByRole('textbox', { name: /^Package ID/ }).fill(PACKAGE_CODE);
    await packageForm.getByRole('textbox', { name: /^Name/ }).fill(PACKAGE_NAME);
    await choose(page, 'Level', 'Gold');
    await packageForm.getByRole('textbox', { name: /^Price/ }).fill('240000');
    await packageForm.getByTestId('package-userFeatures').getByLabel('Readings from a photo').check();
    await packageForm.getByRole('button', { name: 'Create' }).click();
    await packageForm.waitFor({ state: 'detached' });
    await dismissToasts(page);
    const madeRow = page.getByTestId('packages-table').getByRole('row').filter({ hasText: PACKAGE_CODE });
    await poll(() => madeRow.textContent()).toContain('240,000');

    await page.getByRole('navigation').getByRole('link', { name: 'Transactions' }).click();
    await page.waitForURL('**/admin/transactions');

    // Coupons: an empty form says what is missing; a 10 % coupon valid from yesterday for a month.
    await page.getByRole('tab', { name: 'Coupons' }).click();
    await page.getByRole('button', { name: 'New coupon' }).click();
    const couponForm = page.getByTestId('coupon-form');
    await couponForm.getByLabel('Percentage off').fill('120');
    await couponForm.getByRole('button', { name: 'Create' }).click();
    await poll(() => couponForm.getByText('Use 3 to 32 capital letters, digits, - and _').isVisible()).toBe(
      true,
    );
    expect(
      await couponForm
        .getByText('Enter a percentage above 0 and at most 100, with at most 2 decimals')
        .isVisible(),
    ).toBe(true);
    expect(await couponForm.getByText('Choose a date').count()).toBe(2);
    await couponForm.getByRole('textbox', { name: /^Coupon code/ }).fill(COUPON.toLowerCase());
    await couponForm.getByLabel('Percentage off').fill('10');
    await couponForm.getByRole('textbox', { name: /^First day/ }).fill(day(-1).typed.replaceAll('/', ''));
    await couponForm.getByRole('textbox', { name: /^Last day/ }).fill(day(30).typed.replaceAll('/', ''));
    await couponForm.getByRole('switch', { name: 'Unlimited uses' }).click();
    await couponForm.getByLabel('Number of uses').fill('5');
    await couponForm.getByRole('button', { name: 'Create' }).click();
    await couponForm.waitFor({ state: 'detached' });
    await dismissToasts(page);
    const couponRow = page.getByTestId('coupon-row').filter({ hasText: COUPON });
    await poll(() => couponRow.textContent()).toContain('10%');
    expect(await couponRow.textContent()).toContain('0 of 5');
    const stored = await queryDatabase<{ value: string; max_uses: number; currency: string | null }>(
      server,
      'SELECT value, max_uses, currency FROM coupons WHERE code = $1',
      [COUPON],
    );
    // bigint comes back as text.
    expect(stored).toEqual([{ value: '1000', max_uses: 5, currency: null }]);
    await screenshot(page, 'console-transactions-coupons');
    await expectAccessible(page, 'coupons');

    // In the app, the patient on the free package may not read values from a photo.
    const phone = await suite.openPhone();
    await logInPatient(phone);
    await phone.goto('/app/entry/photo');
    await poll(() => phone.getByTestId('upgrade-notice').isVisible()).toBe(true);
    expect(await phone.getByLabel('Take or choose a photo').count()).toBe(0);

    // It buys the package with the coupon and pays on the sandbox's page.
    await phone.goto('/app/subscription');
    await phone
      .getByTestId('package-offer')
      .filter({ hasText: PACKAGE_NAME })
      .getByRole('link', { name: `Buy ${PACKAGE_NAME}` })
      .tap();
    await phone.waitForURL('**/app/subscription/checkout?package=*');
    await phone.getByRole('textbox', { name: 'Coupon code' }).fill(COUPON.toLowerCase());
    await phone.getByRole('button', { name: 'Apply' }).tap();
    // 240,000 less 10 % is 216,000; 10 % tax makes 237,600.
    await poll(() => phone.getByTestId('checkout-total').textContent()).toMatch(/237[.,]600/);
    await phone.getByRole('button', { name: 'Pay' }).tap();
    await phone.waitForURL('**/collector/payments/sandbox/*');
    await screenshot(phone, 'sandbox-payment-page');
    await phone.getByRole('button', { name: 'Pay' }).tap();
    await phone.waitForURL('**/app/payment/result?orderId=*');
    await expect
      .poll(() => phone.getByTestId('payment-outcome').textContent(), { timeout: 15_000 })
      .toBe(`Payment received: ${PACKAGE_NAME} has started.`);
    const orderCode = (await phone.getByTestId('payment-order-code').textContent()) ?? '';

    // The paid feature is open now.
    await phone.goto('/app/entry/photo');
    await poll(() => phone.getByLabel('Take or choose a photo').count()).toBe(1);
    expect(await phone.getByTestId('upgrade-notice').count()).toBe(0);
    await screenshot(phone, 'patient-photo-entry-unlocked');
    const [order] = await queryDatabase<{ id: string; code: string; customer_name: string; status: string; total_minor: string; coupon_code: string }>(
      server,
      'SELECT id, code, customer_name, status, total_minor, coupon_code FROM orders WHERE code = $1',
      [orderCode],
    );
    if (order === undefined) throw new Error(`no order ${orderCode}`);
    expect(order).toMatchObject({ status: 'SUCCESS', total_minor: '237600', coupon_code: COUPON });

    // The order history shows it as paid.
    await page.getByRole('tab', { name: 'Order history' }).click();
    await page.getByLabel('Search orders').fill(order.code);
    const row = page.getByTestId('order-row').filter({ hasText: order.code });
    await poll(() => row.count()).toBe(1);
    await poll(() => row.getByTestId('order-status').textContent()).toBe('Success · 2');
    expect(await row.textContent()).toContain('237,600');
    expect(await row.textContent()).toContain('Sandbox');
    expect(await row.textContent()).toContain('0986540321');
    await page.getByLabel('Search orders').fill('');
    await screenshot(page, 'console-transactions-list');
    await expectAccessible(page, 'order history');

    // Its detail: the items with their discount, the coupon, the tax.
    await row.getByRole('link', { name: order.code }).click();
    await page.waitForURL(`**/admin/transactions/${order.id}`);
    const item = page.getByTestId('order-item');
    await poll(() => item.count()).toBe(1);
    const itemText = await item.textContent();
    expect(itemText).toContain(PACKAGE_CODE);
    expect(itemText).toContain('E2E Transactions Gold');
    expect(itemText).toContain('Service package');
    expect(itemText).toContain('24,000');
    expect(await page.getByTestId('order-coupon').textContent()).toBe(COUPON);
    expect(await page.getByTestId('order-response').textContent()).toBe('Success');
    expect(await page.getByTestId('order-amounts').textContent()).toContain('Tax (10%)');
    await screenshot(page, 'console-transactions-detail');
    await expectAccessible(page, 'order detail');

    // The export: nothing chosen is refused with spec §5's words; then the chosen columns, in order.
    await page.getByRole('link', { name: 'Back to transactions' }).click();
    await page.waitForURL('**/admin/transactions');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    const exportForm = page.getByTestId('export-form');
    await exportForm.getByRole('button', { name: 'Clear' }).click();
    for (const method of ['VNPay', 'Stripe', 'Sandbox'])
      await exportForm.getByTestId('export-methods').getByLabel(method).uncheck();
    await exportForm.getByRole('button', { name: 'Download' }).click();
    await poll(() => exportForm.getByText('Choose at least one attribute').isVisible()).toBe(true);
    expect(await exportForm.getByText('Choose a payment method').isVisible()).toBe(true);
    expect(await exportForm.getByText('Choose a date').count()).toBe(2);
    await screenshot(page, 'console-transactions-export');
    await expectAccessible(page, 'export dialog');
    const columns = ['Order code', 'Customer', 'Status', 'Total amount', 'Coupon', 'Response message'];
    const attributes = exportForm.getByTestId('export-attributes');
    // Checked in another order than the list's: the file follows the list.
    for (const column of [...columns].reverse())
      await attributes.getByRole('checkbox', { name: column, exact: true }).check();
    await exportForm.getByTestId('export-methods').getByLabel('Sandbox').check();
    await exportForm.getByRole('textbox', { name: /^From/ }).fill(day(-1).typed.replaceAll('/', ''));
    await exportForm.getByRole('textbox', { name: /^To/ }).fill(day(1).typed.replaceAll('/', ''));
    const file = await download(page, () => exportForm.getByRole('button', { name: 'Download' }).click());
    expect(file.name).toBe(`transactions-${day(-1).iso}-${day(1).iso}.xlsx`);
    const rows = await rowsOfWorkbook(file.content);
    expect(rows[0]).toEqual(columns);
    expect(rows.slice(1)).toContainEqual([
      order.code,
      order.customer_name,
      'Success',
      '237600',
      COUPON,
      'Success',
    ]);
    await exportForm.waitFor({ state: 'detached' });
    await dismissToasts(page);

    // CDR files: the day's file, downloaded as written.
    await page.getByRole('tab', { name: 'CDR files' }).click();
    const cdrRow = page.getByTestId('cdr-row').filter({ hasText: `cdr-${CDR_DAY}.csv` });
    await poll(() => cdrRow.count()).toBe(1);
    expect(await cdrRow.textContent()).toContain('15/01/2020');
    const cdr = await download(page, () =>
      cdrRow.getByRole('button', { name: `Download cdr-${CDR_DAY}.csv` }).click(),
    );
    expect(cdr.name).toBe(`cdr-${CDR_DAY}.csv`);
    expect(cdr.content.toString('utf8')).toBe(CDR_CONTENT);
    await expectAccessible(page, 'CDR files');

    // At the console's narrowest width nothing scrolls sideways.
    await page.setViewportSize(TABLET);
    await page.getByRole('tab', { name: 'Order history' }).click();
    await poll(() => page.getByTestId('order-row').count()).toBeGreaterThan(0);
    expect((await horizontalOverflow(page)).culprits).toEqual([]);
    await screenshot(page, 'console-transactions-list-768');
    await page.getByTestId('order-row').filter({ hasText: order.code }).getByRole('link').click();
    await page.getByTestId('order-item').waitFor();
    expect((await horizontalOverflow(page)).culprits).toEqual([]);
    await page.setViewportSize(WIDE);

    // The refund: a reason is required, then a confirmation; the order is refunded.
    await page.getByRole('button', { name: 'Refund' }).click();
    const refund = page.getByRole('dialog', { name: `Refund order ${order.code}` });
    await refund.getByRole('button', { name: 'Continue' }).click();
    await poll(() => refund.getByText('Enter the reason for the refund').isVisible()).toBe(true);
    await refund.getByLabel(/^Reason for the refund/).fill('Bought by mistake');
    await refund.getByRole('button', { name: 'Continue' }).click();
    await poll(() => refund.getByText(/^Refund ₫237,600 to .+\? This cannot be undone\.$/).isVisible()).toBe(
      true,
    );
    await refund.getByRole('button', { name: 'Confirm refund' }).click();
    await refund.waitFor({ state: 'detached' });
    await poll(() => page.getByTestId('order-summary').getByTestId('order-status').textContent()).toBe(
      'Refunded · 3',
    );
    expect(await page.getByTestId('order-web-status').textContent()).toBe('3');
    expect(await page.getByTestId('order-refund-reason').textContent()).toBe('Bought by mistake');
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    await dismissToasts(page);
    const refunded = await queryDatabase<{ status: string; refunded_minor: string }>(
      server,
      'SELECT status, refunded_minor FROM orders WHERE id = $1',
      [order.id],
    );
    expect(refunded).toEqual([{ status: 'REFUNDED', refunded_minor: '237600' }]);
    await page.getByRole('link', { name: 'Back to transactions' }).click();
    await poll(() =>
      page.getByTestId('order-row').filter({ hasText: order.code }).getByTestId('order-status').textContent(),
    ).toBe('Refunded · 3');
    await consoleDriver.closeAll();
  });
});
