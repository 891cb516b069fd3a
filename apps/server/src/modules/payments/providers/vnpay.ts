import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PaymentResult, PaymentStatus } from '@rpm/contracts';
import {
  PaymentKeyError,
  PaymentSignatureError,
  PaymentUnavailableError,
  type CallbackRequest,
  type CreatePaymentInput,
  type CreatedPayment,
  type PaymentProvider,
  type PaymentQuery,
  type VerifiedCallback,
} from './provider.js';

/**
 * VNPay payment gateway, API version 2.1.0 (sandbox.vnpayment.vn/apis/docs): the payer is sent to
 * the payment page with the order in `vnp_` query parameters signed by vnp_SecureHash =
 * HMAC-SHA512(hash secret, the sorted parameters as an URL-encoded query string, vnp_SecureHash and
 * vnp_SecureHashType left out); VNPay returns the payer (Return URL) and notifies the server (IPN)
 * with parameters signed the same way. Reconciliation is the merchant API's querydr: a JSON post
 * signed over its fields joined with `|`. VNPay takes VND only; vnp_Amount is the amount × 100.
 */
export interface VnpayKeys {
  /** vnp_TmnCode: the merchant's terminal code. */
  tmnCode: string;
  /** vnp_HashSecret. */
  hashSecret: string;
}

export const VNPAY_VERSION = '2.1.0';
/** How long the payment page accepts the payment (vnp_ExpireDate). */
const EXPIRY_MINUTES = 15;
const REQUEST_TIMEOUT_MS = 15_000;

