import type { PartnerVerifyStatus, PaymentMethodInformation, PaymentPartnerKey, PaymentTestResult } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { startFakeStripe, startFakeVnpay, type FakeStripe, type FakeVnpay } from '../../../test/fake-payments.js';
import { createTenant } from '../../../test/factories.js';
import { dataOf, errorOf, staffSession, tenantSession } from '../tenants/test-support.js';
import { openSandboxToken } from './providers/sandbox.js';

const PUBLIC_URL = 'https://rpm.example.test';
const VNPAY = { tmnCode: 'RPMTEST1', hashSecret: 'VNPAYHASHSECRETFORTESTS0123456789' };
const STRIPE = { accountId: 'acct_1RpmTestAccount', secretKey: 'sk_test_51RpmSecretKeyForTests', webhookSecret: 'whsec_RpmWebhookSecretForTests', publishableKey: 'pk_test_51RpmPublishableKey' };
const RETURN_URL = 'https://shop.example.test/payments/done';

let testDb: TestDatabase;
let app: FastifyInstance;
let vnpay: FakeVnpay;
let stripe: FakeStripe;
let superAdmin: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  vnpay = await startFakeVnpay(VNPAY);
  stripe = await startFakeStripe(STRIPE);
  app = await createTestApp(testDb.database, {
    gateways: { publicUrl: PUBLIC_URL, twilioApiUrl: 'http://127.0.0.1:9', esmsApiUrl: 'http://127.0.0.1:9' },
    payments: { vnpayPaymentUrl: vnpay.paymentUrl, vnpayApiUrl: vnpay.apiUrl, stripeApiUrl: stripe.url },
  });
  const platform = await createTenant(testDb.database);
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', platform.code)).token;
});
afterAll(async () => {
  await app.close();
  await vnpay.close();
  await stripe.close();
  await testDb.drop();
});

const CONFIG = '/auth/sadmin/payment-config';
const post = (path: string, payload: object, token = superAdmin) => app.inject({ method: 'POST', url: `${CONFIG}/${path}`, payload, ...withSession(token) });
const get = (path: string, tenantId: string, token = superAdmin) => app.inject({ url: `${CONFIG}/${path}?tenantId=${tenantId}`, ...withSession(token) });

async function partnerKeyOf(tenantId: string): Promise<PaymentPartnerKey> {
  return dataOf<PaymentPartnerKey>(await post('partner-key', { tenantId }));
}

async function verifiedTenant() {
  const tenant = await createTenant(testDb.database);
  const key = await partnerKeyOf(tenant.id);
  expect(dataOf<PartnerVerifyStatus>(await post('verify-partner-auth', { tenantId: tenant.id, ...key })).status).toBe('VERIFIED');
  return tenant;
}

const attemptOf = async (tenantId: string, orderId: string) =>
  (await asOwner<{ status: string; result: string | null; provider_code: string | null; provider_reference: string | null; amount_minor: number }>(
    testDb.ownerUrl,
    'SELECT status, result, provider_code, provider_reference, amount_minor FROM payment_attempts WHERE tenant_id = $1 AND order_id = $2',
    [tenantId, orderId],
  ))[0];
const callbacksOf = (tenantId: string) => asOwner<{ outcome: string; event_key: string }>(testDb.ownerUrl, 'SELECT outcome, event_key FROM payment_callbacks WHERE tenant_id = $1 ORDER BY received_at', [tenantId]);

