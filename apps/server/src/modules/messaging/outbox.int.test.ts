import getPort from 'get-port';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { DELIVERY_RULES } from './dispatcher.js';
import { startMailCatcher, type MailCatcher } from './mail-catcher.js';
import { enqueueMessage, type OutgoingMessage } from './outbox-store.js';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

let counter = 0;
const newRecipient = () => `outbox-${Date.now()}-${++counter}@test.example`;

interface Row {
  status: string;
  attempts: number;
  provider: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  sent_at: Date | null;
  /** Seconds until the next attempt, by the database clock. */
  wait_seconds: number;
}

async function rowTo(recipient: string): Promise<Row | undefined> {
  const [row] = await asOwner<Row>(
    testDb.ownerUrl,
    `SELECT status, attempts, provider, provider_message_id, last_error, sent_at,
            extract(epoch FROM next_attempt_at - now())::float AS wait_seconds
       FROM outbox_messages WHERE recipient = $1`,
    [recipient],
  );
  return row;
}

async function enqueue(tenantId: string, message: Partial<OutgoingMessage> & { recipient: string }): Promise<void> {
  await testDb.database.withTenant(tenantId, (tx) =>
    enqueueMessage(tx, tenantId, { channel: 'EMAIL', subject: 'Hello', body: 'Body text', purpose: 'TEST', ...message }),
  );
}

