import { describe, expect, it } from 'vitest';
import { createVnpayProvider, pipeSigned, vnpayDate, vnpayOrderInfo, vnpayResultOf, vnpaySignature, vnpaySignedData } from './vnpay.js';
import { PaymentSignatureError } from './provider.js';

/**
 * A return query published with a maintained VNPay client's tests (lehuygiang28/vnpay,
 * test/__helpers__/test-fixtures.ts): hash secret `test_secret`, and the vnp_SecureHash VNPay's
 * scheme gives it. The same value comes out of Python's hmac over urllib's quote_plus encoding.
 */
const PUBLISHED = {
  secret: 'test_secret',
  params: {
    vnp_Amount: '1000000',
    vnp_BankCode: 'NCB',
    vnp_BankTranNo: 'VNP14422574',
    vnp_CardType: 'ATM',
    vnp_OrderInfo: 'Thanh toan don hang 2024-05-21T02:17:31.249Z',
    vnp_PayDate: '20240521091806',
    vnp_ResponseCode: '00',
    vnp_TmnCode: 'TEST_TMN_CODE',
    vnp_TransactionNo: '14422574',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: '1716257871703',
  },
  hash: '649982421beb422556a1374713c74e58e716ecbd05007c0c0e1f7effdfaf361dbf146889ca446139afe11b9954c4d5c486e99e3b86fcfab6957f29eb0be72895',
};

describe('VNPay signature', () => {
  it('matches the published vector: sorted, form-encoded (space as +, : as %3A), HMAC-SHA512', () => {
    expect(vnpaySignedData(PUBLISHED.params)).toContain('vnp_OrderInfo=Thanh+toan+don+hang+2024-05-21T02%3A17%3A31.249Z&vnp_PayDate');
    expect(vnpaySignature(PUBLISHED.secret, PUBLISHED.params)).toBe(PUBLISHED.hash);
    // The hash itself, its type and empty values are left out; the order given does not matter.
    const shuffled = Object.fromEntries(Object.entries({ ...PUBLISHED.params, vnp_SecureHash: PUBLISHED.hash, vnp_SecureHashType: 'HmacSHA512', vnp_BankCode: 'NCB', vnp_Empty: '' }).reverse());
    expect(vnpaySignature(PUBLISHED.secret, shuffled)).toBe(PUBLISHED.hash);
  });

  it('verifies the published return and refuses it altered or under another secret', () => {
    const provider = createVnpayProvider({ tmnCode: 'TEST_TMN_CODE', hashSecret: PUBLISHED.secret }, { paymentUrl: 'https://vnpay.test/pay', apiUrl: 'https://vnpay.test/api' });
    const query = { ...PUBLISHED.params, vnp_SecureHash: PUBLISHED.hash };
    const verdict = provider.verifyCallback({ kind: 'RETURN', query, headers: {}, rawBody: '' });
    expect(verdict).toMatchObject({ orderId: '1716257871703', status: 'SUCCESS', result: 'success', amountMinor: 10_000, providerReference: '14422574' });
    expect(() => provider.verifyCallback({ kind: 'RETURN', query: { ...query, vnp_Amount: '100' }, headers: {}, rawBody: '' })).toThrow(PaymentSignatureError);
    expect(() => provider.verifyCallback({ kind: 'RETURN', query: { ...query, vnp_SecureHash: undefined as unknown as string }, headers: {}, rawBody: '' })).toThrow(PaymentSignatureError);
    const other = createVnpayProvider({ tmnCode: 'TEST_TMN_CODE', hashSecret: 'another' }, { paymentUrl: 'https://vnpay.test/pay', apiUrl: 'https://vnpay.test/api' });
    expect(() => other.verifyCallback({ kind: 'RETURN', query, headers: {}, rawBody: '' })).toThrow(PaymentSignatureError);
  });

  it('builds a payment URL whose signature covers every parameter it carries', async () => {
    const provider = createVnpayProvider({ tmnCode: 'RPMTEST1', hashSecret: 'secret' }, { paymentUrl: 'https://vnpay.test/paymentv2/vpcpay.html', apiUrl: 'https://vnpay.test/api' });
    const { redirectUrl } = await provider.createPayment({
      orderId: 'ORDER-1',
      amountMinor: 14_000,
      currency: 'VND',
      description: 'Gói Cơ bản 6 tháng: đăng ký!',
      returnUrl: 'https://rpm.test/collector/payments/vnpay/key/return',
      ipAddress: '203.0.113.5',
      locale: 'vi',
      createdAt: new Date('2024-05-21T02:17:31Z'),
    });
    const url = new URL(redirectUrl);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ vnp_Amount: '1400000', vnp_CreateDate: '20240521091731', vnp_ExpireDate: '20240521093231', vnp_Locale: 'vn', vnp_OrderInfo: 'Goi Co ban 6 thang dang ky' });
    expect(params.vnp_SecureHash).toBe(vnpaySignature('secret', params));
  });

  it('signs querydr fields joined with |, empty for missing ones', () => {
    expect(pipeSigned('s', ['a', 'b', 'c'], { a: '1', c: 3 })).toBe(pipeSigned('s', ['x'], { x: '1||3' }));
  });
});

describe('VNPay dates and texts', () => {
  it('writes dates in GMT+7 whatever the server’s zone', () => {
    expect(vnpayDate(new Date('2024-12-31T17:00:00Z'))).toBe('20250101000000');
  });
  it('keeps order info to letters, digits and a few safe signs', () => {
    expect(vnpayOrderInfo('Thanh toán đơn #12 (gói Vàng)')).toBe('Thanh toan don 12 goi Vang');
    expect(vnpayOrderInfo('***')).toBe('Payment');
  });
});

describe('VNPay response codes', () => {
  it.each([
    ['00', 'success', 'SUCCESS'],
    ['07', 'suspectedFraud', 'PENDING'],
    ['09', 'notRegisteredInternetBanking', 'FAILED'],
    ['10', 'cardVerificationFailed', 'FAILED'],
    ['11', 'paymentWaitExpired', 'FAILED'],
    ['12', 'cardLocked', 'FAILED'],
    ['13', 'wrongOtp', 'FAILED'],
    ['24', 'notCompleted', 'FAILED'],
    ['51', 'insufficientBalance', 'FAILED'],
    ['65', 'dailyLimitExceeded', 'FAILED'],
    ['75', 'bankMaintenance', 'FAILED'],
    ['79', 'wrongPasswordTooManyTimes', 'FAILED'],
    ['99', 'unknown', 'FAILED'],
    ['42', 'unknown', 'FAILED'],
  ])('%s is %s (%s)', (code, result, status) => {
    expect(vnpayResultOf(code)).toEqual({ result, status });
  });
});