describe('payment configuration wizard', () => {
  it('goes partner, then method, then tax; refuses steps out of order, a wrong partner id or key, and keys the provider refuses', async () => {
    const tenant = await createTenant(testDb.database);
    const methodBody = { tenantId: tenant.id, method: 'VNPAY', accessKey: VNPAY.tmnCode, secretKey: VNPAY.hashSecret, callbackUrl: RETURN_URL };
    expect(errorOf(await post('verify-payment-method', methodBody))).toMatchObject({ status: 409, code: 'payment.methodNotFinalized' });
    expect(errorOf(await app.inject({ method: 'PUT', url: `${CONFIG}/tax`, payload: { tenantId: tenant.id, rate: 1000 }, ...withSession(superAdmin) }))).toMatchObject({ status: 409, code: 'payment.methodNotFinalized' });
    expect(dataOf<PaymentMethodInformation>(await get('payment-method-information', tenant.id))).toMatchObject({ step: 'PARTNER', method: null, partner: { status: 'NOT_VERIFIED' } });

    const key = await partnerKeyOf(tenant.id);
    expect(key.partnerId).toBe(tenant.id);
    const other = await createTenant(testDb.database);
    expect(errorOf(await post('verify-partner-auth', { tenantId: tenant.id, partnerId: other.id, apiKey: key.apiKey }))).toMatchObject({ status: 400, code: 'payment.partnerVerifyFailed' });
    expect(errorOf(await post('verify-partner-auth', { tenantId: tenant.id, partnerId: tenant.id, apiKey: (await partnerKeyOf(other.id)).apiKey }))).toMatchObject({ status: 400, code: 'payment.partnerVerifyFailed' });
    expect(dataOf<PartnerVerifyStatus>(await get('partner-verify-status', tenant.id)).status).toBe('NOT_VERIFIED');
    const verified = dataOf<PartnerVerifyStatus>(await post('verify-partner-auth', { tenantId: tenant.id, ...key }));
    expect(verified).toMatchObject({ status: 'VERIFIED', partnerId: tenant.id });
    expect(dataOf<PartnerVerifyStatus>(await get('partner-verify-status', tenant.id))).toEqual(verified);

    // Keys VNPay refuses (wrong secret: checksum 97; unknown terminal: 02) are not stored.
    expect(errorOf(await post('verify-payment-method', { ...methodBody, secretKey: 'NOT-THE-SECRET' }))).toMatchObject({ status: 400, code: 'payment.providerKeyInvalid' });
    expect(errorOf(await post('verify-payment-method', { ...methodBody, accessKey: 'OTHER001' }))).toMatchObject({ status: 400, code: 'payment.providerKeyInvalid' });
    expect(errorOf(await post('verify-payment-method', { ...methodBody, accessKey: 'short' }))).toMatchObject({ status: 400 });
    expect(dataOf<PaymentMethodInformation>(await get('payment-method-information', tenant.id)).method).toBeNull();

    const saved = dataOf<PaymentMethodInformation>(await post('verify-payment-method', methodBody));
    expect(saved).toMatchObject({ step: 'TAX', method: 'VNPAY', accessKey: VNPAY.tmnCode, secretKey: '****6789', shareKey: null, callbackUrl: RETURN_URL });
    expect(saved.notificationUrl).toMatch(new RegExp(`^${PUBLIC_URL}/collector/payments/vnpay/[A-Za-z0-9_-]{43}/ipn$`));
    expect(JSON.stringify(saved)).not.toContain(VNPAY.hashSecret);

    expect(errorOf(await app.inject({ method: 'PUT', url: `${CONFIG}/tax`, payload: { tenantId: tenant.id, rate: 10_001 }, ...withSession(superAdmin) })).status).toBe(400);
    const taxed = dataOf<PaymentMethodInformation>(await app.inject({ method: 'PUT', url: `${CONFIG}/tax`, payload: { tenantId: tenant.id, rate: 1000 }, ...withSession(superAdmin) }));
    expect(taxed).toMatchObject({ step: 'DONE', taxRate: 1000, secretKey: '****6789' });

    const [stored] = await asOwner<{ credentials_ciphertext: string }>(testDb.ownerUrl, 'SELECT credentials_ciphertext FROM tenant_payment_configs WHERE tenant_id = $1', [tenant.id]);
    expect(stored?.credentials_ciphertext).toMatch(/^v1\./);
    expect(stored?.credentials_ciphertext).not.toContain(VNPAY.hashSecret);
    const audit = await asOwner<{ action: string; details: Record<string, unknown> }>(testDb.ownerUrl, `SELECT action, details FROM audit_log WHERE tenant_id = $1 AND action LIKE 'TENANT_PAYMENT_%' ORDER BY occurred_at`, [tenant.id]);
    expect(audit.map((row) => row.action)).toEqual([
      'TENANT_PAYMENT_PARTNER_KEY_ISSUED',
      'TENANT_PAYMENT_PARTNER_VERIFIED',
      'TENANT_PAYMENT_METHOD_UPDATED',
      'TENANT_PAYMENT_TAX_UPDATED',
    ]);
    expect(JSON.stringify(audit)).not.toContain(VNPAY.hashSecret);
    expect(JSON.stringify(audit)).not.toContain(key.apiKey);
  });

  it('is refused to tenant staff, to system admins of other tenants, and for the platform; partner keys are super admins’ only', async () => {
    const tenant = await createTenant(testDb.database);
    const admin = await tenantSession(app, testDb, tenant, 'ADMIN');
    expect(errorOf(await get('payment-method-information', tenant.id, admin.token))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    const elsewhere = await createTenant(testDb.database);
    const systemAdmin = (await staffSession(app, testDb, 'SYSTEM_ADMIN', elsewhere.code, [elsewhere.id])).token;
    expect(errorOf(await get('payment-method-information', tenant.id, systemAdmin)).status).toBe(404);
    expect(errorOf(await post('verify-partner-auth', { tenantId: tenant.id, ...(await partnerKeyOf(tenant.id)) }, systemAdmin)).status).toBe(404);
    expect(errorOf(await post('partner-key', { tenantId: elsewhere.id }, systemAdmin))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    // Their own tenant, taken from the session when no tenantId is given.
    const own = dataOf<PaymentMethodInformation>(await app.inject({ url: `${CONFIG}/payment-method-information`, ...withSession(systemAdmin) }));
    expect(own).toMatchObject({ tenantId: elsewhere.id, step: 'PARTNER' });
    const rows = await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenant_payment_configs WHERE tenant_id = $1', [tenant.id]);
    expect(rows).toEqual([]);
  });
});

describe('VNPay', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = (await verifiedTenant()).id;
    dataOf(await post('verify-payment-method', { tenantId, method: 'VNPAY', accessKey: VNPAY.tmnCode, secretKey: VNPAY.hashSecret, callbackUrl: RETURN_URL }));
  });

  async function startPayment(amountMinor = 150_000) {
    const started = dataOf<PaymentTestResult>(await post('test-payment', { tenantId, amountMinor, currency: 'VND' }));
    const url = new URL(started.redirectUrl);
    return { ...started, url, page: await fetch(started.redirectUrl) };
  }
  const ipnPath = async () => new URL(dataOf<PaymentMethodInformation>(await get('payment-method-information', tenantId)).notificationUrl ?? '').pathname;
  const sendIpn = async (query: Record<string, string>) => app.inject({ url: `${await ipnPath()}?${new URLSearchParams(query).toString()}` });

  it('builds a signed payment URL VNPay accepts, with the amount × 100, VND, GMT+7 dates and our return address', async () => {
    const { url, page, orderId } = await startPayment(150_000);
    expect(page.status).toBe(200);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ vnp_Version: '2.1.0', vnp_Command: 'pay', vnp_TmnCode: VNPAY.tmnCode, vnp_Amount: '15000000', vnp_CurrCode: 'VND', vnp_TxnRef: orderId, vnp_OrderType: 'other' });
    expect(params.vnp_CreateDate).toMatch(/^\d{14}$/);
    expect(Number(params.vnp_ExpireDate) > Number(params.vnp_CreateDate)).toBe(true);
    expect(params.vnp_ReturnUrl).toMatch(new RegExp(`^${PUBLIC_URL}/collector/payments/vnpay/[A-Za-z0-9_-]{43}/return$`));
    expect(vnpay.payments.has(orderId)).toBe(true);
    expect(await attemptOf(tenantId, orderId)).toMatchObject({ status: 'PENDING', amount_minor: 150000 });
    // Dollars are not VNPay's.
    expect(errorOf(await post('test-payment', { tenantId, amountMinor: 999, currency: 'USD' }))).toMatchObject({ status: 400, code: 'payment.currencyUnsupported' });
  });

  it('accepts a valid IPN once: a replay changes nothing, a forged hash is refused with 97, a wrong amount with 04, an unknown order with 01', async () => {
    const { orderId } = await startPayment(200_000);
    const forged = vnpay.ipnFor(orderId, '00');
    expect((await sendIpn({ ...forged, vnp_Amount: '100' })).json()).toEqual({ RspCode: '97', Message: 'Invalid signature' });
    expect((await sendIpn({ ...forged, vnp_SecureHash: '0'.repeat(128) })).json()).toMatchObject({ RspCode: '97' });
    expect((await attemptOf(tenantId, orderId))?.status).toBe('PENDING');

    expect((await sendIpn(vnpay.ipnFor(orderId, '00', { vnp_Amount: '100' }))).json()).toEqual({ RspCode: '04', Message: 'Invalid amount' });
    expect((await sendIpn(vnpay.ipnFor(orderId, '00', { vnp_TxnRef: 'NO-SUCH-ORDER' }))).json()).toEqual({ RspCode: '01', Message: 'Order not found' });
    expect((await attemptOf(tenantId, orderId))?.status).toBe('PENDING');

    const paid = vnpay.ipnFor(orderId, '00');
    expect((await sendIpn(paid)).json()).toEqual({ RspCode: '00', Message: 'Confirm Success' });
    expect(await attemptOf(tenantId, orderId)).toMatchObject({ status: 'SUCCESS', result: 'success', provider_code: '00', provider_reference: paid.vnp_TransactionNo });
    const before = await callbacksOf(tenantId);
    expect((await sendIpn(paid)).json()).toEqual({ RspCode: '02', Message: 'Order already confirmed' });
    expect(await callbacksOf(tenantId)).toEqual(before);
    // A later failure for the same order does not undo the payment.
    expect((await sendIpn(vnpay.ipnFor(orderId, '24'))).json()).toMatchObject({ RspCode: '02' });
    expect((await attemptOf(tenantId, orderId))?.status).toBe('SUCCESS');

    // The payer's return is verified the same way and sent on to the tenant's page.
    const returned = await app.inject({ url: `${(await ipnPath()).replace(/ipn$/, 'return')}?${new URLSearchParams(paid).toString()}` });
    expect(returned.statusCode).toBe(303);
    expect(returned.headers.location).toBe(`${RETURN_URL}?orderId=${orderId}&status=SUCCESS`);
    const forgedReturn = await app.inject({ url: `${(await ipnPath()).replace(/ipn$/, 'return')}?${new URLSearchParams({ ...paid, vnp_ResponseCode: '24' }).toString()}` });
    expect(errorOf(forgedReturn)).toMatchObject({ status: 403, code: 'payment.signatureInvalid' });
  });

  it('records a refused payment with the spec result of its response code', async () => {
    const { orderId } = await startPayment(50_000);
    expect((await sendIpn(vnpay.ipnFor(orderId, '51'))).json()).toMatchObject({ RspCode: '00' });
    expect(await attemptOf(tenantId, orderId)).toMatchObject({ status: 'FAILED', result: 'insufficientBalance', provider_code: '51' });
  });

  it('refuses an IPN at an address that names no VNPay tenant', async () => {
    const { orderId } = await startPayment();
    const response = await app.inject({ url: `/collector/payments/vnpay/${'A'.repeat(43)}/ipn?${new URLSearchParams(vnpay.ipnFor(orderId)).toString()}` });
    expect(response.json()).toMatchObject({ RspCode: '01' });
  });
});

