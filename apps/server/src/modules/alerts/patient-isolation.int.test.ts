import type { LiveServerMessage } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, logIn } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { SESSION_COOKIE } from '../../http/access.js';
import { publishEvent } from '../realtime/publish.js';
import { alertOrganisation, call, type AlertOrganisation } from './test-support.js';

/**
 * A patient account sees its own record and nothing of another patient's, even in its own health
 * center: alerts, followers and live events (contracts patient-access.ts, migration 0017).
 */
let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let neighbour: { id: string };
let patientToken: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  await app.listen({ host: '127.0.0.1', port: 0 });
  org = await alertOrganisation(testDb, app);
  // The patient's account belongs to its health center, as accounts made by staff do.
  await asOwner(testDb.ownerUrl, 'UPDATE users SET health_center_id = $1 WHERE id = $2', [org.centerA.id, org.patientUser.id]);
  // Another patient of the same health center, with an account and a follower of their own.
  const neighbourUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerA.id });
  neighbour = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, userId: neighbourUser.id, phone: '0903000009' });
  const added = await call(app, org.adminToken, 'POST', `/account/patients/${neighbour.id}/contacts`, {
    contactType: 'EMERGENCY',
    name: 'Hoa',
    phone: '0904000009',
    relationship: 'WIFE',
  });
  expect(added.statusCode, added.body).toBe(200);
  await call(app, org.adminToken, 'POST', `/account/patients/${neighbour.id}/sos`, { note: 'Hotline', location: null });
  patientToken = await logIn(app, org.tenant.code, org.patientUser.email ?? '');
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const contactsOf = async (patientId: string) =>
  (await asOwner<{ phone: string }>(testDb.ownerUrl, 'SELECT phone FROM patient_contacts WHERE patient_id = $1 ORDER BY phone', [patientId])).map(
    (row) => row.phone,
  );

describe('a patient account and another patient of its own health center', () => {
  it('reads its own alerts and followers, and neither those of its neighbour (404, as if missing)', async () => {
    expect((await call(app, patientToken, 'GET', `/account/patients/${org.patientA.id}/contacts`)).statusCode).toBe(200);
    expect((await call(app, patientToken, 'GET', `/account/patients/${org.patientA.id}/alerts`)).statusCode).toBe(200);
    for (const path of ['contacts', 'alerts']) {
      const answer = await call(app, patientToken, 'GET', `/account/patients/${neighbour.id}/${path}`);
      expect(answer.statusCode, `${path}: ${answer.body}`).toBe(404);
      expect(answer.body).not.toContain('0904000009');
    }
  });

  it('cannot make itself an emergency contact of its neighbour (and so never gets their SOS SMS)', async () => {
    const before = await contactsOf(neighbour.id);
    const answer = await call(app, patientToken, 'POST', `/account/patients/${neighbour.id}/contacts`, {
      contactType: 'EMERGENCY',
      name: 'Intruder',
      phone: '0901000001',
      relationship: 'FRIEND',
    });
    expect(answer.statusCode, answer.body).toBe(404);
    expect(await contactsOf(neighbour.id)).toEqual(before);
  });

  it('receives its own live events on /ws and not its neighbour’s', async () => {
    const address = app.server.address() as { port: number };
    const socket = new WebSocket(`ws://127.0.0.1:${String(address.port)}/ws`, {
      headers: { cookie: `${SESSION_COOKIE}=${patientToken}`, origin: `http://127.0.0.1:${String(address.port)}` },
    });
    const received: LiveServerMessage[] = [];
    socket.on('message', (data: Buffer) => {
      received.push(JSON.parse(data.toString('utf8')) as LiveServerMessage);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        resolve();
      });
      socket.once('error', reject);
    });
    // From the start: the replay (through the database's policies) and the live stream (the hub).
    socket.send(JSON.stringify({ type: 'resume', after: 0 }));
    const publish = (patientId: string, marker: string) =>
      testDb.database.withTenant(org.tenant.id, (tx) =>
        publishEvent(tx, org.tenant.id, { type: 'sos.opened', patientId, healthCenterId: org.centerA.id, payload: { marker } }),
      );
    await publish(neighbour.id, 'neighbour');
    await publish(org.patientA.id, 'own');
    const deadline = Date.now() + 10_000;
    const markers = () => received.flatMap((message) => ('payload' in message ? [String((message.payload as { marker?: string }).marker)] : []));
    while (!markers().includes('own') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.close();
    expect(markers()).toContain('own');
    expect(markers()).not.toContain('neighbour');
    // The neighbour's SOS case opened above was never replayed to this socket either.
    expect(received.some((message) => 'patientId' in message && message.patientId === neighbour.id)).toBe(false);
  });
});