// One app (one dispatcher) at a time per block, so no other dispatcher delivers behind a test's back.
describe('over a working SMTP server', () => {
  let app: FastifyInstance;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    app = await createTestApp(testDb.database, { smtpUrl: mail.url });
  });
  afterAll(async () => {
    await app.close();
    await mail.stop();
  });

  it('sends nothing for a transaction that rolled back', async () => {
    const tenant = await createTenant(testDb.database);
    const rolledBack = newRecipient();
    const committed = newRecipient();
    await expect(
      testDb.database.withTenant(tenant.id, async (tx) => {
        await enqueueMessage(tx, tenant.id, { channel: 'EMAIL', recipient: rolledBack, subject: 'Never', body: 'Never sent', purpose: 'TEST' });
        throw new Error('the request failed after queuing');
      }),
    ).rejects.toThrow('the request failed after queuing');
    await enqueue(tenant.id, { recipient: committed });
    await app.messaging.drain();
    await mail.waitFor((message) => message.to.includes(committed));
    expect(await rowTo(rolledBack)).toBeUndefined();
    expect(mail.messages.filter((message) => message.to.includes(rolledBack))).toEqual([]);
  });

  it('delivers over SMTP and records the provider, its message id and the time', async () => {
    const tenant = await createTenant(testDb.database);
    const recipient = newRecipient();
    await enqueue(tenant.id, { recipient, subject: 'Xác minh email của bạn', body: 'Mã xác minh của bạn là 123456.' });
    await app.messaging.drain();
    const received = await mail.waitFor((message) => message.to.includes(recipient));
    expect(received.subject).toBe('Xác minh email của bạn');
    expect(received.text).toBe('Mã xác minh của bạn là 123456.');
    expect(received.headers.get('auto-submitted')).toBe('auto-generated');
    const row = await rowTo(recipient);
    expect(row).toMatchObject({ status: 'SENT', attempts: 1, provider: 'smtp', last_error: null });
    expect(row?.provider_message_id).toBe(received.headers.get('message-id'));
    expect(row?.sent_at).toBeInstanceOf(Date);
  });

  it('finds due messages of every tenant by itself (poll loop), without a kick', async () => {
    const polling = await createTestApp(testDb.database, { smtpUrl: mail.url, outboxPollMilliseconds: 100 });
    await polling.ready();
    try {
      const recipients = [newRecipient(), newRecipient()];
      const tenants = [await createTenant(testDb.database), await createTenant(testDb.database)];
      await enqueue(tenants[0]?.id ?? '', { recipient: recipients[0] ?? '' });
      await enqueue(tenants[1]?.id ?? '', { recipient: recipients[1] ?? '' });
      for (const recipient of recipients) await mail.waitFor((message) => message.to.includes(recipient));
      // The mail can arrive a moment before the dispatcher records it: it sends, then marks.
      for (const recipient of recipients) await expect.poll(async () => (await rowTo(recipient))?.status).toBe('SENT');
    } finally {
      await polling.close();
    }
  });

  it('sends each message once when several dispatchers run at the same time', async () => {
    const second = await createTestApp(testDb.database, { smtpUrl: mail.url });
    try {
      const tenant = await createTenant(testDb.database);
      const recipients = Array.from({ length: 45 }, () => newRecipient());
      await testDb.database.withTenant(tenant.id, async (tx) => {
        for (const recipient of recipients) {
          await enqueueMessage(tx, tenant.id, { channel: 'EMAIL', recipient, subject: 'Once', body: 'Once', purpose: 'TEST' });
        }
      });
      await Promise.all([app.messaging.drain(), second.messaging.drain(), app.messaging.drain()]);
      for (const recipient of recipients) await mail.waitFor((message) => message.to.includes(recipient));
      const received = mail.messages.filter((message) => recipients.some((recipient) => message.to.includes(recipient)));
      expect(received).toHaveLength(recipients.length);
      const rows = await asOwner<{ attempts: number; status: string }>(testDb.ownerUrl, 'SELECT attempts, status FROM outbox_messages WHERE tenant_id = $1', [tenant.id]);
      expect(rows.every((row) => row.status === 'SENT' && row.attempts === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe('with the built-in local providers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp(testDb.database);
  });
  afterAll(async () => {
    await app.close();
  });

  it('records email as delivered by "local" and SMS by "local-sms", keeping the text', async () => {
    const tenant = await createTenant(testDb.database);
    const email = newRecipient();
    const phone = `09${String(Date.now()).slice(-8)}`;
    await enqueue(tenant.id, { recipient: email });
    await enqueue(tenant.id, { channel: 'SMS', recipient: phone, subject: '', body: 'Your code is 654321' });
    await app.messaging.drain();
    const emailRow = await rowTo(email);
    expect(emailRow).toMatchObject({ status: 'SENT', provider: 'local', attempts: 1 });
    expect(emailRow?.provider_message_id).toMatch(/^local-/);
    const smsRow = await rowTo(phone);
    expect(smsRow).toMatchObject({ status: 'SENT', provider: 'local-sms', attempts: 1 });
    expect(smsRow?.provider_message_id).toMatch(/^local-sms-/);
  });
});

describe('with an SMTP server that cannot be reached', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // A free port nobody listens on: every connection is refused.
    app = await createTestApp(testDb.database, { smtpUrl: `smtp://127.0.0.1:${await getPort()}` });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the request, retries with a doubling backoff, then gives up as FAILED', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const recipient = user.email ?? '';
    const request = await app.inject({ method: 'POST', url: '/auth/oauth/otp/mail', payload: { tenant: tenant.code, email: recipient } });
    expect(request.statusCode).toBe(200);

    for (let attempt = 1; attempt <= DELIVERY_RULES.maxAttempts; attempt++) {
      await app.messaging.drain();
      const row = await rowTo(recipient);
      expect(row).toMatchObject({ attempts: attempt, provider: 'smtp', provider_message_id: null, sent_at: null });
      expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
      if (attempt < DELIVERY_RULES.maxAttempts) {
        expect(row?.status).toBe('PENDING');
        const backoff = DELIVERY_RULES.backoffSeconds * 2 ** (attempt - 1);
        expect(row?.wait_seconds).toBeGreaterThan(backoff - 2);
        expect(row?.wait_seconds).toBeLessThanOrEqual(backoff);
        // Not due yet: another pass leaves it alone.
        await app.messaging.drain();
        expect((await rowTo(recipient))?.attempts).toBe(attempt);
        // Let the backoff pass.
        await asOwner(testDb.ownerUrl, 'UPDATE outbox_messages SET next_attempt_at = now() WHERE recipient = $1', [recipient]);
      } else {
        expect(row?.status).toBe('FAILED');
      }
    }
    await asOwner(testDb.ownerUrl, 'UPDATE outbox_messages SET next_attempt_at = now() WHERE recipient = $1', [recipient]);
    await app.messaging.drain();
    expect(await rowTo(recipient)).toMatchObject({ status: 'FAILED', attempts: DELIVERY_RULES.maxAttempts });
  });
});
