import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { closer, listen, readBody } from './local-server.js';

/**
 * Local stand-ins for the payment providers, speaking their documented formats and signing on
 * their own (not with the server's code):
 * - VNPay 2.1.0: the payment page (GET /paymentv2/vpcpay.html, whose vnp_SecureHash it checks and
 *   whose order it remembers), the merchant API's querydr (POST JSON to
 *   /merchant_webapi/api/transaction, checksum over `|`-joined fields; 02 unknown terminal, 97 bad
 *   checksum, 91 not found), and the IPN VNPay would send after a payment (`ipnFor`).
 * - Stripe: Checkout Sessions (form posts with Bearer auth to /v1/checkout/sessions), the account
 *   (/v1/account), refunds, and webhook events signed with Stripe-Signature (`signedEvent`).
 */

/** application/x-www-form-urlencoded as VNPay's Java sample builds it (URLEncoder: space as +). */
function formEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** VNPay's vnp_SecureHash: HMAC-SHA512 over the sorted, encoded vnp_ fields but the hash. */
export function fakeVnpayHash(secret: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .filter((name) => name.startsWith('vnp_') && name !== 'vnp_SecureHash' && name !== 'vnp_SecureHashType' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${formEncode(params[name] ?? '')}`)
    .join('&');
  return createHmac('sha512', secret).update(data).digest('hex');
}

const pipeHash = (secret: string, values: (string | undefined)[]) => createHmac('sha512', secret).update(values.map((value) => value ?? '').join('|')).digest('hex');

export interface FakeVnpay {
  url: string;
  paymentUrl: string;
  apiUrl: string;
  /** Orders whose payment page was opened with a valid signature, by vnp_TxnRef. */
  payments: Map<string, Record<string, string>>;
  /** querydr requests received. */
  queries: Record<string, unknown>[];
  /** The query string VNPay sends to the IPN (and the return) after the payer finished. */
  ipnFor(txnRef: string, responseCode?: string, overrides?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeVnpay(terminal: { tmnCode: string; hashSecret: string }): Promise<FakeVnpay> {
  const payments = new Map<string, Record<string, string>>();
  const queries: Record<string, unknown>[] = [];
  let transactionNo = 14_000_000;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://fake');
      if (request.method === 'GET' && url.pathname === '/paymentv2/vpcpay.html') {
        const params = Object.fromEntries(url.searchParams);
        const isValid = params.vnp_TmnCode === terminal.tmnCode && params.vnp_SecureHash === fakeVnpayHash(terminal.hashSecret, params);
        if (isValid && params.vnp_TxnRef !== undefined) payments.set(params.vnp_TxnRef, params);
        response.writeHead(isValid ? 200 : 400, { 'content-type': 'text/html' }).end(isValid ? '<p>VNPay payment page</p>' : '<p>Sai chữ ký (code 70)</p>');
        return;
      }
      if (request.method === 'POST' && url.pathname === '/merchant_webapi/api/transaction') {
        const query = JSON.parse(body) as Record<string, string>;
        queries.push(query);
        const answer = (fields: Record<string, string | undefined>) => {
          const full: Record<string, string | undefined> = { vnp_ResponseId: randomBytes(8).toString('hex'), vnp_Command: 'querydr', vnp_TmnCode: terminal.tmnCode, ...fields };
          full.vnp_SecureHash = pipeHash(terminal.hashSecret, [
            full.vnp_ResponseId, full.vnp_Command, full.vnp_ResponseCode, full.vnp_Message, full.vnp_TmnCode, full.vnp_TxnRef, full.vnp_Amount, full.vnp_BankCode,
            full.vnp_PayDate, full.vnp_TransactionNo, full.vnp_TransactionType, full.vnp_TransactionStatus, full.vnp_OrderInfo, full.vnp_PromotionCode, full.vnp_PromotionAmount,
          ]);
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(full));
        };
        if (query.vnp_TmnCode !== terminal.tmnCode) {
          answer({ vnp_ResponseCode: '02', vnp_Message: 'Invalid TmnCode' });
          return;
        }
        const expected = pipeHash(terminal.hashSecret, [query.vnp_RequestId, query.vnp_Version, query.vnp_Command, query.vnp_TmnCode, query.vnp_TxnRef, query.vnp_TransactionDate, query.vnp_CreateDate, query.vnp_IpAddr, query.vnp_OrderInfo]);
        if (query.vnp_SecureHash !== expected) {
          answer({ vnp_ResponseCode: '97', vnp_Message: 'Invalid Checksum' });
          return;
        }
        const payment = payments.get(query.vnp_TxnRef ?? '');
        if (payment === undefined) {
          answer({ vnp_ResponseCode: '91', vnp_Message: 'Not found transaction' });
          return;
        }
        answer({
          vnp_ResponseCode: '00',
          vnp_Message: 'QueryDR Success',
          vnp_TxnRef: payment.vnp_TxnRef,
          vnp_Amount: payment.vnp_Amount,
          vnp_OrderInfo: payment.vnp_OrderInfo,
          vnp_BankCode: 'NCB',
          vnp_PayDate: payment.vnp_CreateDate,
          vnp_TransactionNo: payment.paidTransactionNo ?? '0',
          vnp_TransactionType: '01',
          vnp_TransactionStatus: payment.paidTransactionNo === undefined ? '01' : '00',
        });
        return;
      }
      response.writeHead(404).end();
    })();
  });
  const url = await listen(server);
  return {
    url,
    paymentUrl: `${url}/paymentv2/vpcpay.html`,
    apiUrl: `${url}/merchant_webapi/api/transaction`,
    payments,
    queries,
    ipnFor(txnRef, responseCode = '00', overrides = {}) {
      const payment = payments.get(txnRef);
      if (payment === undefined) throw new Error(`no payment ${txnRef} was opened`);
      transactionNo += 1;
      if (responseCode === '00') payment.paidTransactionNo = String(transactionNo);
      const params: Record<string, string> = {
        vnp_Amount: payment.vnp_Amount ?? '',
        vnp_BankCode: 'NCB',
        vnp_BankTranNo: `VNP${transactionNo}`,
        vnp_CardType: 'ATM',
        vnp_OrderInfo: payment.vnp_OrderInfo ?? '',
        vnp_PayDate: payment.vnp_CreateDate ?? '',
        vnp_ResponseCode: responseCode,
        vnp_TmnCode: terminal.tmnCode,
        vnp_TransactionNo: String(transactionNo),
        vnp_TransactionStatus: responseCode === '00' ? '00' : '02',
        vnp_TxnRef: txnRef,
        ...overrides,
      };
      return { ...params, vnp_SecureHashType: 'HmacSHA512', vnp_SecureHash: fakeVnpayHash(terminal.hashSecret, params) };
    },
    close: closer(server),
  };
}

export interface FakeStripeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: 'paid' | 'unpaid';
  status: 'open' | 'complete' | 'expired';
  success_url: string;
}

export interface FakeStripe {
  url: string;
  sessions: Map<string, FakeStripeSession>;
  /** Every request: method, path, whether its key was the account's, the form. */
  requests: { method: string; path: string; authorized: boolean; form: URLSearchParams; idempotencyKey: string | undefined }[];
  /** A webhook event about an object, its body and its Stripe-Signature header (t=…,v1=…), signed now or at `signedAt`. */
  signedEvent(type: string, object: Record<string, unknown>, secret: string, signedAt?: Date): { body: string; signature: string };
  close(): Promise<void>;
}

const stripeId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export async function startFakeStripe(account: { accountId: string; secretKey: string }): Promise<FakeStripe> {
  const sessions = new Map<string, FakeStripeSession>();
  const byIdempotencyKey = new Map<string, FakeStripeSession>();
  const requests: FakeStripe['requests'] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://fake');
      const form = new URLSearchParams(body);
      const authorized = request.headers.authorization === `Bearer ${account.secretKey}`;
      const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
      requests.push({ method: request.method ?? '', path: url.pathname, authorized, form, idempotencyKey });
      const send = (status: number, payload: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') }).end(JSON.stringify(payload));
      if (!authorized) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      if (request.method === 'GET' && url.pathname === '/v1/account') return send(200, { id: account.accountId, object: 'account' });
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const existing = idempotencyKey === undefined ? undefined : byIdempotencyKey.get(idempotencyKey);
        if (existing !== undefined) return send(200, existing);
        const id = stripeId('cs');
        const session: FakeStripeSession = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.com/c/pay/${id}`,
          mode: form.get('mode') ?? '',
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')) * Number(form.get('line_items[0][quantity]') ?? '1'),
          currency: form.get('line_items[0][price_data][currency]') ?? '',
          client_reference_id: form.get('client_reference_id'),
          metadata: { orderId: form.get('metadata[orderId]') ?? '' },
          payment_intent: null,
          payment_status: 'unpaid',
          status: 'open',
          success_url: form.get('success_url') ?? '',
        };
        sessions.set(id, session);
        if (idempotencyKey !== undefined) byIdempotencyKey.set(idempotencyKey, session);
        return send(200, session);
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (request.method === 'GET' && sessionMatch !== null) {
        const session = sessions.get(sessionMatch[1] ?? '');
        return session === undefined ? send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } }) : send(200, session);
      }
      if (request.method === 'POST' && url.pathname === '/v1/refunds') {
        return send(200, { id: stripeId('re'), object: 'refund', status: 'succeeded', amount: Number(form.get('amount')), payment_intent: form.get('payment_intent') });
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method ?? ''}: ${url.pathname})` } });
    })();
  });
  const url = await listen(server);
  return {
    url,
    sessions,
    requests,
    signedEvent(type, object, secret, signedAt = new Date()) {
      const body = JSON.stringify({ id: stripeId('evt'), object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), type, data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } });
      const timestamp = Math.floor(signedAt.getTime() / 1000);
      const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
      return { body, signature: `t=${timestamp},v1=${signature}` };
    },
    close: closer(server),
  };
}
