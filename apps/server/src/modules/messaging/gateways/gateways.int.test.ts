import type { MessageGateway, MessageGatewayTestResult } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../../test/database.js';
import { startFakeEsms, startFakeTwilio, type FakeEsms, type FakeTwilio } from '../../../../test/fake-gateways.js';
import { createTenant } from '../../../../test/factories.js';
import { runDueJobsOf } from '../../../../test/jobs.js';
import { ManualClock } from '../../../lib/clock.js';
import { alertOrganisation, signal, type AlertOrganisation } from '../../alerts/test-support.js';
import { dataOf, errorOf, staffSession } from '../../tenants/test-support.js';
import { enqueueMessage } from '../outbox-store.js';
import { twilioSignature } from './twilio.js';

const PUBLIC_URL = 'https://rpm.example.test';
const TWILIO = { accountSid: `AC${'0123456789abcdef'.repeat(2)}`, authToken: 'twilio-auth-token-0001' };
const ESMS = { apiKey: 'esms-api-key-0001', secretKey: 'esms-secret-key-0001' };

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let twilio: FakeTwilio;
let esms: FakeEsms;
let superAdmin: string;
// Near the real time: jobs queued without a time are due at the database's now().
const clock = new ManualClock(new Date());
const runJobs = () => runDueJobsOf(app, testDb, { now: new Date() });

beforeAll(async () => {
  testDb = await createTestDatabase();
  twilio = await startFakeTwilio(TWILIO);
  esms = await startFakeEsms(ESMS);
  app = await createTestApp(testDb.database, { gateways: { publicUrl: PUBLIC_URL, twilioApiUrl: twilio.url, esmsApiUrl: esms.url } }, clock);
  org = await alertOrganisation(testDb, app);
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', org.tenant.code)).token;
});
afterAll(async () => {
  await app.close();
  await twilio.close();
  await esms.close();
  await testDb.drop();
});
beforeEach(() => {
  twilio.requests.length = 0;
  twilio.script.length = 0;
  esms.requests.length = 0;
  esms.script.length = 0;
});

const gatewayUrl = (tenantId: string, channel = '') => `/manage/sadmin/tenant/${tenantId}/gateways${channel}`;
const putGateway = (tenantId: string, channel: 'SMS' | 'CALL', payload: object, token = superAdmin) =>
  app.inject({ method: 'PUT', url: gatewayUrl(tenantId, `/${channel}`), payload, ...withSession(token) });

/** Queues one SMS in the tenant's outbox and lets the dispatcher deliver what is due. */
async function sendSms(tenantId: string, recipient: string): Promise<string> {
  const id = await testDb.database.withTenant(tenantId, (tx) => enqueueMessage(tx, tenantId, { channel: 'SMS', recipient, body: 'Xin chào', purpose: 'TEST' }));
  await app.messaging.drain();
  return id;
}

const outboxRow = async (id: string) =>
  (await asOwner<{ status: string; provider: string | null; provider_message_id: string | null; attempts: number; last_error: string | null }>(
    testDb.ownerUrl,
    'SELECT status, provider, provider_message_id, attempts, last_error FROM outbox_messages WHERE id = $1',
    [id],
  ))[0];

/** Posts a Twilio status callback to the address given to Twilio, signed with `token`. */
function twilioCallback(address: string, form: Record<string, string>, token = TWILIO.authToken) {
  const path = address.slice(PUBLIC_URL.length);
  return app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(token, address, form) },
    payload: new URLSearchParams(form).toString(),
  });
}

