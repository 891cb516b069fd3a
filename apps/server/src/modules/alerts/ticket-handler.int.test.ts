import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let handlerToken: string;
let otherToken: string;
const clock = new ManualClock(new Date('2025-05-01T09:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  handlerToken = await logInAs(app, org.tenant.code, org.operator);
  const other = await createTenantUser(testDb.database, org.tenant.id, { role: 'OPERATOR', firstName: 'Olga', lastName: 'Other' });
  otherToken = await logInAs(app, org.tenant.code, other);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const VI_PERMISSION_DENIED = 'Bạn không có quyền truy cập';

interface TicketBody {
  data: { id: string; status: string };
}

async function assignedTicket(): Promise<string> {
  const created = await call(app, handlerToken, 'POST', '/account/tickets', {
    patientId: org.patientA.id,
    type: 'SUPPORT',
    title: 'Watch does not sync',
  });
  expect(created.statusCode, created.body).toBe(200);
  const { id } = created.json<TicketBody>().data;
  const assigned = await call(app, handlerToken, 'PUT', `/account/tickets/${id}/assign`, {});
  expect(assigned.statusCode, assigned.body).toBe(200);
  return id;
}

const stateOf = async (id: string) =>
  (
    await asOwner<{ status: string; history: number; audits: number; events: number }>(
      testDb.ownerUrl,
      `SELECT t.status,
              (SELECT count(*)::int FROM ticket_history h WHERE h.ticket_id = t.id) AS history,
              (SELECT count(*)::int FROM audit_log a WHERE a.target_id = t.id::text) AS audits,
              (SELECT count(*)::int FROM events e WHERE e.payload->>'ticketId' = t.id::text) AS events
         FROM tickets t WHERE t.id = $1`,
      [id],
    )
  )[0];

describe('ticket work by the current handler only', () => {
  it('refuses start by someone who is not the handler (403, spec §8 wording) and leaves the ticket untouched', async () => {
    const id = await assignedTicket();
    const before = await stateOf(id);
    const response = await call(app, otherToken, 'PUT', `/account/tickets/${id}/start`, {});
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ code: 'auth.permissionDenied', message: "You don't have permission to access" });
    expect(await stateOf(id)).toEqual(before);
    expect(before?.status).toBe('CONFIRMED');

    const byHandler = await call(app, handlerToken, 'PUT', `/account/tickets/${id}/start`, {});
    expect(byHandler.statusCode, byHandler.body).toBe(200);
    expect(byHandler.json<TicketBody>().data.status).toBe('PROCESSING');
  });

  it('refuses complete by someone who is not the handler, in the caller’s language', async () => {
    const id = await assignedTicket();
    expect((await call(app, handlerToken, 'PUT', `/account/tickets/${id}/start`, {})).statusCode).toBe(200);
    const before = await stateOf(id);
    const response = await app.inject({
      method: 'PUT',
      url: `/account/tickets/${id}/complete`,
      headers: { 'accept-language': 'vi' },
      cookies: { rpm_session: otherToken },
      payload: {},
    });
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json()).toMatchObject({ code: 'auth.permissionDenied', message: VI_PERMISSION_DENIED });
    expect(await stateOf(id)).toEqual(before);
    expect(before?.status).toBe('PROCESSING');

    // A ticket in process is not taken over (assign is refused from PROCESSING): only its handler completes it.
    expect((await call(app, otherToken, 'PUT', `/account/tickets/${id}/assign`, {})).statusCode).toBe(409);
    const byHandler = await call(app, handlerToken, 'PUT', `/account/tickets/${id}/complete`, {});
    expect(byHandler.statusCode, byHandler.body).toBe(200);
    expect(byHandler.json<TicketBody>().data.status).toBe('COMPLETED');
  });
});
