import ExcelJS from 'exceljs';
import type { CdrFile, CheckoutResult, Order, PatientSubscriptionsView, PaymentMethodInformation, PaymentPartnerKey, Quote, ServicePackage } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { startFakeVnpay, type FakeVnpay } from '../../../test/fake-payments.js';
import { createTenant } from '../../../test/factories.js';
import { MINUTE, ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from '../alerts/test-support.js';
import { paymentEndpointsOf } from '../payments/directory.js';
import { dataOf, errorOf, staffSession, tenantSession } from '../tenants/test-support.js';
import { writeDailyCdr } from './cdr.js';
import { reconcileTenant } from './jobs.js';

const PUBLIC_URL = 'https://rpm.example.test';
const VNPAY = { tmnCode: 'RPMTEST1', hashSecret: 'VNPAYHASHSECRETFORTESTS0123456789' };

let testDb: TestDatabase;
let app: FastifyInstance;
let vnpay: FakeVnpay;
let org: AlertOrganisation;
let superAdmin: string;
let admin: string;
let operator: string;
let patient: string;
let basic: ServicePackage;
let addon: ServicePackage;
let gold: ServicePackage;
const clock = new ManualClock(new Date('2026-01-10T03:00:00Z'));

const codeOf = (response: { json: () => unknown }) => (response.json() as { code?: string }).code;

async function configure(body: Record<string, unknown>) {
  const tenantId = org.tenant.id;
  const saved = await app.inject({ method: 'POST', url: '/auth/sadmin/payment-config/verify-payment-method', payload: { tenantId, ...body }, ...withSession(superAdmin) });
  return dataOf<PaymentMethodInformation>(saved);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  vnpay = await startFakeVnpay(VNPAY);
  app = await createTestApp(
    testDb.database,
    {
      gateways: { publicUrl: PUBLIC_URL, twilioApiUrl: 'http://127.0.0.1:9', esmsApiUrl: 'http://127.0.0.1:9' },
      payments: { vnpayPaymentUrl: vnpay.paymentUrl, vnpayApiUrl: vnpay.apiUrl, stripeApiUrl: 'http://127.0.0.1:9' },
    },
    clock,
  );
  const platform = await createTenant(testDb.database);
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', platform.code)).token;
  org = await alertOrganisation(testDb, app);
  admin = org.adminToken;
  operator = await logInAs(app, org.tenant.code, org.operator);
  patient = await logInAs(app, org.tenant.code, org.patientUser);

  const create = async (body: Record<string, unknown>) => {
    const response = await call(app, admin, 'POST', '/account/packages', body);
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<ServicePackage>(response);
  };
  await create({ code: 'ZERO', kind: 'PACKAGE', name: 'Zero', plan: 'ZERO', level: 'STANDARD', priceMinor: 0, currency: 'VND', durationMonths: -1 });
  // Spec §9: Basic 6 months at 14,000 dong a month.
  basic = await create({ code: 'BASIC6', kind: 'PACKAGE', name: 'Basic 6 months', level: 'STANDARD', priceMinor: 84_000, currency: 'VND', durationMonths: 6, userFeatures: ['VIDEO_CONSULTATION'] });
  gold = await create({ code: 'GOLD12', kind: 'PACKAGE', name: 'Gold 12 months', plan: '12MCARE', level: 'GOLD', priceMinor: 240_000, currency: 'VND', durationMonths: 12, userFeatures: ['VIDEO_CONSULTATION'] });
  addon = await create({ code: 'PHOTO', kind: 'ADDON', name: 'Photo entry', priceMinor: 20_000, currency: 'VND', durationMonths: 6, userFeatures: ['PHOTO_ENTRY'] });

  // The tenant takes payments through the sandbox, with 10 % tax.
  const tenantId = org.tenant.id;
  const key = dataOf<PaymentPartnerKey>(await app.inject({ method: 'POST', url: '/auth/sadmin/payment-config/partner-key', payload: { tenantId }, ...withSession(superAdmin) }));
  await app.inject({ method: 'POST', url: '/auth/sadmin/payment-config/verify-partner-auth', payload: { tenantId, ...key }, ...withSession(superAdmin) });
  await configure({ method: 'SANDBOX', callbackUrl: 'https://shop.example.test/done' });
  await app.inject({ method: 'PUT', url: '/auth/sadmin/payment-config/tax', payload: { tenantId, rate: 1000 }, ...withSession(superAdmin) });
});
afterAll(async () => {
  await app.close();
  await vnpay.close();
  await testDb.drop();
});