describe('tenant gateway settings', () => {
  it('store credentials sealed, show them masked, keep them when only the sender changes, and are audited without them', async () => {
    const saved = await putGateway(org.tenant.id, 'SMS', { provider: 'twilio', sender: '+15005550006', credentials: TWILIO });
    const view = dataOf<MessageGateway>(saved);
    expect(view).toMatchObject({ channel: 'SMS', provider: 'twilio', sender: '+15005550006', isDefault: false });
    expect(view.credentials).toEqual({ accountSid: TWILIO.accountSid, authToken: '****0001' });
    expect(view.callbackUrl).toMatch(new RegExp(`^${PUBLIC_URL}/collector/gateway/twilio/[A-Za-z0-9_-]{43}/sms$`));

    const [stored] = await asOwner<{ credentials_ciphertext: string }>(testDb.ownerUrl, 'SELECT credentials_ciphertext FROM tenant_message_gateways WHERE tenant_id = $1 AND channel = $2', [org.tenant.id, 'SMS']);
    expect(stored?.credentials_ciphertext).toMatch(/^v1\./);
    expect(stored?.credentials_ciphertext).not.toContain(TWILIO.authToken);

    // The same provider without credentials keeps them (and the callback address).
    const moved = dataOf<MessageGateway>(await putGateway(org.tenant.id, 'SMS', { provider: 'twilio', sender: '+15005550007' }));
    expect(moved.credentials.authToken).toBe('****0001');
    expect(moved.callbackUrl).toBe(view.callbackUrl);
    // Another provider needs its own.
    expect(errorOf(await putGateway(org.tenant.id, 'SMS', { provider: 'esms', sender: 'RPMCARE' }))).toMatchObject({ status: 400, code: 'gateway.credentialsRequired' });
    expect(errorOf(await putGateway(org.tenant.id, 'CALL', { provider: 'esms', sender: 'RPMCARE', credentials: ESMS }))).toMatchObject({ status: 400, code: 'gateway.unsupported' });
    expect(errorOf(await putGateway(org.tenant.id, 'SMS', { provider: 'twilio', sender: '0901', credentials: TWILIO })).status).toBe(400);

    const listed = dataOf<MessageGateway[]>(await app.inject({ url: gatewayUrl(org.tenant.id), ...withSession(superAdmin) }));
    expect(listed.map((gateway) => [gateway.channel, gateway.provider, gateway.isDefault])).toEqual([
      ['SMS', 'twilio', false],
      ['CALL', 'local', true],
    ]);
    const audit = await asOwner<{ details: Record<string, unknown> }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_GATEWAY_UPDATED' ORDER BY occurred_at`, [org.tenant.id]);
    expect(audit.length).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(TWILIO.authToken);
    expect(audit.map((row) => row.details.credentialsChanged).sort()).toEqual([false, true]);
    expect(audit.find((row) => row.details.credentialsChanged === true)?.details).toMatchObject({ channel: 'SMS', provider: 'twilio', sender: '+15005550006' });
  });

  it('are refused to tenant staff and to a system admin not assigned to the tenant', async () => {
    const admin = await app.inject({ url: gatewayUrl(org.tenant.id), ...withSession(org.adminToken) });
    expect(admin.statusCode).toBe(403);
    const elsewhere = await createTenant(testDb.database);
    const systemAdmin = (await staffSession(app, testDb, 'SYSTEM_ADMIN', elsewhere.code, [elsewhere.id])).token;
    expect(errorOf(await app.inject({ url: gatewayUrl(org.tenant.id), ...withSession(systemAdmin) })).status).toBe(404);
  });

  it('test sends at once and answers the gateway’s refusal in its own words', async () => {
    await putGateway(org.tenant.id, 'SMS', { provider: 'twilio', sender: '+15005550006', credentials: TWILIO });
    twilio.script.push({ status: 400, body: { code: 21211, message: "The 'To' number +84000000000 is not a valid phone number.", status: 400 } });
    const refused = dataOf<MessageGatewayTestResult>(
      await app.inject({ method: 'POST', url: gatewayUrl(org.tenant.id, '/SMS/test'), payload: { to: '+84000000000' }, ...withSession(superAdmin) }),
    );
    expect(refused).toMatchObject({ ok: false, provider: 'twilio', providerId: null });
    expect(refused.error).toContain('not a valid phone number');
    const sent = dataOf<MessageGatewayTestResult>(
      await app.inject({ method: 'POST', url: gatewayUrl(org.tenant.id, '/SMS/test'), payload: { to: '+84901234567' }, ...withSession(superAdmin) }),
    );
    expect(sent).toMatchObject({ ok: true, provider: 'twilio' });
    expect(sent.providerId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(twilio.requests.at(-1)?.form.get('To')).toBe('+84901234567');
  });
});

describe('Twilio SMS', () => {
  beforeAll(async () => {
    await putGateway(org.tenant.id, 'SMS', { provider: 'twilio', sender: '+15005550006', credentials: TWILIO });
  });

  it('sends through the Messages resource and records the delivery receipt once, from a signed callback only', async () => {
    const id = await sendSms(org.tenant.id, '+84901000001');
    const [request] = twilio.requests;
    expect(request).toMatchObject({ resource: 'Messages', authorized: true });
    expect(Object.fromEntries(request?.form ?? [])).toMatchObject({ To: '+84901000001', From: '+15005550006', Body: 'Xin chào' });
    const address = request?.form.get('StatusCallback') ?? '';
    expect(address).toMatch(new RegExp(`^${PUBLIC_URL}/collector/gateway/twilio/[A-Za-z0-9_-]{43}/sms\\?message=${id}$`));
    const sent = await outboxRow(id);
    expect(sent).toMatchObject({ status: 'SENT', provider: 'twilio' });
    const sid = sent?.provider_message_id ?? '';

    // Forged: signed with another token. Nothing changes.
    const forged = await twilioCallback(address, { MessageSid: sid, MessageStatus: 'delivered' }, 'not-the-token');
    expect([forged.statusCode, forged.json<{ code: string }>().code]).toEqual([403, 'gateway.signatureInvalid']);
    const unsigned = await app.inject({ method: 'POST', url: address.slice(PUBLIC_URL.length), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `MessageSid=${sid}&MessageStatus=delivered` });
    expect(unsigned.statusCode).toBe(403);
    expect((await outboxRow(id))?.status).toBe('SENT');

    // Progress that is not final is taken and ignored; the final status is recorded once.
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(address, { MessageSid: sid, MessageStatus: 'sent' })).recorded).toBe(false);
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(address, { MessageSid: sid, MessageStatus: 'delivered', AccountSid: TWILIO.accountSid })).recorded).toBe(true);
    expect((await outboxRow(id))?.status).toBe('DELIVERED');
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(address, { MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' })).recorded).toBe(false);
    expect((await outboxRow(id))?.status).toBe('DELIVERED');
  });

  it('an undelivered receipt is recorded with Twilio’s error code', async () => {
    const id = await sendSms(org.tenant.id, '+84901000002');
    const address = twilio.requests[0]?.form.get('StatusCallback') ?? '';
    await twilioCallback(address, { MessageSid: (await outboxRow(id))?.provider_message_id ?? '', MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect(await outboxRow(id)).toMatchObject({ status: 'UNDELIVERED', last_error: 'twilio error 30003' });
  });

  it('retries after a 5xx and fails at once on a refusal (a wrong number is not retried)', async () => {
    twilio.script.push({ status: 503, body: { code: 20500, message: 'Service Unavailable', status: 503 } });
    const id = await sendSms(org.tenant.id, '+84901000003');
    expect(await outboxRow(id)).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect((await outboxRow(id))?.last_error).toContain('Service Unavailable');
    await asOwner(testDb.ownerUrl, 'UPDATE outbox_messages SET next_attempt_at = now() WHERE id = $1', [id]);
    await app.messaging.drain();
    expect(await outboxRow(id)).toMatchObject({ status: 'SENT', attempts: 2, provider: 'twilio' });
    expect(twilio.requests).toHaveLength(2);

    twilio.script.push({ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    const refused = await sendSms(org.tenant.id, '+840');
    expect(await outboxRow(refused)).toMatchObject({ status: 'FAILED', attempts: 1 });
  });

  it('a callback key of another tenant cannot touch this tenant’s messages', async () => {
    const id = await sendSms(org.tenant.id, '+84901000004');
    const sid = (await outboxRow(id))?.provider_message_id ?? '';
    const other = await createTenant(testDb.database);
    await putGateway(other.id, 'SMS', { provider: 'twilio', sender: '+15005550009', credentials: TWILIO });
    const otherView = dataOf<MessageGateway[]>(await app.inject({ url: gatewayUrl(other.id), ...withSession(superAdmin) }));
    const otherAddress = `${otherView[0]?.callbackUrl ?? ''}?message=${id}`;
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(otherAddress, { MessageSid: sid, MessageStatus: 'delivered' })).recorded).toBe(false);
    expect((await outboxRow(id))?.status).toBe('SENT');
    const unknown = await twilioCallback(`${PUBLIC_URL}/collector/gateway/twilio/${'x'.repeat(43)}/sms`, { MessageSid: sid, MessageStatus: 'delivered' });
    expect([unknown.statusCode, unknown.json<{ code: string }>().code]).toEqual([404, 'gateway.unknownCallback']);
  });
});

describe('eSMS brand-name SMS', () => {
  let callbackUrl: string;
  beforeAll(async () => {
    callbackUrl = dataOf<MessageGateway>(await putGateway(org.tenant.id, 'SMS', { provider: 'esms', sender: 'RPMCARE', credentials: ESMS })).callbackUrl ?? '';
  });
  afterAll(async () => {
    await putGateway(org.tenant.id, 'SMS', { provider: 'local' });
  });

  it('sends a customer-care SMS from the brand name and records the GET receipt', async () => {
    const id = await sendSms(org.tenant.id, '+84901000005');
    expect(esms.requests[0]).toMatchObject({
      ApiKey: ESMS.apiKey,
      SecretKey: ESMS.secretKey,
      Brandname: 'RPMCARE',
      SmsType: '2',
      Phone: '0901000005',
      Content: 'Xin chào',
      IsUnicode: '1',
      RequestId: id,
      CallbackUrl: callbackUrl,
    });
    const sent = await outboxRow(id);
    expect(sent).toMatchObject({ status: 'SENT', provider: 'esms' });
    const path = callbackUrl.slice(PUBLIC_URL.length);
    const pending = await app.inject({ url: `${path}?SMSID=${sent?.provider_message_id ?? ''}&SendFailed=0&SendStatus=7&SendSuccess=0&TotalReceiver=1&RequestId=${id}&TypeId=2` });
    expect(dataOf<{ recorded: boolean }>(pending).recorded).toBe(false);
    const delivered = await app.inject({ url: `${path}?SMSID=${sent?.provider_message_id ?? ''}&SendFailed=0&SendStatus=5&SendSuccess=1&TotalPrice=0&TotalReceiver=1&TotalSent=1&RequestId=${id}&TypeId=2&telcoid=1&phonenumber=0901000005` });
    expect(dataOf<{ recorded: boolean }>(delivered).recorded).toBe(true);
    expect((await outboxRow(id))?.status).toBe('DELIVERED');
  });

  it('a receipt without our RequestId is found by SMSID; a rejected one is not delivered', async () => {
    const id = await sendSms(org.tenant.id, '0901000006');
    expect(esms.requests[0]?.Phone).toBe('0901000006');
    const smsId = (await outboxRow(id))?.provider_message_id ?? '';
    const path = callbackUrl.slice(PUBLIC_URL.length);
    await app.inject({ url: `${path}?SMSID=${smsId}&SendFailed=1&SendStatus=4&SendSuccess=0&RequestId=` });
    expect(await outboxRow(id)).toMatchObject({ status: 'UNDELIVERED', last_error: 'esms: SendStatus 4' });
  });

  it('a refusal (balance, brand name) fails at once; a duplicate RequestId counts as sent', async () => {
    esms.script.push({ status: 200, body: { CodeResult: '104', CountRegenerate: 0, ErrorMessage: 'Brand name code is not exist' } });
    const refused = await sendSms(org.tenant.id, '+84901000007');
    expect(await outboxRow(refused)).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect((await outboxRow(refused))?.last_error).toContain('code 104');
    esms.script.push({ status: 200, body: { CodeResult: '124', CountRegenerate: 0, ErrorMessage: 'Request exist 1', SendStatus: '5' } });
    const duplicate = await sendSms(org.tenant.id, '+84901000008');
    expect(await outboxRow(duplicate)).toMatchObject({ status: 'SENT', provider: 'esms', provider_message_id: duplicate });
    esms.script.push({ status: 502, body: {} });
    const down = await sendSms(org.tenant.id, '+84901000009');
    expect(await outboxRow(down)).toMatchObject({ status: 'PENDING', attempts: 1 });
  });
});

describe('SOS calls through Twilio', () => {
  beforeAll(async () => {
    await putGateway(org.tenant.id, 'CALL', { provider: 'twilio', sender: '+15005550006', credentials: TWILIO });
  });

  const chainCalls = (sosCaseId: string) =>
    asOwner<{ id: string; to_number: string; status: string; provider_call_id: string | null; answered_at: Date | null }>(
      testDb.ownerUrl,
      `SELECT id, to_number, status, provider_call_id, answered_at FROM calls WHERE sos_case_id = $1 AND purpose = 'SOS_FOLLOWER_CALL' ORDER BY created_at, id`,
      [sosCaseId],
    );
  const callRequests = () => twilio.requests.filter((request) => request.resource === 'Calls');

  it('go down the followers one at a time and stop at the first who answers', async () => {
    const outcome = await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientA.id, level: 'SOS', source: 'SOS_BUTTON', alertType: 'CALL' });
    const sosCaseId = outcome.sosCaseId ?? '';
    // One call at first: the favourite follower.
    expect((await chainCalls(sosCaseId)).map((row) => [row.to_number, row.status])).toEqual([['0902000001', 'PENDING']]);
    await runJobs();
    const [first] = callRequests();
    expect(first?.form.get('To')).toBe('0902000001');
    expect(first?.form.get('Twiml')).toContain('<Say language="en-US">This is an emergency call.');
    expect(first?.form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    const firstAddress = first?.form.get('StatusCallback') ?? '';
    const [placed] = await chainCalls(sosCaseId);
    expect(placed).toMatchObject({ status: 'PLACED' });
    expect(firstAddress).toBe(`${PUBLIC_URL}/collector/gateway/twilio/${firstAddress.split('/')[6] ?? ''}/call?call=${placed?.id ?? ''}`);

    // Ringing, then no answer: the next follower is called.
    await twilioCallback(firstAddress, { CallSid: placed?.provider_call_id ?? '', CallStatus: 'ringing' });
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(firstAddress, { CallSid: placed?.provider_call_id ?? '', CallStatus: 'no-answer' })).recorded).toBe(true);
    expect((await chainCalls(sosCaseId)).map((row) => [row.to_number, row.status])).toEqual([
      ['0902000001', 'NO_ANSWER'],
      ['0902000002', 'PENDING'],
    ]);
    // A replayed "no-answer" changes nothing and calls nobody else.
    expect(dataOf<{ recorded: boolean }>(await twilioCallback(firstAddress, { CallSid: placed?.provider_call_id ?? '', CallStatus: 'no-answer' })).recorded).toBe(false);
    expect(await chainCalls(sosCaseId)).toHaveLength(2);

    await runJobs();
    const second = callRequests()[1];
    expect(second?.form.get('To')).toBe('0902000002');
    const secondAddress = second?.form.get('StatusCallback') ?? '';
    const secondSid = (await chainCalls(sosCaseId))[1]?.provider_call_id ?? '';
    await twilioCallback(secondAddress, { CallSid: secondSid, CallStatus: 'in-progress' });
    // A late "ringing" does not take an answered call back.
    await twilioCallback(secondAddress, { CallSid: secondSid, CallStatus: 'ringing' });
    await twilioCallback(secondAddress, { CallSid: secondSid, CallStatus: 'completed', CallDuration: '42' });
    const chain = await chainCalls(sosCaseId);
    expect(chain.map((row) => [row.to_number, row.status])).toEqual([
      ['0902000001', 'NO_ANSWER'],
      ['0902000002', 'COMPLETED'],
    ]);
    expect(chain[1]?.answered_at).not.toBeNull();
    // Nobody else is called: the third follower never is.
    await runJobs();
    expect(callRequests()).toHaveLength(2);
  });

  it('a refused call (a wrong number) moves the chain on at once; a resolved case stops it', async () => {
    await asOwner(testDb.ownerUrl, `UPDATE sos_cases SET status = 'CLOSED', closed_at = now() WHERE patient_id = $1 AND status <> 'CLOSED'`, [org.patientA.id]);
    await asOwner(testDb.ownerUrl, `UPDATE patients SET alerts_suppressed_until_normal = false, status = 'NORMAL' WHERE id = $1`, [org.patientA.id]);
    const outcome = await signal(testDb, clock, { tenantId: org.tenant.id, patientId: org.patientA.id, level: 'SOS', source: 'SOS_BUTTON', alertType: 'CALL' });
    const sosCaseId = outcome.sosCaseId ?? '';
    twilio.script.push({ status: 400, body: { code: 21217, message: 'Phone number does not appear to be valid', status: 400 } });
    await runJobs();
    expect((await chainCalls(sosCaseId)).map((row) => [row.to_number, row.status])).toEqual([
      ['0902000001', 'FAILED'],
      ['0902000002', 'PENDING'],
    ]);
    await runJobs();
    const address = callRequests().at(-1)?.form.get('StatusCallback') ?? '';
    await asOwner(testDb.ownerUrl, `UPDATE sos_cases SET status = 'RESOLVED' WHERE id = $1`, [sosCaseId]);
    await twilioCallback(address, { CallSid: (await chainCalls(sosCaseId))[1]?.provider_call_id ?? '', CallStatus: 'busy' });
    expect((await chainCalls(sosCaseId)).map((row) => row.status)).toEqual(['FAILED', 'BUSY']);
  });
});
