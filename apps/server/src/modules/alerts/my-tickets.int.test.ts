import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let operatorToken: string;
let patientToken: string;
const clock = new ManualClock(new Date('2025-05-01T09:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  operatorToken = await logInAs(app, org.tenant.code, org.operator);
  patientToken = await logInAs(app, org.tenant.code, org.patientUser);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface MyTicketBody {
  id: string;
  number: number;
  status: string;
  title: string;
  rating: number | null;
  ratingMessage: string;
  ratedAt: string | null;
  ratable: boolean;
}

async function openTicket(patientId: string, title: string): Promise<string> {
  const response = await call(app, operatorToken, 'POST', '/account/tickets', {
    patientId,
    type: 'SUPPORT',
    title,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { id: string } }>().data.id;
}

async function move(id: string, ...actions: string[]): Promise<void> {
  for (const action of actions) {
    const response = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/${action}`, {});
    expect(response.statusCode, response.body).toBe(200);
  }
}

const myTickets = async () => {
  const response = await call(app, patientToken, 'GET', '/health/me/tickets?size=50');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { items: MyTicketBody[]; total: number } }>().data;
};

describe('the patient’s own tickets', () => {
  it('lists the patient’s tickets only, newest first, and lets it rate one once the work is done', async () => {
    const strap = await openTicket(org.patientA.id, 'Watch strap replacement');
    clock.advance(60_000);
    const charger = await openTicket(org.patientA.id, 'Charger does not charge');
    const others = await openTicket(org.patientB.id, 'Another patient’s request');

    const before = await myTickets();
    expect(before.items.map((ticket) => ticket.title)).toEqual([
      'Charger does not charge',
      'Watch strap replacement',
    ]);
    expect(before.total).toBe(2);
    expect(before.items.every((ticket) => !ticket.ratable && ticket.rating === null)).toBe(true);

    // Not before the work is done.
    const early = await call(app, patientToken, 'PUT', `/health/me/tickets/${strap}/rating`, { rating: 5 });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ code: 'ticket.notRatable' });

    await move(strap, 'assign', 'start', 'complete');
    clock.advance(60_000);
    const rated = await call(app, patientToken, 'PUT', `/health/me/tickets/${strap}/rating`, {
      rating: 4,
      message: 'Quick, but I had to call twice',
    });
    expect(rated.statusCode, rated.body).toBe(200);
    expect(rated.json<{ data: MyTicketBody }>().data).toMatchObject({
      id: strap,
      status: 'COMPLETED',
      rating: 4,
      ratingMessage: 'Quick, but I had to call twice',
      ratedAt: clock.now().toISOString(),
      ratable: true,
    });

    // A second rating replaces the first; closing the ticket keeps it ratable.
    await move(strap, 'close');
    const again = await call(app, patientToken, 'PUT', `/health/me/tickets/${strap}/rating`, { rating: 5 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ data: MyTicketBody }>().data).toMatchObject({
      status: 'SUCCESS',
      rating: 5,
      ratingMessage: '',
    });

    // Staff see the patient's rating on the ticket, with a history entry by the patient.
    const detail = await call(app, operatorToken, 'GET', `/account/tickets/${strap}`);
    const body = detail.json<{
      data: {
        customerRating: number;
        customerRatingMessage: string;
        history: { action: string; actor: { id: string } | null }[];
      };
    }>().data;
    expect(body).toMatchObject({ customerRating: 5, customerRatingMessage: '' });
    const ratings = body.history.filter((entry) => entry.action === 'RATED');
    expect(ratings.map((entry) => entry.actor?.id)).toEqual([org.patientUser.id, org.patientUser.id]);
    const audits = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'TICKET_RATED' AND target_id = $1::text AND details->>'byPatient' = 'true'`,
      [strap],
    );
    expect(audits[0]?.n).toBe(2);
    const events = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM events WHERE type = 'ticket.updated' AND payload->>'ticketId' = $1::text AND payload->>'rated' = 'true'`,
      [strap],
    );
    expect(events[0]?.n).toBe(2);

    const after = await myTickets();
    expect(after.items.find((ticket) => ticket.id === strap)).toMatchObject({ rating: 5, ratable: true });
    expect(after.items.find((ticket) => ticket.id === charger)).toMatchObject({
      rating: null,
      ratable: false,
    });
    expect(after.items.some((ticket) => ticket.id === others)).toBe(false);
  });

  it('answers ticket.notFound for another patient’s ticket and refuses a rating outside 1 to 5', async () => {
    const others = await openTicket(org.patientB.id, 'Someone else’s ticket');
    await move(others, 'assign', 'start', 'complete');
    const foreign = await call(app, patientToken, 'PUT', `/health/me/tickets/${others}/rating`, {
      rating: 3,
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'ticket.notFound' });
    const [stored] = await asOwner<{ customer_rating: number | null }>(
      testDb.ownerUrl,
      'SELECT customer_rating FROM tickets WHERE id = $1',
      [others],
    );
    expect(stored?.customer_rating).toBeNull();

    const own = await openTicket(org.patientA.id, 'Out of range');
    await move(own, 'assign', 'start', 'complete');
    for (const rating of [0, 6, 2.5]) {
      const refused = await call(app, patientToken, 'PUT', `/health/me/tickets/${own}/rating`, { rating });
      expect(refused.statusCode, `${String(rating)}: ${refused.body}`).toBe(400);
    }
    const tooLong = await call(app, patientToken, 'PUT', `/health/me/tickets/${own}/rating`, {
      rating: 3,
      message: 'x'.repeat(1001),
    });
    expect(tooLong.statusCode, tooLong.body).toBe(400);
  });

  it('has nothing for a staff login', async () => {
    const response = await call(app, operatorToken, 'GET', '/health/me/tickets');
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toMatchObject({ code: 'health.noPatientProfile' });
  });

  it('lets staff record a rating given over the phone, which replaces the patient’s message', async () => {
    const id = await openTicket(org.patientA.id, 'Phone rating');
    await move(id, 'assign', 'start', 'complete');
    const byPatient = await call(app, patientToken, 'PUT', `/health/me/tickets/${id}/rating`, {
      rating: 2,
      message: 'Slow',
    });
    expect(byPatient.statusCode, byPatient.body).toBe(200);
    const byStaff = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/rating`, {
      customerRating: 3,
    });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(byStaff.json()).toMatchObject({ data: { customerRating: 3, customerRatingMessage: '' } });
    const mine = await myTickets();
    expect(mine.items.find((ticket) => ticket.id === id)).toMatchObject({ rating: 3, ratingMessage: '' });
  });
});