const quote = (body: object) => call(app, patient, 'POST', '/health/me/checkout/quote', body);
const checkout = (body: object) => call(app, patient, 'POST', '/health/me/checkout', body);
const myOrder = async (code: string) => dataOf<Order>(await call(app, patient, 'GET', `/health/me/orders/${code}`));
const entitlements = async () => dataOf<PatientSubscriptionsView>(await call(app, patient, 'GET', '/health/me/subscription')).entitlements;

async function coupon(body: Record<string, unknown>) {
  const response = await call(app, admin, 'POST', '/account/coupons', { validFrom: '2026-01-01T00:00:00Z', validTo: '2026-12-31T00:00:00Z', maxUses: -1, ...body });
  expect(response.statusCode, response.body).toBe(200);
}

/** The payer on the sandbox's page: Pay or Decline. */
async function payOnSandbox(redirectUrl: string | null, decision: 'pay' | 'decline' = 'pay') {
  const path = new URL(redirectUrl ?? '').pathname;
  const answered = await app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `decision=${decision}` });
  expect(answered.statusCode).toBe(303);
  return answered.headers.location;
}

describe('checkout', () => {
  it('refuses carts the rules do not allow, each with its message', async () => {
    // Spec §6: paid packages only with a connected wearable.
    expect(errorOf(await quote({ packageIds: [basic.id] }))).toMatchObject({ status: 409, code: 'package.wearableRequired' });
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, gen_random_uuid(), 'V19', 'SN-ORD-1', 'AA:BB:CC:00:33:44', $2)`,
      [org.tenant.id, org.patientA.id],
    );
    // Spec §5: 10 digits with the 098 prefix.
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '0901000001' WHERE id = $1`, [org.patientUser.id]);
    expect(errorOf(await quote({ packageIds: [basic.id] }))).toMatchObject({ status: 400, code: 'payment.phoneNotSupported' });
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '+84 981 234 567' WHERE id = $1`, [org.patientUser.id]);

    const zero = dataOf<{ items: ServicePackage[] }>(await call(app, admin, 'GET', '/account/packages?search=zero')).items[0];
    for (const packageIds of [[basic.id, basic.id], [basic.id, gold.id], [zero?.id]]) expect(errorOf(await quote({ packageIds }))).toMatchObject({ status: 400, code: 'order.invalidCart' });
    expect(errorOf(await quote({ packageIds: [basic.id], couponCode: 'NOPE' }))).toMatchObject({ status: 400, code: 'coupon.invalid' });
    await coupon({ code: 'OLD', kind: 'PERCENT', value: 1000, validFrom: '2025-01-01T00:00:00Z', validTo: '2025-12-31T00:00:00Z' });
    await coupon({ code: 'DOLLARS', kind: 'AMOUNT', value: 500, currency: 'USD' });
    for (const couponCode of ['OLD', 'dollars']) expect(errorOf(await quote({ packageIds: [basic.id], couponCode }))).toMatchObject({ status: 400, code: 'coupon.invalid' });
    expect(codeOf(await call(app, admin, 'POST', '/account/coupons', { code: 'old', kind: 'PERCENT', value: 10, validFrom: '2026-01-01T00:00:00Z', validTo: '2026-02-01T00:00:00Z', maxUses: 1 }))).toBe('coupon.codeExists');
    expect((await call(app, operator, 'POST', '/account/coupons', { code: 'OPS', kind: 'PERCENT', value: 10, validFrom: '2026-01-01T00:00:00Z', validTo: '2026-02-01T00:00:00Z', maxUses: 1 })).statusCode).toBe(403);
  });

  it('prices a package and an add-on with a coupon and the tenant’s tax, to the dong', async () => {
    await coupon({ code: 'WELCOME15', kind: 'PERCENT', value: 1500 });
    const priced = dataOf<Quote>(await quote({ packageIds: [basic.id, addon.id], couponCode: ' welcome15 ' }));
    // 84,000 + 20,000 = 104,000; 15 % = 15,600; 10 % tax on 88,400 = 8,840.
    expect(priced).toMatchObject({ currency: 'VND', subtotalMinor: 104_000, discountMinor: 15_600, taxRate: 1000, taxMinor: 8_840, totalMinor: 97_240, couponCode: 'WELCOME15' });
    expect(priced.items.map((item) => [item.unitMinor, item.discountMinor, item.amountMinor])).toEqual([
      [84_000, 12_600, 71_400],
      [20_000, 3_000, 17_000],
    ]);
  });

  it('sends the payer to the provider, and the paid order starts its packages once', async () => {
    const started = await checkout({ packageIds: [basic.id, addon.id], couponCode: 'WELCOME15' });
    expect(started.statusCode, started.body).toBe(200);
    const { order, redirectUrl } = dataOf<CheckoutResult>(started);
    expect(order).toMatchObject({ status: 'PENDING', webStatus: 1, type: 'SERVICE_PACKAGE', method: 'SANDBOX', totalMinor: 97_240, customerPhone: '0981234567', customerName: 'Anh Nguyen', fulfilment: 'PENDING' });
    expect(order.code).toMatch(/^ORD260110[A-Z0-9]{10}$/);
    expect(redirectUrl?.startsWith(`${PUBLIC_URL}/collector/payments/sandbox/`)).toBe(true);
    expect((await entitlements()).package?.code).toBe('ZERO');

    const back = await payOnSandbox(redirectUrl);
    expect(back).toBe(`${PUBLIC_URL}/app/payment/result?orderId=${order.code}&status=SUCCESS`);
    const paid = await myOrder(order.code);
    expect(paid).toMatchObject({ status: 'SUCCESS', webStatus: 2, result: 'success', fulfilment: 'DONE', fulfilmentError: null });
    const now = await entitlements();
    expect(now.package?.code).toBe('BASIC6');
    expect(now.subscription?.receiptId).toBe(order.code);
    expect(now.addons.map((entry) => entry.package.code)).toEqual(['PHOTO']);
    expect(now.features).toEqual(expect.arrayContaining(['VIDEO_CONSULTATION', 'PHOTO_ENTRY']));

    // A replayed answer changes nothing: no second subscription, no second audit entry.
    await payOnSandbox(redirectUrl);
    const subscriptions = await asOwner<{ count: number }>(testDb.ownerUrl, `SELECT count(*)::int AS count FROM subscriptions WHERE tenant_id = $1 AND receipt_id = $2`, [org.tenant.id, order.code]);
    expect(subscriptions[0]?.count).toBe(2);
    const audit = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE tenant_id = $1 AND target_id = $2 AND action <> 'ORDERS_VIEWED' ORDER BY id`, [org.tenant.id, order.id]);
    expect(audit.map((row) => row.action)).toEqual(['ORDER_CREATED', 'ORDER_PAID']);
    const coupons = await asOwner<{ used_count: number }>(testDb.ownerUrl, `SELECT used_count FROM coupons WHERE tenant_id = $1 AND code = 'WELCOME15'`, [org.tenant.id]);
    expect(coupons[0]?.used_count).toBe(1);
    // The patient is told once.
    const notices = await asOwner<{ kind: string }>(testDb.ownerUrl, `SELECT kind FROM notifications WHERE recipient_id = $1 AND kind LIKE 'order.%'`, [org.patientUser.id]);
    expect(notices.map((notice) => notice.kind)).toEqual(['order.paid']);
  });

  it('fails a declined order and gives its coupon use back', async () => {
    await coupon({ code: 'ONCE', kind: 'AMOUNT', value: 4_000, currency: 'VND', maxUses: 1 });
    const { order, redirectUrl } = dataOf<CheckoutResult>(await checkout({ packageIds: [gold.id], couponCode: 'ONCE' }));
    expect(order).toMatchObject({ discountMinor: 4_000, taxMinor: 23_600, totalMinor: 259_600 });
    // Used up while this order waits.
    expect(errorOf(await quote({ packageIds: [gold.id], couponCode: 'ONCE' }))).toMatchObject({ code: 'coupon.invalid' });
    expect(await payOnSandbox(redirectUrl, 'decline')).toContain('status=FAILED');
    expect(await myOrder(order.code)).toMatchObject({ status: 'FAILED', webStatus: 0, result: 'notCompleted' });
    expect((await entitlements()).package?.code).toBe('BASIC6');
    expect(dataOf<Quote>(await quote({ packageIds: [gold.id], couponCode: 'ONCE' })).discountMinor).toBe(4_000);
  });

  it('settles an order a coupon pays in full at once, without a provider', async () => {
    await coupon({ code: 'FREEGOLD', kind: 'PERCENT', value: 10_000 });
    const { order, redirectUrl } = dataOf<CheckoutResult>(await checkout({ packageIds: [gold.id], couponCode: 'FREEGOLD' }));
    expect(redirectUrl).toBeNull();
    expect(order).toMatchObject({ type: 'COUPON', method: null, status: 'SUCCESS', totalMinor: 0, taxMinor: 0, fulfilment: 'DONE' });
    expect((await entitlements()).package?.code).toBe('GOLD12');
  });
});

