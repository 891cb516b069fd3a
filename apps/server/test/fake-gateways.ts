import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { closer, listen, readBody } from './local-server.js';

/**
 * Local stand-ins for the SMS and voice gateways, speaking their documented request and answer
 * formats: Twilio's REST API (form posts with Basic auth to /2010-04-01/Accounts/{sid}/Messages.json
 * and Calls.json, JSON answers, JSON errors with a code) and eSMS.vn's
 * SendMultipleMessage_V4_post_json (JSON in, CodeResult and SMSID out). Each records what it was
 * asked and answers from a script (then the default success).
 */
export interface ScriptedAnswer {
  status: number;
  body: unknown;
}

interface FakeServer<Request> {
  url: string;
  requests: Request[];
  /** Answers to give, in order, before the default success. */
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

export interface TwilioRequest {
  resource: 'Messages' | 'Calls';
  accountSid: string;
  authorized: boolean;
  form: URLSearchParams;
}

export type FakeTwilio = FakeServer<TwilioRequest>;
export type FakeEsms = FakeServer<Record<string, unknown>>;

/** A Twilio API that knows one account (sid and auth token). */
export async function startFakeTwilio(account: { accountSid: string; authToken: string }): Promise<FakeTwilio> {
  const requests: TwilioRequest[] = [];
  const script: ScriptedAnswer[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|Calls)\.json$/.exec(request.url ?? '');
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.method !== 'POST' || match === null) { send(404, { code: 20404, message: 'The requested resource was not found', status: 404 }); return; }
      const expected = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
      const authorized = request.headers.authorization === expected && match[1] === account.accountSid;
      const resource = match[2] as 'Messages' | 'Calls';
      requests.push({ resource, accountSid: match[1] ?? '', authorized, form: new URLSearchParams(body) });
      if (!authorized) { send(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 }); return; }
      const scripted = script.shift();
      if (scripted !== undefined) { send(scripted.status, scripted.body); return; }
      const sid = `${resource === 'Messages' ? 'SM' : 'CA'}${randomBytes(16).toString('hex')}`;
      send(201, { sid, account_sid: account.accountSid, status: 'queued' });
    })();
  });
  return { url: await listen(server), requests, script, close: closer(server) };
}

export const ESMS_PATH = '/MainService.svc/json/SendMultipleMessage_V4_post_json/';

/** An eSMS API that knows one ApiKey and SecretKey. */
export async function startFakeEsms(account: { apiKey: string; secretKey: string }): Promise<FakeEsms> {
  const requests: Record<string, unknown>[] = [];
  const script: ScriptedAnswer[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.method !== 'POST' || request.url !== ESMS_PATH) { send(404, { error: 'Invalid request' }); return; }
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        send(400, { error: 'Invalid request' }); return;
      }
      requests.push(json);
      if (json.ApiKey !== account.apiKey || json.SecretKey !== account.secretKey) { send(200, { CodeResult: '101', CountRegenerate: 0, ErrorMessage: 'Authorize Failed' }); return; }
      const scripted = script.shift();
      if (scripted !== undefined) { send(scripted.status, scripted.body); return; }
      send(200, { CodeResult: '100', CountRegenerate: 0, SMSID: randomBytes(16).toString('hex') });
    })();
  });
  return { url: await listen(server), requests, script, close: closer(server) };
}