/** yyyyMMddHHmmss in GMT+7 (Vietnam keeps no daylight saving), as VNPay's dates are. */
export function vnpayDate(at: Date): string {
  const local = new Date(at.getTime() + 7 * 3_600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${local.getUTCFullYear()}${pad(local.getUTCMonth() + 1)}${pad(local.getUTCDate())}${pad(local.getUTCHours())}${pad(local.getUTCMinutes())}${pad(local.getUTCSeconds())}`;
}

/** The string VNPay signs: non-empty vnp_ parameters but the hash itself, sorted, form-encoded (space as +). */
export function vnpaySignedData(params: Record<string, string>): string {
  const entries = Object.entries(params)
    .filter(([name, value]) => name.startsWith('vnp_') && name !== 'vnp_SecureHash' && name !== 'vnp_SecureHashType' && value !== '')
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

export function vnpaySignature(hashSecret: string, params: Record<string, string>): string {
  return createHmac('sha512', hashSecret).update(vnpaySignedData(params), 'utf8').digest('hex');
}

function hmacHex(hashSecret: string, data: string): string {
  return createHmac('sha512', hashSecret).update(data, 'utf8').digest('hex');
}

function sameHex(expected: string, given: string | undefined): boolean {
  if (given === undefined || !/^[0-9a-fA-F]+$/.test(given)) return false;
  const left = Buffer.from(expected, 'hex');
  const right = Buffer.from(given.toLowerCase(), 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * vnp_OrderInfo: VNPay asks for Vietnamese without diacritics and no special characters (its
 * implementations encode those differently, which would break the signature).
 */
export function vnpayOrderInfo(text: string): string {
  const plain = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9 .,_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 255);
  return plain === '' ? 'Payment' : plain;
}

/** vnp_ResponseCode of a payment (VNPay's error code table) as the spec §8 result and a status. */
export function vnpayResultOf(responseCode: string): { result: PaymentResult; status: PaymentStatus } {
  const failed = (result: PaymentResult) => ({ result, status: 'FAILED' as const });
  switch (responseCode) {
    case '00':
      return { result: 'success', status: 'SUCCESS' };
    // Money taken but the transaction is suspected: the merchant confirms or refuses it in VNPay's admin.
    case '07':
      return { result: 'suspectedFraud', status: 'PENDING' };
    case '09':
      return failed('notRegisteredInternetBanking');
    case '10':
      return failed('cardVerificationFailed');
    case '11':
      return failed('paymentWaitExpired');
    case '12':
      return failed('cardLocked');
    case '13':
      return failed('wrongOtp');
    case '24':
      return failed('notCompleted');
    case '51':
      return failed('insufficientBalance');
    case '65':
      return failed('dailyLimitExceeded');
    case '75':
      return failed('bankMaintenance');
    case '79':
      return failed('wrongPasswordTooManyTimes');
    default:
      return failed('unknown');
  }
}

/** vnp_TransactionStatus in a querydr answer. */
function transactionStatusOf(status: string, responseCode: string): { result: PaymentResult; status: PaymentStatus } {
  switch (status) {
    case '00':
      return { result: 'success', status: 'SUCCESS' };
    case '01':
      return { result: 'notCompleted', status: 'PENDING' };
    case '02':
      return responseCode === '' ? { result: 'error', status: 'FAILED' } : { ...vnpayResultOf(responseCode), status: 'FAILED' };
    case '04':
      return { result: 'reverseTransaction', status: 'FAILED' };
    case '05':
    case '06':
      return { result: 'settled', status: 'REFUNDED' };
    case '07':
      return { result: 'suspectedFraud', status: 'PENDING' };
    default:
      return { result: 'unknown', status: 'PENDING' };
  }
}

/** The answer VNPay expects to an IPN (its documented RspCode values). */
export const VNPAY_IPN_ANSWERS = {
  confirmed: { RspCode: '00', Message: 'Confirm Success' },
  orderNotFound: { RspCode: '01', Message: 'Order not found' },
  alreadyConfirmed: { RspCode: '02', Message: 'Order already confirmed' },
  invalidAmount: { RspCode: '04', Message: 'Invalid amount' },
  invalidSignature: { RspCode: '97', Message: 'Invalid signature' },
  unknownError: { RspCode: '99', Message: 'Unknown error' },
} as const;
export type VnpayIpnAnswer = (typeof VNPAY_IPN_ANSWERS)[keyof typeof VNPAY_IPN_ANSWERS];

/** The querydr request's signed fields, in VNPay's order. */
const QUERY_REQUEST_FIELDS = ['vnp_RequestId', 'vnp_Version', 'vnp_Command', 'vnp_TmnCode', 'vnp_TxnRef', 'vnp_TransactionDate', 'vnp_CreateDate', 'vnp_IpAddr', 'vnp_OrderInfo'] as const;
/** The querydr answer's signed fields, in VNPay's order. */
export const QUERY_RESPONSE_FIELDS = [
  'vnp_ResponseId',
  'vnp_Command',
  'vnp_ResponseCode',
  'vnp_Message',
  'vnp_TmnCode',
  'vnp_TxnRef',
  'vnp_Amount',
  'vnp_BankCode',
  'vnp_PayDate',
  'vnp_TransactionNo',
  'vnp_TransactionType',
  'vnp_TransactionStatus',
  'vnp_OrderInfo',
  'vnp_PromotionCode',
  'vnp_PromotionAmount',
] as const;

export const pipeSigned = (hashSecret: string, fields: readonly string[], values: Record<string, string | number | undefined>) =>
  hmacHex(hashSecret, fields.map((field) => (values[field] === undefined ? '' : String(values[field]))).join('|'));

/** A JSON answer's text and number fields, as text (VNPay sends codes and amounts either way). */
function textFields(answer: unknown): Record<string, string> {
  if (typeof answer !== 'object' || answer === null) return {};
  return Object.fromEntries(
    Object.entries(answer).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : typeof value === 'number' ? [[name, String(value)]] : [])),
  );
}

export function createVnpayProvider(keys: VnpayKeys, endpoints: { paymentUrl: string; apiUrl: string }): PaymentProvider {
  async function queryDr(query: { orderId: string; createdAt: Date; ipAddress: string; now: Date }): Promise<Record<string, string>> {
    const body: Record<string, string> = {
      vnp_RequestId: randomBytes(16).toString('hex'),
      vnp_Version: VNPAY_VERSION,
      vnp_Command: 'querydr',
      vnp_TmnCode: keys.tmnCode,
      vnp_TxnRef: query.orderId,
      vnp_OrderInfo: vnpayOrderInfo(`Query ${query.orderId}`),
      vnp_TransactionDate: vnpayDate(query.createdAt),
      vnp_CreateDate: vnpayDate(query.now),
      vnp_IpAddr: query.ipAddress,
    };
    body.vnp_SecureHash = pipeSigned(keys.hashSecret, QUERY_REQUEST_FIELDS, body);
    let response: Response;
    try {
      response = await fetch(endpoints.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new PaymentUnavailableError('VNPay could not be reached', { cause: error });
    }
    if (!response.ok) throw new PaymentUnavailableError(`VNPay answered HTTP ${response.status}`);
    const answer: unknown = await response.json().catch(() => undefined);
    if (typeof answer !== 'object' || answer === null) throw new PaymentUnavailableError('VNPay answered something that is not JSON');
    return textFields(answer);
  }

  return {
    method: 'VNPAY',
    currencies: ['VND'],

    createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const params: Record<string, string> = {
        vnp_Version: VNPAY_VERSION,
        vnp_Command: 'pay',
        vnp_TmnCode: keys.tmnCode,
        // VND has no minor unit: the amount in dong, times 100 as VNPay wants it.
        vnp_Amount: String(input.amountMinor * 100),
        vnp_CurrCode: 'VND',
        vnp_TxnRef: input.orderId,
        vnp_OrderInfo: vnpayOrderInfo(input.description),
        vnp_OrderType: 'other',
        vnp_Locale: input.locale === 'vi' ? 'vn' : 'en',
        vnp_ReturnUrl: input.returnUrl,
        vnp_IpAddr: input.ipAddress,
        vnp_CreateDate: vnpayDate(input.createdAt),
        vnp_ExpireDate: vnpayDate(new Date(input.createdAt.getTime() + EXPIRY_MINUTES * 60_000)),
      };
      const query = `${vnpaySignedData(params)}&vnp_SecureHash=${vnpaySignature(keys.hashSecret, params)}`;
      return Promise.resolve({ redirectUrl: `${endpoints.paymentUrl}?${query}` });
    },

    verifyCallback(callback: CallbackRequest): VerifiedCallback {
      const params = callback.query;
      if (!sameHex(vnpaySignature(keys.hashSecret, params), params.vnp_SecureHash)) throw new PaymentSignatureError();
      if (params.vnp_TmnCode !== keys.tmnCode) throw new PaymentSignatureError('callback for another terminal');
      const responseCode = params.vnp_ResponseCode ?? '';
      let verdict = vnpayResultOf(responseCode);
      // A payment succeeds when both the payer's result and the transaction's status say so.
      if (verdict.status === 'SUCCESS' && (params.vnp_TransactionStatus ?? '00') !== '00') verdict = { result: 'error', status: 'FAILED' };
      const amount = Number(params.vnp_Amount);
      const raw: Record<string, unknown> = Object.fromEntries(Object.entries(params).filter(([name]) => name !== 'vnp_SecureHash' && name !== 'vnp_SecureHashType'));
      return {
        orderId: params.vnp_TxnRef ?? null,
        status: verdict.status,
        result: verdict.result,
        resultCode: responseCode,
        amountMinor: Number.isSafeInteger(amount) && amount % 100 === 0 ? amount / 100 : null,
        providerReference: params.vnp_TransactionNo ?? null,
        eventKey: `${params.vnp_TxnRef ?? ''}:${params.vnp_TransactionNo ?? ''}:${responseCode}:${params.vnp_TransactionStatus ?? ''}`,
        raw,
      };
    },

    async queryPayment(query: PaymentQuery): Promise<VerifiedCallback> {
      const answer = await queryDr({ ...query, now: new Date() });
      const responseCode = answer.vnp_ResponseCode ?? '';
      if (responseCode === '97' || responseCode === '02') throw new PaymentKeyError(`VNPay refused the keys (code ${responseCode})`);
      if (!sameHex(pipeSigned(keys.hashSecret, QUERY_RESPONSE_FIELDS, answer), answer.vnp_SecureHash)) {
        throw new PaymentSignatureError('querydr answer with an invalid signature');
      }
      if (responseCode !== '00') throw new PaymentUnavailableError(`VNPay querydr answered code ${responseCode}`);
      const verdict = transactionStatusOf(answer.vnp_TransactionStatus ?? '', responseCode);
      const amount = Number(answer.vnp_Amount);
      const { vnp_SecureHash: _signature, ...raw } = answer;
      return {
        orderId: answer.vnp_TxnRef ?? query.orderId,
        status: verdict.status,
        result: verdict.result,
        resultCode: answer.vnp_TransactionStatus ?? '',
        amountMinor: Number.isSafeInteger(amount) && amount % 100 === 0 ? amount / 100 : null,
        providerReference: answer.vnp_TransactionNo ?? null,
        eventKey: `querydr:${answer.vnp_ResponseId ?? randomBytes(8).toString('hex')}`,
        raw,
      };
    },

    async verifyKeys(): Promise<void> {
      // A querydr for an order that cannot exist: VNPay answers 91 (not found) to valid keys, 97
      // (checksum) to a wrong secret and 02 to an unknown terminal.
      const answer = await queryDr({ orderId: `KEYCHECK${randomBytes(6).toString('hex')}`, createdAt: new Date(), ipAddress: '127.0.0.1', now: new Date() });
      const responseCode = answer.vnp_ResponseCode ?? '';
      if (responseCode === '91' || responseCode === '00') return;
      if (responseCode === '97' || responseCode === '02') throw new PaymentKeyError(`VNPay refused the keys (code ${responseCode})`);
      throw new PaymentUnavailableError(`VNPay answered code ${responseCode || 'none'}`);
    },
  };
}
