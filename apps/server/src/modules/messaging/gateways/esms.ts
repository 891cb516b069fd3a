import { GatewayError, gatewayFetch, isRetryableStatus } from './gateway-error.js';

/**
 * eSMS.vn, a Vietnamese brand-name SMS gateway: customer-care messages (SmsType 2) sent from the
 * tenant's registered brand name through SendMultipleMessage_V4_post_json, with the delivery
 * reported later by an HTTP GET to the CallbackUrl given with each message. eSMS does not sign
 * its callbacks: the callback address carries the tenant's random callback key, and a receipt
 * only changes a message of that tenant with the SMSID eSMS gave for it.
 */
export interface EsmsAccount {
  apiKey: string;
  secretKey: string;
  brandName: string;
  /** https://rest.esms.vn, or a local server in tests. */
  baseUrl: string;
}

export const ESMS_API_URL = 'https://rest.esms.vn';
export const ESMS_SEND_PATH = '/MainService.svc/json/SendMultipleMessage_V4_post_json/';

/** eSMS takes Vietnamese numbers in their national form: +84 90… → 090…. */
export function esmsPhone(number: string): string {
  const digits = number.replace(/[^\d+]/g, '');
  if (digits.startsWith('+84')) return `0${digits.slice(3)}`;
  if (digits.startsWith('+')) return digits.slice(1);
  return digits;
}

/** Whether the text needs the Unicode (accented) form; plain ASCII goes as unaccented SMS. */
const isUnicode = (text: string) => /[^\x20-\x7e\n\r]/.test(text);

/**
 * Sends one SMS. `requestId` is the outbox message's id: eSMS refuses a repeated RequestId
 * (code 124), so a retry after a lost answer cannot send the message twice.
 */
export async function sendEsmsSms(
  account: EsmsAccount,
  message: { to: string; body: string; requestId: string; callbackUrl: string },
): Promise<string> {
  const response = await gatewayFetch('esms', `${account.baseUrl}${ESMS_SEND_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      ApiKey: account.apiKey,
      SecretKey: account.secretKey,
      Content: message.body,
      Phone: esmsPhone(message.to),
      Brandname: account.brandName,
      SmsType: '2',
      IsUnicode: isUnicode(message.body) ? '1' : '0',
      Sandbox: '0',
      RequestId: message.requestId,
      CallbackUrl: message.callbackUrl,
    }),
  });
  if (!response.ok) throw new GatewayError(`esms: HTTP ${response.status}`, isRetryableStatus(response.status), { status: response.status });
  let body: { CodeResult?: unknown; SMSID?: unknown; ErrorMessage?: unknown };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new GatewayError('esms: the answer is not JSON', true, { status: response.status });
  }
  const code = typeof body.CodeResult === 'string' || typeof body.CodeResult === 'number' ? String(body.CodeResult) : '';
  if (code === '100' && typeof body.SMSID === 'string' && body.SMSID !== '') return body.SMSID;
  // 124: eSMS already has this RequestId, so an earlier attempt was sent and only its answer was
  // lost. The message is sent; its receipt is found by the RequestId the callback carries.
  if (code === '124') return message.requestId;
  const reason = typeof body.ErrorMessage === 'string' ? body.ErrorMessage : 'no SMSID';
  // The documented codes are refusals of the request (credentials, balance, brand name, number):
  // the same request would be refused again.
  throw new GatewayError(`esms: ${code === '' ? 'unknown result' : `code ${code}`}: ${reason}`, code === '', { code });
}

/**
 * A delivery callback's query → the message's status: delivered when a recipient got it, not
 * delivered when it failed or was rejected (SendStatus 4); undefined while eSMS is still waiting.
 */
export function esmsOutcomeOf(query: Record<string, string | undefined>): 'DELIVERED' | 'UNDELIVERED' | undefined {
  const count = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : 0);
  if (count(query.SendSuccess) > 0) return 'DELIVERED';
  if (count(query.SendFailed) > 0 || query.SendStatus === '4') return 'UNDELIVERED';
  return undefined;
}
