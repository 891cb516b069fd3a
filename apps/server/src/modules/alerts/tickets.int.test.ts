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
let operatorToken: string;
let otherOperator: { id: string; email: string | null };
let otherOperatorToken: string;
let doctorToken: string;
const clock = new ManualClock(new Date('2025-05-01T09:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  operatorToken = await logInAs(app, org.tenant.code, org.operator);
  otherOperator = await createTenantUser(testDb.database, org.tenant.id, { role: 'OPERATOR', firstName: 'Oscar', lastName: 'Operator' });
  otherOperatorToken = await logInAs(app, org.tenant.code, otherOperator);
  doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface TicketBody {
  data: {
    id: string;
    type: string;
    status: string;
    assignee: { id: string } | null;
    allowedActions: string[];
    history: { action: string }[];
  };
}
const detailOf = (response: { json: () => unknown }) => (response.json() as TicketBody).data;

async function supportTicket(): Promise<string> {
  const response = await call(app, operatorToken, 'POST', '/account/tickets', {
    patientId: org.patientA.id,
    type: 'SUPPORT',
    title: 'Watch strap replacement',
  });
  expect(response.statusCode, response.body).toBe(200);
  return detailOf(response).id;
}

const countOf = async (query: string, id: string) =>
  (await asOwner<{ n: number }>(testDb.ownerUrl, query, [id]))[0]?.n;

describe('ticket assignment', () => {
  it('is idempotent: assigning the current assignee again changes nothing and adds no history, audit or event', async () => {
    const id = await supportTicket();
    const first = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/assign`, {});
    expect(first.statusCode, first.body).toBe(200);
    expect(detailOf(first)).toMatchObject({ status: 'CONFIRMED', assignee: { id: org.operator.id } });
    const [before] = await asOwner<{ updated_at: string }>(testDb.ownerUrl, 'SELECT updated_at::text FROM tickets WHERE id = $1', [id]);

    clock.advance(60_000);
    const again = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/assign`, {});
    expect(again.statusCode, again.body).toBe(200);
    const explicit = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/assign`, { assigneeId: org.operator.id });
    expect(explicit.statusCode, explicit.body).toBe(200);
    // Someone else handing it to the same handler changes nothing either.
    const byOther = await call(app, otherOperatorToken, 'PUT', `/account/tickets/${id}/assign`, { assigneeId: org.operator.id });
    expect(byOther.statusCode, byOther.body).toBe(200);

    const detail = detailOf(byOther);
    expect(detail.history.map((entry) => entry.action)).toEqual(['CREATED', 'ASSIGN']);
    expect(detail).toMatchObject({ status: 'CONFIRMED', assignee: { id: org.operator.id } });
    const [after] = await asOwner<{ updated_at: string }>(testDb.ownerUrl, 'SELECT updated_at::text FROM tickets WHERE id = $1', [id]);
    expect(after?.updated_at).toBe(before?.updated_at);
    expect(await countOf(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'TICKET_ASSIGNED' AND target_id = $1::text`, id)).toBe(1);
    expect(await countOf(`SELECT count(*)::int AS n FROM events WHERE type = 'ticket.updated' AND payload->>'ticketId' = $1::text`, id)).toBe(1);

    // Handing it to someone else is a change: one more entry.
    const taken = await call(app, otherOperatorToken, 'PUT', `/account/tickets/${id}/assign`, {});
    expect(detailOf(taken)).toMatchObject({ assignee: { id: otherOperator.id } });
    expect(detailOf(taken).history.map((entry) => entry.action)).toEqual(['CREATED', 'ASSIGN', 'ASSIGN']);
  });

  it('offers the actions of the current state and actor: no "assign to me" for the handler, start and complete only for the handler, nothing for a reader', async () => {
    const id = await supportTicket();
    const read = async (token: string) => detailOf(await call(app, token, 'GET', `/account/tickets/${id}`)).allowedActions;
    expect(await read(operatorToken)).toEqual(['assign', 'cancel']);

    await call(app, operatorToken, 'PUT', `/account/tickets/${id}/assign`, {});
    expect(await read(operatorToken)).toEqual(['start', 'cancel']);
    // Another operator may take the ticket over or cancel it, not work it in the handler's place.
    expect(await read(otherOperatorToken)).toEqual(['assign', 'cancel']);

    await call(app, operatorToken, 'PUT', `/account/tickets/${id}/start`, {});
    expect(await read(operatorToken)).toEqual(['complete', 'cancel']);
    expect(await read(otherOperatorToken)).toEqual(['cancel']);

    await call(app, operatorToken, 'PUT', `/account/tickets/${id}/complete`, {});
    // The check (send back or close) is anyone's who handles tickets.
    expect(await read(operatorToken)).toEqual(['reject', 'close']);
    expect(await read(otherOperatorToken)).toEqual(['reject', 'close']);

    // A doctor reads the tickets of patients in their care (health.view) and acts on none.
    const asDoctor = await call(app, doctorToken, 'GET', `/account/tickets/${id}`);
    expect(asDoctor.statusCode, asDoctor.body).toBe(200);
    expect(detailOf(asDoctor).allowedActions).toEqual([]);
  });
});
