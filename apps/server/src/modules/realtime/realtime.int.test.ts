import { LIVE_CLOSE_CODES, type LiveEvent, type LiveServerMessage } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { randomUUID } from 'node:crypto';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { SESSION_COOKIE } from '../../http/access.js';
import { publishEvent, type EventInput } from './publish.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;
let tenant: { id: string; code: string };
let otherTenant: { id: string; code: string };
let centerA: string;
let centerB: string;
let operatorEmail: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  baseUrl = `ws://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}/ws`;
  tenant = await createTenant(testDb.database);
  otherTenant = await createTenant(testDb.database);
  centerA = (await createHealthCenter(testDb.database, tenant.id)).id;
  centerB = (await createHealthCenter(testDb.database, tenant.id)).id;
  operatorEmail =
    (await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR', healthCenterId: centerA }))
      .email ?? '';
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const publish = (tenantId: string, event: EventInput) =>
  testDb.database.withTenant(tenantId, (tx) => publishEvent(tx, tenantId, event));
const sos = (n: number, healthCenterId: string | null = centerA): EventInput => ({
  type: 'sos.opened',
  healthCenterId,
  payload: { n },
});

/** A live client: every message it received, and helpers to wait for some. */
class Client {
  readonly messages: LiveServerMessage[] = [];
  closeCode: number | undefined;
  private waiters: (() => void)[] = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as LiveServerMessage);
      this.notify();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.notify();
    });
  }
  get events(): LiveEvent[] {
    return this.messages.filter((message): message is LiveEvent => message.type !== 'resumed');
  }
  async until(condition: () => boolean, timeoutMilliseconds = 10_000): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMilliseconds)
        throw new Error(`timed out; received ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.socket.once('close', () => {
        resolve();
      });
      this.socket.close();
    });
  }
  private notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** The console page's origin, which a browser sends with the upgrade. */
const pageOrigin = () => new URL(baseUrl.replace(/^ws/, 'http')).origin;

async function connect(token: string | undefined, after: number | null): Promise<Client> {
  const socket = new WebSocket(
    baseUrl,
    token === undefined ? {} : { headers: { cookie: `${SESSION_COOKIE}=${token}` }, origin: pageOrigin() },
  );
  const client = new Client(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => {
      resolve();
    });
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'resume', after }));
  await client.until(() => client.messages.some((message) => message.type === 'resumed'));
  return client;
}

describe('the live channel', () => {
  it('refuses a socket without a valid session', async () => {
    for (const headers of [{}, { cookie: `${SESSION_COOKIE}=not-a-token` }]) {
      const status = await new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(baseUrl, { headers, origin: pageOrigin() });
        socket.once('unexpected-response', (_request, response) => {
          resolve(response.statusCode ?? 0);
        });
        socket.once('open', () => {
          reject(new Error('the socket was accepted'));
        });
      });
      expect(status).toBe(401);
    }
  });

  it('delivers events published while connected, in order, with the message shape', async () => {
    const token = await logIn(app, tenant.code, operatorEmail);
    const client = await connect(token, null);
    const ids: number[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await publish(tenant.id, sos(n)));
    await client.until(() => client.events.length === 5);
    expect(client.events.map((event) => event.payload)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 4 },
      { n: 5 },
    ]);
    const received = client.events.map((event) => event.id);
    expect([...received].sort((a, b) => a - b)).toEqual(received);
    expect(client.events[0]).toMatchObject({ type: 'sos.opened', patientId: null, healthCenterId: centerA });
    expect(Date.parse(client.events[0]?.createdAt ?? '')).not.toBeNaN();
    await client.close();
  });

  it('after a disconnect, resuming from the last id delivers every missed event exactly once', async () => {
    const token = await logIn(app, tenant.code, operatorEmail);
    const first = await connect(token, null);
    for (let n = 1; n <= 3; n++) await publish(tenant.id, sos(n));
    await first.until(() => first.events.length === 3);
    const lastSeen = first.events.at(-1)?.id ?? 0;
    await first.close();
    // Missed while away, some of them committed concurrently.
    await Promise.all([4, 5, 6, 7, 8, 9, 10, 11].map((n) => publish(tenant.id, sos(n))));
    const second = await connect(token, lastSeen);
    await publish(tenant.id, sos(12));
    await second.until(() => second.events.length >= 9);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const payloads = second.events.map((event) => (event.payload as { n: number }).n);
    expect([...payloads].sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(payloads.at(-1)).toBe(12);
    expect(new Set(second.events.map((event) => event.id)).size).toBe(9);
    expect(second.events.every((event) => event.id > lastSeen)).toBe(true);
    await second.close();
  });

  it("never delivers another center's, another tenant's or a center-less event to a center's staff, live or replayed", async () => {
    const token = await logIn(app, tenant.code, operatorEmail);
    const before = await publish(tenant.id, sos(0));
    const client = await connect(token, null);
    await publish(tenant.id, sos(101, centerB));
    await publish(otherTenant.id, sos(102, null));
    // No center: only callers who see the whole tenant receive it (contracts patient-access.ts).
    await publish(tenant.id, sos(103, null));
    await publish(tenant.id, sos(104, centerA));
    await client.until(() => client.events.length === 1);
    const replayed = await connect(token, before - 1);
    await replayed.until(() => replayed.events.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.events.map((event) => event.payload)).toEqual([{ n: 104 }]);
    expect(replayed.events.map((event) => event.payload)).toEqual([{ n: 0 }, { n: 104 }]);
    await client.close();
    await replayed.close();
  });

  it('never delivers an event whose transaction rolled back', async () => {
    const token = await logIn(app, tenant.code, operatorEmail);
    const client = await connect(token, null);
    await expect(
      testDb.database.withTenant(tenant.id, async (tx) => {
        await publishEvent(tx, tenant.id, sos(201));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await publish(tenant.id, sos(202));
    await client.until(() => client.events.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.events.map((event) => event.payload)).toEqual([{ n: 202 }]);
    await client.close();
  });

  it('numbers events in commit order, so a late commit is not skipped by a resume', async () => {
    let releaseFirst: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = testDb.database.withTenant(tenant.id, async (tx) => {
      await publishEvent(tx, tenant.id, sos(301));
      await gate;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const token = await logIn(app, tenant.code, operatorEmail);
    const client = await connect(token, null);
    await publish(tenant.id, sos(302));
    await client.until(() => client.events.length === 1);
    const seen = client.events[0]?.id ?? 0;
    await client.close();
    releaseFirst();
    await first;
    // The earlier-started transaction committed last: its event comes after what the client saw.
    const resumed = await connect(token, seen);
    await resumed.until(() => resumed.events.length === 1);
    expect(resumed.events.map((event) => event.payload)).toEqual([{ n: 301 }]);
    await resumed.close();
  });

  it('closes the socket when the session ends or the account logs in elsewhere', async () => {
    const token = await logIn(app, tenant.code, operatorEmail);
    const client = await connect(token, null);
    expect(
      (await app.inject({ method: 'POST', url: '/auth/logout', ...withSession(token) })).statusCode,
    ).toBe(200);
    await app.realtime.checkConnections();
    await client.until(() => client.closeCode !== undefined);
    expect(client.closeCode).toBe(LIVE_CLOSE_CODES.sessionEnded);

    const second = await connect(await logIn(app, tenant.code, operatorEmail), null);
    await logIn(app, tenant.code, operatorEmail);
    await app.realtime.checkConnections();
    await second.until(() => second.closeCode !== undefined);
    expect(second.closeCode).toBe(LIVE_CLOSE_CODES.loggedInElsewhere);
  });
});

describe('the live channel of followers and holders', () => {
  /** A patient with a follower (a confirmed contact) and a holder with a sub-user, each with an app session. */
  async function people() {
    const { database } = testDb;
    const patientUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA });
    const followerUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerA });
    const holderUser = await createTenantUser(database, tenant.id, { role: 'PATIENT', healthCenterId: centerB });
    const patient = await createPatient(database, tenant.id, { healthCenterId: centerA, userId: patientUser.id });
    await createPatient(database, tenant.id, { healthCenterId: centerA, userId: followerUser.id });
    const subUser = await createPatient(database, tenant.id, { healthCenterId: centerB, accountKind: 'SUB_USER', holderUserId: holderUser.id, relation: 'CHILD' });
    const contactId = randomUUID();
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status, follower_user_id, confirmed_at)
       VALUES ($1, $2, $3, 'CARING', 'Lan', '0912345670', 'FRIEND', 'CONFIRMED', $4, now())`,
      [tenant.id, contactId, patient.id, followerUser.id],
    );
    const tokenOf = async (user: { email: string | null }) => logIn(app, tenant.code, user.email ?? '');
    return { patient, subUser, contactId, patientToken: await tokenOf(patientUser), followerToken: await tokenOf(followerUser), holderToken: await tokenOf(holderUser) };
  }
  const about = (patientId: string, type: EventInput['type'], n: number, healthCenterId: string | null = centerA): EventInput => ({ type, patientId, healthCenterId, payload: { n } });
  const numbers = (client: Client) => client.events.map((event) => (event.payload as { n?: number }).n);

  it("hands a follower the followed patient's SOS, alerts and status, never its tickets or messages, live and replayed", async () => {
    const { patient, patientToken, followerToken } = await people();
    const before = await publish(tenant.id, about(patient.id, 'ticket.created', 400));
    const owner = await connect(patientToken, null);
    const follower = await connect(followerToken, null);
    await publish(tenant.id, about(patient.id, 'ticket.created', 401));
    await publish(tenant.id, about(patient.id, 'message.updated', 402));
    await publish(tenant.id, about(patient.id, 'sos.opened', 403));
    await publish(tenant.id, about(patient.id, 'alert.raised', 404));
    await publish(tenant.id, about(patient.id, 'patient.statusChanged', 405));
    await owner.until(() => owner.events.length === 5);
    await follower.until(() => follower.events.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(numbers(owner)).toEqual([401, 402, 403, 404, 405]);
    expect(numbers(follower)).toEqual([403, 404, 405]);
    // A replay goes through the follower's own transaction: the database's events policy decides.
    const replayed = await connect(followerToken, before - 1);
    await replayed.until(() => replayed.events.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(numbers(replayed)).toEqual([403, 404, 405]);
    for (const client of [owner, follower, replayed]) await client.close();
  });

  it('tells both apps when the patient hides data from the follower, and stops the follower at once when the contact is deleted', async () => {
    const { patient, contactId, patientToken, followerToken } = await people();
    const owner = await connect(patientToken, null);
    const follower = await connect(followerToken, null);
    const hidden = await app.inject({ method: 'PUT', url: `/health/me/followers/${contactId}/hidden`, ...withSession(patientToken), payload: { hiddenKinds: ['HEART_RATE'] } });
    expect(hidden.statusCode).toBe(200);
    await owner.until(() => owner.events.some((event) => event.type === 'follower.changed'));
    await follower.until(() => follower.events.some((event) => event.type === 'follower.changed'));
    expect(follower.events.find((event) => event.type === 'follower.changed')).toMatchObject({ patientId: patient.id, payload: { contactId } });
    // Hidden kinds do not hold back alerts.
    await publish(tenant.id, about(patient.id, 'alert.raised', 501));
    await follower.until(() => numbers(follower).includes(501));

    const removed = await app.inject({ method: 'DELETE', url: `/health/me/followers/${contactId}`, ...withSession(patientToken) });
    expect(removed.statusCode).toBe(200);
    await owner.until(() => owner.events.filter((event) => event.type === 'follower.changed').length === 2);
    const seenBefore = follower.events.length;
    await publish(tenant.id, about(patient.id, 'sos.opened', 502));
    await owner.until(() => numbers(owner).includes(502));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(follower.events.length).toBeLessThanOrEqual(seenBefore + 1);
    expect(numbers(follower)).not.toContain(502);
    for (const client of [owner, follower]) await client.close();
  });

  it("hands a holder every event of its sub-user, and nobody else's", async () => {
    const { subUser, patient, holderToken } = await people();
    const holder = await connect(holderToken, null);
    await publish(tenant.id, about(patient.id, 'sos.opened', 601));
    await publish(tenant.id, about(subUser.id, 'ticket.created', 602, centerB));
    await publish(tenant.id, about(subUser.id, 'alert.raised', 603, centerB));
    await holder.until(() => holder.events.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(numbers(holder)).toEqual([602, 603]);
    await holder.close();
  });
});