describe('Stripe', () => {
  let tenantId: string;
  let webhookPath: string;
  beforeAll(async () => {
    tenantId = (await verifiedTenant()).id;
    const body = { tenantId, method: 'STRIPE', accessKey: STRIPE.accountId, secretKey: STRIPE.secretKey, shareKey: STRIPE.webhookSecret, publishableKey: STRIPE.publishableKey, callbackUrl: RETURN_URL };
    expect(errorOf(await post('verify-payment-method', { ...body, secretKey: 'sk_test_NotTheKey' }))).toMatchObject({ status: 400, code: 'payment.providerKeyInvalid' });
    expect(errorOf(await post('verify-payment-method', { ...body, accessKey: 'acct_SomebodyElse' }))).toMatchObject({ status: 400, code: 'payment.providerKeyInvalid' });
    expect(errorOf(await post('verify-payment-method', { ...body, publishableKey: 'pk_live_Mixed' })).status).toBe(400);
    const saved = dataOf<PaymentMethodInformation>(await post('verify-payment-method', body));
    expect(saved).toMatchObject({ method: 'STRIPE', accessKey: STRIPE.accountId, secretKey: '****ests', shareKey: '****ests', publishableKey: STRIPE.publishableKey });
    webhookPath = new URL(saved.notificationUrl ?? '').pathname;
    expect(webhookPath).toMatch(/^\/collector\/payments\/stripe\/[A-Za-z0-9_-]{43}\/webhook$/);
  });

  const deliver = (event: { body: string; signature: string }) =>
    app.inject({ method: 'POST', url: webhookPath, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.body });

  it('opens a Checkout Session for the amount in minor units, and takes a signed checkout.session.completed once', async () => {
    const started = dataOf<PaymentTestResult>(await post('test-payment', { tenantId, amountMinor: 1999, currency: 'USD' }));
    const session = [...stripe.sessions.values()].find((candidate) => candidate.client_reference_id === started.orderId);
    expect(session).toMatchObject({ amount_total: 1999, currency: 'usd', mode: 'payment', success_url: RETURN_URL, metadata: { orderId: started.orderId } });
    expect(started.redirectUrl).toBe(session?.url);
    expect(stripe.requests.find((request) => request.path === '/v1/checkout/sessions')?.idempotencyKey).toBe(`checkout-${started.orderId}`);
    expect((await attemptOf(tenantId, started.orderId))?.provider_reference).toBe(session?.id);

    const completed = { ...session, payment_status: 'paid', status: 'complete', payment_intent: 'pi_test_000000000001' };
    const forged = stripe.signedEvent('checkout.session.completed', completed, 'whsec_NotTheSecret');
    expect(errorOf(await deliver(forged))).toMatchObject({ status: 403, code: 'payment.signatureInvalid' });
    // Signed with the right secret ten minutes ago: a replay from outside Stripe's 5-minute tolerance.
    const stale = stripe.signedEvent('checkout.session.completed', completed, STRIPE.webhookSecret, new Date(Date.now() - 10 * 60_000));
    expect(errorOf(await deliver(stale))).toMatchObject({ status: 403, code: 'payment.signatureInvalid' });
    const tampered = stripe.signedEvent('checkout.session.completed', completed, STRIPE.webhookSecret);
    expect((await deliver({ body: tampered.body.replace('1999', '1'), signature: tampered.signature })).statusCode).toBe(403);
    expect((await attemptOf(tenantId, started.orderId))?.status).toBe('PENDING');

    expect(dataOf<{ recorded: boolean }>(await deliver(tampered))).toEqual({ recorded: true });
    expect(await attemptOf(tenantId, started.orderId)).toMatchObject({ status: 'SUCCESS', result: 'success', provider_reference: 'pi_test_000000000001' });
    const before = await callbacksOf(tenantId);
    expect(dataOf<{ recorded: boolean }>(await deliver(tampered))).toEqual({ recorded: false });
    expect(await callbacksOf(tenantId)).toEqual(before);

    // A full refund of the charge moves the payment to REFUNDED.
    const refunded = stripe.signedEvent('charge.refunded', { id: 'ch_test_1', object: 'charge', amount: 1999, amount_refunded: 1999, payment_intent: 'pi_test_000000000001', metadata: {} }, STRIPE.webhookSecret);
    expect(dataOf<{ recorded: boolean }>(await deliver(refunded))).toEqual({ recorded: true });
    expect((await attemptOf(tenantId, started.orderId))?.status).toBe('REFUNDED');
  });

  it('fails an expired session and ignores event types it does not use', async () => {
    const started = dataOf<PaymentTestResult>(await post('test-payment', { tenantId, amountMinor: 50_000, currency: 'VND' }));
    const session = [...stripe.sessions.values()].find((candidate) => candidate.client_reference_id === started.orderId);
    expect(session).toMatchObject({ amount_total: 50_000, currency: 'vnd' });
    expect(dataOf<{ recorded: boolean }>(await deliver(stripe.signedEvent('customer.created', { id: 'cus_1', object: 'customer' }, STRIPE.webhookSecret)))).toEqual({ recorded: false });
    expect(dataOf<{ recorded: boolean }>(await deliver(stripe.signedEvent('checkout.session.expired', { ...session, status: 'expired' }, STRIPE.webhookSecret)))).toEqual({ recorded: true });
    expect(await attemptOf(tenantId, started.orderId)).toMatchObject({ status: 'FAILED', result: 'paymentWaitExpired' });
  });
});

