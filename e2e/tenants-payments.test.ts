import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeVnpay, type FakeVnpay } from '../apps/server/test/fake-payments.js';
import { ConsoleDriver, dismissToasts, screenshot, startTestServer } from './support/console.js';
import { launchBrowser, type RunningServer } from './support/harness.js';

/**
 * A tenant's payment configuration (spec §2 "Payment method setup: partner verification, then
 * payment provider key, then tax"): the super admin verifies the partner (a wrong key refused, then
 * the issued one), saves VNPay keys checked against a local server speaking VNPay's merchant API (a
 * wrong secret refused; the saved one shown masked), sets the tax rate, then switches to the
 * sandbox and pays a test payment on its page.
 */
const TERMINAL = { tmnCode: 'DEMO0001', hashSecret: 'DEMOVNPAYHASHSECRET000000000042' };

let server: RunningServer;
let browser: Browser;
let driver: ConsoleDriver;
let vnpay: FakeVnpay;

beforeAll(async () => {
  vnpay = await startFakeVnpay(TERMINAL);
  server = await startTestServer({ VNPAY_PAYMENT_URL: vnpay.paymentUrl, VNPAY_API_URL: vnpay.apiUrl });
  browser = await launchBrowser();
  driver = new ConsoleDriver(browser, server.baseUrl);
});
afterEach(async () => {
  await driver.closeAll();
});
afterAll(async () => {
  await browser.close();
  await server.stop();
  await vnpay.close();
});

async function openPaymentsTab(page: Page) {
  await driver.signIn(page, 'super-admin@demo.example');
  await page.waitForURL('**/sadmin');
  await page.getByRole('navigation').getByRole('link', { name: 'Tenants' }).click();
  await page.getByTestId('tenants-table').getByRole('link', { name: await driver.demoTenantName() }).click();
  await page.getByRole('tab', { name: 'Payments' }).click();
  await expect.poll(() => page.getByRole('tab', { name: 'Payments', selected: true }).count()).toBe(1);
}

describe('payment configuration', () => {
  it('verifies the partner, saves checked provider keys masked, sets the tax, and pays a sandbox test payment', async () => {
    const page = await driver.openPage();
    await openPaymentsTab(page);

    // Step 1: a made-up key is refused; the key the platform issues is accepted.
    await page.getByLabel('Partner API key').fill('rpmp_not-the-key');
    await page.getByRole('button', { name: 'Verify partner' }).click();
    await expect.poll(() => page.getByText('Payment partner verification failed: wrong tenant id or API key').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Issue partner key' }).click();
    await expect.poll(() => page.getByLabel('Partner API key').inputValue()).toMatch(/^rpmp_/);
    await page.getByRole('button', { name: 'Verify partner' }).click();
    await expect.poll(() => page.getByText('Payment partner verified').first().isVisible()).toBe(true);
    await dismissToasts(page);

    // Step 2: VNPay keys, checked with VNPay before they are saved.
    await page.getByRole('radio', { name: /^VNPay/ }).check();
    await page.getByLabel('Terminal code (vnp_TmnCode)').fill(TERMINAL.tmnCode);
    await page.getByLabel('Hash secret (vnp_HashSecret)').fill('NOT-THE-SECRET');
    await page.getByLabel('Return page after payment').fill(`${server.baseUrl}/`);
    await page.getByRole('button', { name: 'Check and save keys' }).click();
    await expect.poll(() => page.getByText('Payment provider key invalid').isVisible()).toBe(true);
    await page.getByLabel('Hash secret (vnp_HashSecret)').fill(TERMINAL.hashSecret);
    await page.getByRole('button', { name: 'Check and save keys' }).click();
    await expect.poll(() => page.getByText('Payment method saved').first().isVisible()).toBe(true);
    await dismissToasts(page);
    expect(vnpay.queries.map((query) => query.vnp_Command)).toEqual(['querydr', 'querydr']);

    // Step 3: the tax rate; then everything is set.
    await page.getByRole('textbox', { name: 'Tax rate' }).fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('payments-done').textContent()).toContain('Payments are set up: VNPay, tax 10 %.');
    await dismissToasts(page);

    // Back to step 2: the saved secret is shown masked only, and the notification address VNPay calls.
    await page.getByRole('button', { name: /Provider keys/ }).click();
    await expect.poll(() => page.getByText('Saved: ****0042. Type it again to save this method.').isVisible()).toBe(true);
    expect(await page.getByLabel('Hash secret (vnp_HashSecret)').inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('payment-notification-url').textContent()).toMatch(/\/collector\/payments\/vnpay\/[A-Za-z0-9_-]{43}\/ipn$/);
    await screenshot(page, 'tenant-payments');

    // The sandbox needs no keys: a test payment opens its page, Pay completes it.
    await page.getByRole('radio', { name: /^Sandbox/ }).check();
    await page.getByRole('button', { name: 'Check and save keys' }).click();
    await expect.poll(() => page.getByTestId('payments-done').textContent()).toContain('Sandbox');
    await page.getByLabel('Amount').fill('25000');
    await page.getByRole('button', { name: 'Start a test payment' }).click();
    const link = page.getByRole('link', { name: 'Open the payment page' });
    await expect.poll(() => link.isVisible()).toBe(true);
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/\/collector\/payments\/sandbox\//);
    await page.goto(href.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await expect.poll(() => page.getByRole('heading', { name: 'Sandbox payment' }).isVisible()).toBe(true);
    expect(await page.locator('[data-field="amount"]').textContent()).toContain('25,000');
    // The payer is sent back to the return page with the outcome (the console then routes on).
    const returned = page.waitForRequest((request) => request.url().includes('status=SUCCESS'));
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(new URL((await returned).url()).searchParams.get('orderId')).toMatch(/^TEST-/);
  });
});
