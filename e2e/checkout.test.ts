import { describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Buying a package in the patient app: the health center takes payments through the sandbox
 * provider (10 % tax) and sells a paid package; the demo patient chooses it under My package,
 * applies a coupon, sees the figures the server computes, pays on the sandbox's page and comes back
 * to the result; the package is theirs and the payment is listed. A declined payment says so.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
const DEVICE_SERIAL = 'E2E-CHK-0001';

async function prepare() {
  const server = suite.server;
  const [patient] = await queryDatabase<{ tenant_id: string; id: string; user_id: string }>(
    server,
    `SELECT p.tenant_id, p.id, p.user_id FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
  );
  if (patient === undefined) throw new Error('no demo patient');
  // Spec §5: a 10-digit phone starting 098; §6: a bound wearable.
  await queryDatabase(server, `UPDATE users SET phone = '0981000001' WHERE id = $1`, [patient.user_id]);
  const devices = await queryDatabase(server, 'SELECT 1 FROM devices WHERE patient_id = $1', [patient.id]);
  if (devices.length === 0)
    await queryDatabase(
      server,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, gen_random_uuid(), 'V19', $2, 'E2:E0:00:00:00:09', $3)`,
      [patient.tenant_id, DEVICE_SERIAL, patient.id],
    );

  // The super admin sets the demo tenant's payments up: partner, the sandbox, 10 % tax.
  const superAdmin = await sessionCookie(server.baseUrl, 'super-admin@demo.example');
  const tenantId = patient.tenant_id;
  const config = '/auth/sadmin/payment-config';
  const key = await callWithCookie<{ partnerId: string; apiKey: string }>(
    server.baseUrl,
    superAdmin,
    'POST',
    `${config}/partner-key`,
    { tenantId },
  );
  await callWithCookie(server.baseUrl, superAdmin, 'POST', `${config}/verify-partner-auth`, {
    tenantId,
    ...key,
  });
  await callWithCookie(server.baseUrl, superAdmin, 'POST', `${config}/verify-payment-method`, {
    tenantId,
    method: 'SANDBOX',
    callbackUrl: `${server.baseUrl}/app/payment/result`,
  });
  await callWithCookie(server.baseUrl, superAdmin, 'PUT', `${config}/tax`, { tenantId, rate: 1000 });

  // The admin sells a free default (when the demo has none) and a paid package, and a coupon.
  const admin = await sessionCookie(server.baseUrl, 'admin@demo.example');
  const offer = await callWithCookie<{ items: { code: string; plan: string | null }[] }>(
    server.baseUrl,
    admin,
    'GET',
    '/account/packages?size=100',
  );
  if (!offer.items.some((item) => item.plan === 'ZERO'))
    // A retry finds what the first try made.
    if (!offer.items.some((item) => item.code === 'E2E_BASIC6'))
      await callWithCookie(server.baseUrl, admin, 'POST', '/account/packages', {
        code: 'E2E_ZERO',
        kind: 'PACKAGE',
        name: 'E2E Free',
        plan: 'ZERO',
        priceMinor: 0,
        currency: 'VND',
        durationMonths: -1,
      });
  // A retry finds what the first try made.
  if (!offer.items.some((item) => item.code === 'E2E_BASIC6'))
    await callWithCookie(server.baseUrl, admin, 'POST', '/account/packages', {
      code: 'E2E_BASIC6',
      kind: 'PACKAGE',
      name: 'E2E Basic 6 months',
      level: 'STANDARD',
      priceMinor: 84_000,
      currency: 'VND',
      durationMonths: 6,
      userFeatures: ['VIDEO_CONSULTATION', 'PHOTO_ENTRY'],
    });
  const coupons = await callWithCookie<{ total: number }>(
    server.baseUrl,
    admin,
    'GET',
    '/account/coupons?search=E2E10',
  );
  if (coupons.total === 0)
    await callWithCookie(server.baseUrl, admin, 'POST', '/account/coupons', {
      code: 'E2E10',
      kind: 'PERCENT',
      value: 1000,
      validFrom: '2020-01-01T00:00:00Z',
      validTo: '2099-01-01T00:00:00Z',
      maxUses: -1,
    });
}

describe('checkout', () => {
  it('a patient buys a package with a coupon through the sandbox, sees the result, and a declined payment says so', async () => {
    await prepare();
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    await page.goto(`${suite.server.baseUrl}/app/subscription`);
    const offered = page.getByTestId('package-offer').filter({ hasText: 'E2E Basic 6 months' });
    await offered.getByRole('link', { name: 'Buy E2E Basic 6 months' }).click();
    await page.waitForURL('**/app/subscription/checkout?package=*');

    // A wrong coupon is refused beside the field; the right one is taken off the price.
    const coupon = page.getByRole('textbox', { name: 'Coupon code' });
    await coupon.fill('NOPE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByText('This coupon is not valid').isVisible()).toBe(true);
    await coupon.fill('e2e10');
    await page.getByRole('button', { name: 'Apply' }).click();
    // 84,000 − 10 % = 75,600; 10 % tax = 7,560; total 83,160 dong.
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toMatch(/83[.,]160/);
    await expect.poll(() => page.getByTestId('checkout-quote').textContent()).toContain('Coupon E2E10');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'app-checkout');

    // The sandbox's page, then back to the app's result.
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL('**/collector/payments/sandbox/*');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL('**/app/payment/result?orderId=*');
    await expect
      .poll(() => page.getByTestId('payment-outcome').textContent(), { timeout: 15_000 })
      .toBe('Payment received: E2E Basic 6 months has started.');
    await screenshot(page, 'app-payment-result');
    const code = (await page.getByTestId('payment-order-code').textContent()) ?? '';
    expect(code).toMatch(/^ORD\d{6}[A-Z0-9]{10}$/);

    await page.getByRole('link', { name: 'Back to my package' }).click();
    await page.waitForURL('**/app/subscription');
    await expect.poll(() => page.getByTestId('my-package-name').textContent()).toBe('E2E Basic 6 months');
    const payments = page.getByTestId('my-order');
    await expect.poll(() => payments.count()).toBe(1);
    expect(await payments.first().textContent()).toContain(code);
    expect(await payments.first().textContent()).toContain('Paid');

    // Buying it again (extends it) and declining on the provider's page: the result says why.
    await offered.getByRole('link', { name: 'Buy E2E Basic 6 months' }).click();
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toMatch(/92[.,]400/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL('**/collector/payments/sandbox/*');
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL('**/app/payment/result?orderId=*');
    await expect
      .poll(() => page.getByTestId('payment-outcome').textContent())
      .toBe('Payment failed — Payment not completed');
    await screenshot(page, 'app-payment-declined');
  });
});