describe('sandbox', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = (await verifiedTenant()).id;
    const saved = dataOf<PaymentMethodInformation>(await post('verify-payment-method', { tenantId, method: 'SANDBOX', callbackUrl: RETURN_URL }));
    expect(saved).toMatchObject({ method: 'SANDBOX', accessKey: null, secretKey: null, notificationUrl: null });
  });

  it('serves a payment page for a signed token, completes it once, and refuses a forged token', async () => {
    const started = dataOf<PaymentTestResult>(await post('test-payment', { tenantId, amountMinor: 1250, currency: 'CAD' }));
    const path = new URL(started.redirectUrl).pathname;
    expect(started.redirectUrl.startsWith(`${PUBLIC_URL}/collector/payments/sandbox/`)).toBe(true);
    const page = await app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(started.orderId);
    expect(page.body).toContain('CA$12.50');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://shop.example.test");
    expect(page.headers['referrer-policy']).toBe('same-origin');

    const token = path.split('/').at(-1) ?? '';
    const opened = openSandboxToken(Buffer.from('5d'.repeat(32), 'hex'), token, new Date());
    expect(opened).toMatchObject({ tenantId, orderId: started.orderId, amountMinor: 1250, currency: 'CAD' });
    // The same order for 1 cent, signed with another key: refused, nothing recorded.
    const [payload = '', mac = ''] = token.split('.');
    const altered = `${Buffer.from(JSON.stringify([tenantId, started.orderId, 1, 'CAD', opened?.expiresAt])).toString('base64url')}.${mac}`;
    const forged = await app.inject({ method: 'POST', url: `/collector/payments/sandbox/${altered}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=pay' });
    expect(errorOf(forged)).toMatchObject({ status: 403, code: 'payment.signatureInvalid' });
    expect((await app.inject({ url: `/collector/payments/sandbox/${payload}.${'A'.repeat(43)}` })).statusCode).toBe(403);
    expect((await attemptOf(tenantId, started.orderId))?.status).toBe('PENDING');

    const paid = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=pay' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${RETURN_URL}?orderId=${started.orderId}&status=SUCCESS`);
    const declinedLater = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'decision=decline' });
    expect(declinedLater.headers.location).toBe(`${RETURN_URL}?orderId=${started.orderId}&status=SUCCESS`);
    expect(await attemptOf(tenantId, started.orderId)).toMatchObject({ status: 'SUCCESS', result: 'success' });
    expect((await callbacksOf(tenantId)).map((row) => row.outcome)).toEqual(['APPLIED', 'IGNORED']);
    expect((await app.inject({ url: path })).body).not.toContain('<form');
  });
});
