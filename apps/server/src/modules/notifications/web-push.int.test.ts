import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:https';
import type { PushPayload } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import ece from 'http_ece';
import webPush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock } from '../../lib/clock.js';
import { call, careOrganisation, codeOf, dataOf, tokensOf, type CareOrganisation } from '../doctors/test-support.js';

/**
 * Web Push end to end (spec §7 push/key, subscribe, unsubscribe): a local push service takes the
 * server's requests as a browser vendor's would (RFC 8030), checks the VAPID signature (RFC 8292)
 * and decrypts each payload with the subscription's private key and auth secret (RFC 8291), as the
 * browser does; a subscription the service says is gone (410) is forgotten.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;
let pushService: Server;
let serviceUrl: string;
const clock = new ManualClock(new Date('2026-12-01T06:00:00Z'));

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}
const received: Received[] = [];
/** What the push service answers next, per path (default 201 Created). */
const answers = new Map<string, number>();

beforeAll(async () => {
  const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8');
  // A push service over TLS (web-push speaks only https), its certificate trusted through WEB_PUSH_CA_FILE's setting.
  pushService = createServer({ key: fixture('push-service.key'), cert: fixture('push-service.crt') }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(answers.get(request.url ?? '') ?? 201, { location: `${serviceUrl}/messages/${String(received.length)}` });
      response.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, '127.0.0.1', resolve));
  const address = pushService.address();
  serviceUrl = `https://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}`;
  testDb = await createTestDatabase();
  app = await createTestApp(
    testDb.database,
    { webPush: { ...webPush.generateVAPIDKeys(), subject: 'mailto:push@test.example', ca: fixture('push-service.crt') } },
    clock,
  );
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await new Promise((resolve) => pushService.close(resolve));
});

/** A browser's side of a subscription: its key pair and auth secret. */
function browser(path: string) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const auth = randomBytes(16);
  return {
    keys,
    auth,
    subscription: {
      endpoint: `${serviceUrl}${path}`,
      keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
    /** Decrypts a pushed body as the browser would (aes128gcm, the sender's key in the header). */
    open(body: Buffer): PushPayload {
      const text = ece.decrypt(body, { version: 'aes128gcm', privateKey: keys, authSecret: auth.toString('base64url') });
      return JSON.parse(text.toString('utf8')) as PushPayload;
    },
  };
}

/** Checks the VAPID JWT (ES256) of a push request with the server's public key. */
function vapidClaims(headers: IncomingMessage['headers'], publicKey: string): Record<string, unknown> {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(headers.authorization ?? '');
  expect(match?.[2]).toBe(publicKey);
  const token = match?.[1] ?? '';
  const [head, claims, signature] = token.split('.');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  expect(verify('sha256', Buffer.from(`${head ?? ''}.${claims ?? ''}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature ?? '', 'base64url'))).toBe(true);
  return JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('Web Push', () => {
  it('pushes a notice to the subscribed browser, encrypted for it and signed with the server’s VAPID key, naming no one', async () => {
    const key = dataOf<{ publicKey: string }>(await call(app, tokens.patient, 'GET', '/notification/push/key')).publicKey;
    expect(key).toBe(app.config.webPush.publicKey);
    const phone = browser('/push/phone');
    const subscribed = await call(app, tokens.patient, 'POST', '/notification/push/subscribe', phone.subscription);
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    // Subscribing again keeps one subscription.
    await call(app, tokens.patient, 'POST', '/notification/push/subscribe', phone.subscription);
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM push_subscriptions')).toHaveLength(1);

    // The push is written in the recipient's language.
    await asOwner(testDb.ownerUrl, `UPDATE users SET language = 'vi' WHERE id = '${org.patientUser.id}'`);
    await call(app, tokens.adminA, 'POST', '/collector/notification/send', {
      patientIds: [org.patientA.id],
      title: 'Your results are ready',
      body: 'Dr. Tran reviewed your blood test.',
    });
    await app.messaging.drain();
    expect(received).toHaveLength(1);
    const [push] = received;
    if (push === undefined) throw new Error('a push expected');
    expect(push.path).toBe('/push/phone');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBe(86_400);
    expect(push.body.toString('utf8')).not.toContain('results');
    const claims = vapidClaims(push.headers, key);
    expect(claims).toMatchObject({ aud: serviceUrl, sub: 'mailto:push@test.example' });
    const payload = phone.open(push.body);
    const [notice] = dataOf<{ items: { id: string }[] }>(await call(app, tokens.patient, 'GET', '/notification/notification/inbox')).items;
    // The lock screen shows the kind and asks to open the app: no title, name or result.
    expect(payload).toEqual({ notificationId: notice?.id, title: 'Tin nhắn', body: 'Mở ứng dụng để xem chi tiết.', link: null });
    const sent = await asOwner<{ status: string; provider: string }>(testDb.ownerUrl, `SELECT status, provider FROM outbox_messages WHERE channel = 'PUSH'`);
    expect(sent).toEqual([{ status: 'SENT', provider: 'webpush' }]);
  });

  it('pushes nothing for a type the person turned push off for, and forgets a subscription the service says is gone', async () => {
    await call(app, tokens.patient, 'PUT', '/notification/preferences', { items: [{ type: 'MESSAGE', channel: 'PUSH', enabled: false }] });
    await call(app, tokens.adminA, 'POST', '/collector/notification/send', { patientIds: [org.patientA.id], title: 'Quiet', body: 'No push' });
    await app.messaging.drain();
    expect(received).toHaveLength(1);

    await call(app, tokens.patient, 'PUT', '/notification/preferences', { items: [{ type: 'MESSAGE', channel: 'PUSH', enabled: true }] });
    answers.set('/push/phone', 410);
    await call(app, tokens.adminA, 'POST', '/collector/notification/send', { patientIds: [org.patientA.id], title: 'Gone', body: 'Expired' });
    await app.messaging.drain();
    expect(received).toHaveLength(2);
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM push_subscriptions')).toHaveLength(0);
    const failed = await asOwner<{ status: string; attempts: number }>(
      testDb.ownerUrl,
      `SELECT status, attempts FROM outbox_messages WHERE channel = 'PUSH' ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    expect(failed).toEqual([{ status: 'FAILED', attempts: 1 }]);
  });

  it('unsubscribes only the caller’s own endpoint, and refuses a malformed subscription', async () => {
    const tablet = browser('/push/tablet');
    await call(app, tokens.patient, 'POST', '/notification/push/subscribe', tablet.subscription);
    await call(app, tokens.doctorA, 'POST', '/notification/push/unsubscribe', { endpoint: tablet.subscription.endpoint });
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM push_subscriptions')).toHaveLength(1);
    await call(app, tokens.patient, 'POST', '/notification/push/unsubscribe', { endpoint: tablet.subscription.endpoint });
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM push_subscriptions')).toHaveLength(0);
    const bad = await call(app, tokens.patient, 'POST', '/notification/push/subscribe', {
      endpoint: 'javascript:alert(1)',
      keys: { p256dh: 'x', auth: 'y' },
    });
    expect(codeOf(bad)).toBe('common.invalidParameter');
  });
});
