import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayError, gatewayFetch, isRetryableStatus } from './gateway-error.js';

/**
 * Twilio's REST API (2010-04-01): SMS through the Messages resource, voice calls through the
 * Calls resource with inline TwiML, and the status callbacks Twilio posts back, signed with the
 * account's auth token (X-Twilio-Signature). Two form posts and one HMAC do not need Twilio's
 * SDK; the signature follows Twilio's published algorithm and is tested against its examples.
 */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** The Twilio number messages and calls come from (E.164). */
  from: string;
  /** https://api.twilio.com, or a local server in tests. */
  baseUrl: string;
}

export const TWILIO_API_URL = 'https://api.twilio.com';

/** Where a call or message stands, as the product records it. */
export type TwilioCallOutcome = 'PLACED' | 'ANSWERED' | 'COMPLETED' | 'NO_ANSWER' | 'BUSY' | 'FAILED';
export type TwilioMessageOutcome = 'DELIVERED' | 'UNDELIVERED';

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed by the auth token, of the full URL Twilio called
 * followed by every POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => `${text}${key}${params[key] ?? ''}`, url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: Record<string, string>): boolean {
  if (signature === undefined || signature === '') return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const authorization = (account: TwilioAccount) =>
  `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;

/** Posts a form to one of the account's resources; answers the created resource's sid and status. */
async function post(account: TwilioAccount, resource: 'Messages' | 'Calls', form: URLSearchParams): Promise<{ sid: string; status: string }> {
  const url = `${account.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/${resource}.json`;
  const response = await gatewayFetch('twilio', url, {
    method: 'POST',
    headers: { authorization: authorization(account), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  });
  const text = await response.text();
  let body: { sid?: unknown; status?: unknown; code?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON (a proxy's error page): the HTTP status decides.
  }
  if (!response.ok) {
    const code = typeof body.code === 'number' || typeof body.code === 'string' ? String(body.code) : undefined;
    const message = typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
    throw new GatewayError(`twilio: ${message}`, isRetryableStatus(response.status), { status: response.status, ...(code === undefined ? {} : { code }) });
  }
  if (typeof body.sid !== 'string' || body.sid === '') throw new GatewayError('twilio: the answer has no sid', true, { status: response.status });
  return { sid: body.sid, status: typeof body.status === 'string' ? body.status : 'queued' };
}

/** Sends an SMS; Twilio reports its delivery to statusCallback. */
export async function sendTwilioSms(account: TwilioAccount, message: { to: string; body: string; statusCallback: string }): Promise<string> {
  const form = new URLSearchParams({ To: message.to, From: account.from, Body: message.body, StatusCallback: message.statusCallback });
  return (await post(account, 'Messages', form)).sid;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);

/** What the callee hears: the text read twice in the patient's language (Twilio <Say>). */
export function spokenTwiml(text: string, language: 'en' | 'vi'): string {
  const say = `<Say language="${language === 'vi' ? 'vi-VN' : 'en-US'}">${escapeXml(text)}</Say>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${say}<Pause length="1"/>${say}</Response>`;
}

/** How long a call rings before Twilio gives up (no-answer), in seconds. */
export const TWILIO_RING_SECONDS = 30;

/** Places a call that reads `text`; its progress (ringing, answered, completed …) goes to statusCallback. */
export async function placeTwilioCall(
  account: TwilioAccount,
  call: { to: string; text: string; language: 'en' | 'vi'; statusCallback: string },
): Promise<string> {
  const form = new URLSearchParams({
    To: call.to,
    From: account.from,
    Twiml: spokenTwiml(call.text, call.language),
    StatusCallback: call.statusCallback,
    StatusCallbackMethod: 'POST',
    Timeout: String(TWILIO_RING_SECONDS),
  });
  for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
  return (await post(account, 'Calls', form)).sid;
}

/** CallStatus of a status callback → the call's status (undefined: not one Twilio documents). */
export function callOutcomeOf(callStatus: string): TwilioCallOutcome | undefined {
  switch (callStatus) {
    case 'queued':
    case 'initiated':
    case 'ringing':
      return 'PLACED';
    case 'in-progress':
      return 'ANSWERED';
    case 'completed':
      return 'COMPLETED';
    case 'busy':
      return 'BUSY';
    case 'no-answer':
      return 'NO_ANSWER';
    case 'failed':
    case 'canceled':
      return 'FAILED';
    default:
      return undefined;
  }
}

/** MessageStatus of a status callback → the message's status (undefined: not final, nothing to record). */
export function messageOutcomeOf(messageStatus: string): TwilioMessageOutcome | undefined {
  switch (messageStatus) {
    case 'delivered':
    case 'read':
      return 'DELIVERED';
    case 'undelivered':
    case 'failed':
      return 'UNDELIVERED';
    default:
      return undefined;
  }
}