describe('transaction control', () => {
  it('lists, filters and shows orders to staff who see the patient, and to nobody else', async () => {
    const all = dataOf<{ items: Order[]; total: number }>(await call(app, admin, 'GET', '/account/transactions?size=50'));
    expect(all.total).toBe(3);
    expect(all.items.map((order) => order.status)).toEqual(['SUCCESS', 'FAILED', 'SUCCESS']);
    const failed = dataOf<{ items: Order[] }>(await call(app, admin, 'GET', '/account/transactions?status=FAILED'));
    expect(failed.items.map((order) => order.packageName)).toEqual(['Gold 12 months']);
    const searched = dataOf<{ items: Order[] }>(await call(app, admin, 'GET', '/account/transactions?search=photo&sortField=total&sortType=asc'));
    expect(searched.items.map((order) => order.totalMinor)).toEqual([97_240]);
    expect(dataOf<{ total: number }>(await call(app, admin, 'GET', '/account/transactions?from=2026-01-11&to=2026-01-12')).total).toBe(0);
    const detail = dataOf<Order>(await call(app, admin, 'GET', `/account/transactions/${searched.items[0]?.id ?? ''}`));
    expect(detail.items.map((item) => item.productId)).toEqual(['BASIC6', 'PHOTO']);
    // Each read names the patient in the audit log.
    const reads = await asOwner<{ details: { patientIds: string[] } }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'ORDERS_VIEWED' AND target_id = $2`, [org.tenant.id, detail.id]);
    expect(reads.at(-1)?.details.patientIds).toEqual([org.patientA.id]);

    // Operators have no transaction rights; another tenant's admin finds nothing.
    expect((await call(app, operator, 'GET', '/account/transactions')).statusCode).toBe(403);
    const elsewhere = await tenantSession(app, testDb, await createTenant(testDb.database), 'ADMIN');
    expect(dataOf<{ total: number }>(await call(app, elsewhere.token, 'GET', '/account/transactions')).total).toBe(0);
    expect(errorOf(await call(app, elsewhere.token, 'GET', `/account/transactions/${detail.id}`))).toMatchObject({ status: 404, code: 'order.notFound' });
  });

  it('refunds a paid order once, and the package it paid for ends', async () => {
    const { items } = dataOf<{ items: Order[] }>(await call(app, admin, 'GET', '/account/transactions?type=SERVICE_PACKAGE&status=SUCCESS'));
    const paid = items[0];
    if (paid === undefined) throw new Error('no paid order');
    expect(errorOf(await call(app, admin, 'POST', `/account/transactions/${paid.id}/refund`, { reason: '' })).status).toBe(400);
    // The patient is on Gold now (a later order): refunding the Basic order leaves Gold alone.
    const refunded = dataOf<Order>(await call(app, admin, 'POST', `/account/transactions/${paid.id}/refund`, { reason: 'Bought by mistake' }));
    expect(refunded).toMatchObject({ status: 'REFUNDED', webStatus: 3, refundedMinor: 97_240, refundReason: 'Bought by mistake' });
    expect((await entitlements()).package?.code).toBe('GOLD12');
    const notices = await asOwner<{ kind: string }>(testDb.ownerUrl, `SELECT kind FROM notifications WHERE recipient_id = $1 AND kind = 'order.refunded'`, [org.patientUser.id]);
    expect(notices).toHaveLength(1);
    expect(errorOf(await call(app, admin, 'POST', `/account/transactions/${paid.id}/refund`, { reason: 'again' }))).toMatchObject({ status: 409, code: 'order.notRefundable' });
    const coupons = dataOf<{ items: Order[] }>(await call(app, admin, 'GET', '/account/transactions?type=COUPON'));
    expect(errorOf(await call(app, admin, 'POST', `/account/transactions/${coupons.items[0]?.id ?? ''}/refund`, { reason: 'free' }))).toMatchObject({ code: 'order.notRefundable' });
  });

  it('exports the chosen attributes to Excel, and refuses an export without attribute, method or date', async () => {
    const body = { attributes: ['code', 'total', 'status', 'responseMessage'], methods: ['SANDBOX'], from: '2026-01-10', to: '2026-01-10' };
    for (const refused of [{ ...body, attributes: [] }, { ...body, methods: [] }, { ...body, from: '' }, { ...body, from: '2026-01-11' }])
      expect((await call(app, admin, 'POST', '/account/transactions/export', refused)).statusCode).toBe(400);
    expect(errorOf(await call(app, admin, 'POST', '/account/transactions/export', { ...body, methods: ['VNPAY'] }))).toMatchObject({ code: 'export.noData' });

    const response = await app.inject({ method: 'POST', url: '/account/transactions/export', payload: body, headers: { 'accept-language': 'vi' }, ...withSession(admin) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('transactions-2026-01-10-2026-01-10.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const rows = (workbook.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((row) => (row as unknown[]).slice(1));
    expect(rows[0]).toEqual(['Mã đơn hàng', 'Tổng tiền', 'Trạng thái', 'Thông báo phản hồi']);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      ['97240', 'Đã hoàn tiền', 'Giao dịch thành công'],
      ['259600', 'Thất bại', 'Giao dịch chưa hoàn tất'],
    ]);
    expect((await call(app, operator, 'POST', '/account/transactions/export', body)).statusCode).toBe(403);
  });

  it('writes the CDR of each tenant day once, after midnight tenant time, for download', async () => {
    // 10 January ends at 17:00 UTC in Ho Chi Minh City.
    expect(await writeDailyCdr(testDb.database, org.tenant.id, new Date('2026-01-10T16:59:00Z'))).toBe(true);
    expect(await writeDailyCdr(testDb.database, org.tenant.id, new Date('2026-01-10T17:05:00Z'))).toBe(true);
    expect(await writeDailyCdr(testDb.database, org.tenant.id, new Date('2026-01-10T17:20:00Z'))).toBe(false);
    const files = dataOf<{ items: CdrFile[] }>(await call(app, admin, 'GET', '/account/transactions/cdr'));
    expect(files.items.map((file) => [file.day, file.rows])).toEqual([
      ['2026-01-10', 4],
      ['2026-01-09', 0],
    ]);
    const download = await call(app, admin, 'GET', `/account/transactions/cdr/${files.items[0]?.id ?? ''}`);
    expect(download.headers['content-type']).toContain('text/csv');
    const lines = download.body.trim().split('\r\n');
    expect(lines[0]).toBe('record_type,order_code,event_time,customer_phone,products,amount,currency,method,reference_id,web_status,status,result');
    // Every time is the same instant here (a manual clock): compare the rows as a set.
    const records = lines.slice(1).map((line) => line.split(',').filter((_, index) => [0, 5, 7, 9].includes(index)).join(' '));
    expect(records.sort()).toEqual(['ORDER 0 COUPON 2', 'ORDER 259600 SANDBOX 0', 'ORDER 97240 SANDBOX 2', 'REFUND -97240 SANDBOX 3']);
  });
});

describe('reconciliation', () => {
  it('asks the provider about open orders, times out the unpaid, and still takes a late payment', async () => {
    const saved = await configure({ method: 'VNPAY', accessKey: VNPAY.tmnCode, secretKey: VNPAY.hashSecret, callbackUrl: 'https://shop.example.test/done' });
    const settings = { secretsKey: app.config.secretsKey, endpoints: paymentEndpointsOf(app.config) };
    const context = { database: testDb.database, clock, log: pino({ level: 'silent' }), payments: settings };
    const opened = async () => {
      const result = dataOf<CheckoutResult>(await checkout({ packageIds: [basic.id] }));
      expect((await fetch(result.redirectUrl ?? '')).status).toBe(200);
      return result.order;
    };
    const paidQuietly = await opened();
    const unpaid = await opened();
    // The payer paid the first one, but VNPay's notice never arrived.
    const record = vnpay.payments.get(paidQuietly.code);
    if (record === undefined) throw new Error('payment page not opened');
    record.paidTransactionNo = '14999001';

    expect(await reconcileTenant(context, org.tenant.id)).toEqual({ settled: 0, timedOut: 0 });
    clock.advance(3 * MINUTE);
    expect(await reconcileTenant(context, org.tenant.id)).toEqual({ settled: 1, timedOut: 0 });
    expect(await myOrder(paidQuietly.code)).toMatchObject({ status: 'SUCCESS', referenceId: '14999001', fulfilment: 'DONE' });
    expect(await myOrder(unpaid.code)).toMatchObject({ status: 'PENDING' });

    clock.advance(13 * MINUTE);
    expect(await reconcileTenant(context, org.tenant.id)).toEqual({ settled: 0, timedOut: 1 });
    patient = await logInAs(app, org.tenant.code, org.patientUser);
    expect(await myOrder(unpaid.code)).toMatchObject({ status: 'TIMEOUT', webStatus: 0, result: 'paymentWaitExpired' });

    // The payer finished late: VNPay's IPN still pays the order.
    const ipnPath = new URL(saved.notificationUrl ?? '').pathname;
    expect((await app.inject({ url: `${ipnPath}?${new URLSearchParams(vnpay.ipnFor(unpaid.code, '00')).toString()}` })).json()).toMatchObject({ RspCode: '00' });
    expect(await myOrder(unpaid.code)).toMatchObject({ status: 'SUCCESS', webStatus: 2, result: 'success' });
  });
});
