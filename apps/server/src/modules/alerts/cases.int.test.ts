import {
  SOS_CASE_ACTIONS,
  SOS_CASE_STATUSES,
  TICKET_ACTIONS,
  TICKET_STATUSES,
  type SosCaseAction,
  type TicketAction,
} from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let operatorToken: string;
const clock = new ManualClock(new Date('2025-04-01T09:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  operatorToken = await logInAs(app, org.tenant.code, org.operator);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface CaseBody {
  data: {
    id: string;
    status: string;
    ticketId: string | null;
    allowedActions: string[];
    history: { kind: string; note: string }[];
    followers: { id: string }[];
  };
}
const codeOf = (response: { json: () => unknown }) => (response.json() as { code?: string }).code;
const stored = async (table: 'sos_cases' | 'tickets', id: string) =>
  (await asOwner<{ status: string }>(testDb.ownerUrl, `SELECT status FROM ${table} WHERE id = $1`, [id]))[0]
    ?.status;

async function openCase(patientId: string): Promise<CaseBody['data']> {
  const response = await call(app, operatorToken, 'POST', `/account/patients/${patientId}/sos`, {
    note: 'Hotline',
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CaseBody>().data;
}

describe('SOS case machine over the API (contracts SOS_CASE_ACTIONS)', () => {
  it('allows exactly the machine’s moves from every state and refuses the others with sosCase.invalidTransition', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const { id } = await openCase(patient.id);
    const problems: string[] = [];
    for (const from of SOS_CASE_STATUSES) {
      for (const action of Object.keys(SOS_CASE_ACTIONS) as SosCaseAction[]) {
        await asOwner(
          testDb.ownerUrl,
          "UPDATE sos_cases SET status = $2, closed_at = CASE WHEN $2 = 'CLOSED' THEN now() END WHERE id = $1",
          [id, from],
        );
        const response = await call(app, operatorToken, 'PUT', `/account/sos-cases/${id}/${action}`, {
          reason: 'Checked with the family',
        });
        const rule = SOS_CASE_ACTIONS[action];
        const isAllowed = (rule.from as readonly string[]).includes(from);
        const after = await stored('sos_cases', id);
        if (isAllowed && (response.statusCode !== 200 || after !== rule.to))
          problems.push(`${from} ${action}: ${String(response.statusCode)} ${String(after)}`);
        if (
          !isAllowed &&
          (response.statusCode !== 409 || codeOf(response) !== 'sosCase.invalidTransition' || after !== from)
        ) {
          problems.push(
            `${from} ${action} should be refused: ${String(response.statusCode)} ${String(after)}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('requires a reason where the machine says so (sosCase.reasonRequired), changing nothing', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const { id } = await openCase(patient.id);
    const response = await call(app, operatorToken, 'PUT', `/account/sos-cases/${id}/close`, {
      reason: '   ',
    });
    expect([response.statusCode, codeOf(response)]).toEqual([400, 'sosCase.reasonRequired']);
    expect(await stored('sos_cases', id)).toBe('NEW');
  });

  it('takes a case through accept, a follower call, resolve and close; the ticket follows to SUCCESS; all audited', async () => {
    const { id, ticketId, followers } = await openCase(org.patientA.id);
    expect((await call(app, operatorToken, 'PUT', `/account/sos-cases/${id}/accept`, {})).statusCode).toBe(
      200,
    );
    const follower = followers[0]?.id;
    expect(follower).toBeDefined();
    const step = await call(app, operatorToken, 'POST', `/account/sos-cases/${id}/actions`, {
      type: 'CALL_FOLLOWER',
      note: 'Wife on her way',
      contactId: follower,
    });
    expect(step.statusCode, step.body).toBe(200);
    expect(
      (
        await call(app, operatorToken, 'PUT', `/account/sos-cases/${id}/resolve`, {
          reason: 'Ambulance on site',
        })
      ).statusCode,
    ).toBe(200);
    const closed = await call(app, operatorToken, 'PUT', `/account/sos-cases/${id}/close`, {
      reason: 'Patient in hospital',
    });
    const body = closed.json<CaseBody>().data;
    expect(body.status).toBe('CLOSED');
    expect(body.allowedActions).toEqual([]);
    expect(body.history.map((entry) => entry.kind)).toEqual([
      'OPENED',
      'NOTE',
      'ACCEPT',
      'CALL_FOLLOWER',
      'RESOLVE',
      'CLOSE',
    ]);
    expect(await stored('tickets', ticketId ?? '')).toBe('SUCCESS');
    const actions = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY occurred_at, id`,
      [id],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'SOS_CASE_ACCEPTED',
      'SOS_CASE_STEP_LOGGED',
      'SOS_CASE_RESOLVED',
      'SOS_CASE_CLOSED',
    ]);
    // A closed case takes no more actions.
    const late = await call(app, operatorToken, 'POST', `/account/sos-cases/${id}/actions`, {
      type: 'NOTE',
      note: 'late',
    });
    expect([late.statusCode, codeOf(late)]).toEqual([409, 'sosCase.invalidTransition']);
  });

  it('limits the SOS call list to the caller’s centers: another center’s or tenant’s case is not found and stays untouched', async () => {
    const patientB = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerB.id,
      firstName: 'Hoa',
      lastName: 'Le',
    });
    const { id } = await openCase(patientB.id);
    const centerAOperator = await logInAs(app, org.tenant.code, org.operatorA);
    const list = await call(app, centerAOperator, 'GET', '/account/sos-cases?size=200');
    expect(
      list.json<{ data: { items: { id: string }[] } }>().data.items.map((item) => item.id),
    ).not.toContain(id);
    const read = await call(app, centerAOperator, 'GET', `/account/sos-cases/${id}`);
    expect([read.statusCode, codeOf(read)]).toEqual([404, 'sosCase.notFound']);
    const accept = await call(app, centerAOperator, 'PUT', `/account/sos-cases/${id}/accept`, {});
    expect([accept.statusCode, codeOf(accept)]).toEqual([404, 'sosCase.notFound']);
    const other = await createTenant(testDb.database);
    const otherAdmin = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
    const otherToken = await logInAs(app, other.code, otherAdmin);
    const foreign = await call(app, otherToken, 'PUT', `/account/sos-cases/${id}/close`, { reason: 'x' });
    expect([foreign.statusCode, codeOf(foreign)]).toEqual([404, 'sosCase.notFound']);
    expect(await stored('sos_cases', id)).toBe('NEW');
    // A role without health.sos (a doctor) is refused.
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    const doctor = await call(app, doctorToken, 'GET', '/account/sos-cases');
    expect([doctor.statusCode, codeOf(doctor)]).toEqual([403, 'auth.permissionDenied']);
  });
});

describe('ticket machine over the API (contracts TICKET_ACTIONS)', () => {
  async function createTicket(): Promise<string> {
    const response = await call(app, operatorToken, 'POST', '/account/tickets', {
      patientId: org.patientA.id,
      type: 'CONSULTATION',
      title: 'Follow-up call',
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { id: string } }>().data.id;
  }

  it('allows exactly the machine’s moves from every state and refuses the others with ticket.invalidTransition', async () => {
    const id = await createTicket();
    const problems: string[] = [];
    for (const from of TICKET_STATUSES) {
      for (const action of Object.keys(TICKET_ACTIONS) as TicketAction[]) {
        await asOwner(testDb.ownerUrl, 'UPDATE tickets SET status = $2 WHERE id = $1', [id, from]);
        const response = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/${action}`, {
          reason: 'Reason',
        });
        const rule = TICKET_ACTIONS[action];
        const isAllowed = (rule.from as readonly string[]).includes(from);
        const after = await stored('tickets', id);
        if (isAllowed && (response.statusCode !== 200 || after !== rule.to))
          problems.push(`${from} ${action}: ${String(response.statusCode)} ${String(after)}`);
        if (
          !isAllowed &&
          (response.statusCode !== 409 || codeOf(response) !== 'ticket.invalidTransition' || after !== from)
        ) {
          problems.push(
            `${from} ${action} should be refused: ${String(response.statusCode)} ${String(after)}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('needs reasons to cancel and reject, an existing assignee, and rates only finished tickets', async () => {
    const id = await createTicket();
    const cancel = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/cancel`, {});
    expect([cancel.statusCode, codeOf(cancel)]).toEqual([400, 'ticket.reasonRequired']);
    const badAssignee = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/assign`, {
      assigneeId: org.patientA.id,
    });
    expect([badAssignee.statusCode, codeOf(badAssignee)]).toEqual([400, 'ticket.assigneeNotFound']);
    const early = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/rating`, { kpiRating: 4 });
    expect([early.statusCode, codeOf(early)]).toEqual([409, 'ticket.notRatable']);
    expect(await stored('tickets', id)).toBe('NEW');
    for (const action of ['assign', 'start', 'complete'] as const) {
      expect(
        (
          await call(app, operatorToken, 'PUT', `/account/tickets/${id}/${action}`, {
            currentAction: `step ${action}`,
          })
        ).statusCode,
      ).toBe(200);
    }
    const outOfRange = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/rating`, {
      kpiRating: 6,
    });
    expect(outOfRange.statusCode).toBe(400);
    const rated = await call(app, operatorToken, 'PUT', `/account/tickets/${id}/rating`, {
      kpiRating: 4,
      customerRating: 5,
    });
    const body = rated.json<{
      data: {
        kpiRating: number;
        customerRating: number;
        assignee: { id: string };
        history: { action: string }[];
      };
    }>().data;
    expect([body.kpiRating, body.customerRating, body.assignee.id]).toEqual([4, 5, org.operator.id]);
    expect(body.history.map((entry) => entry.action)).toEqual([
      'CREATED',
      'ASSIGN',
      'START',
      'COMPLETE',
      'RATED',
    ]);
  });

  it('lists with filters and answers the statistics', async () => {
    const list = await call(app, operatorToken, 'GET', '/account/tickets?type=CONSULTATION&status=COMPLETED');
    const items = list.json<{ data: { items: { type: string; status: string }[] } }>().data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.type === 'CONSULTATION' && item.status === 'COMPLETED')).toBe(true);
    const statistics = await call(
      app,
      operatorToken,
      'GET',
      '/account/tickets/statistics?from=2025-04-01&to=2025-04-30',
    );
    expect(statistics.statusCode, statistics.body).toBe(200);
    const data = statistics.json<{ data: { total: number; byType: { type: string; count: number }[] } }>()
      .data;
    const [consultations] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM tickets WHERE tenant_id = $1 AND type = 'CONSULTATION'`,
      [org.tenant.id],
    );
    expect(data.byType.find((row) => row.type === 'CONSULTATION')?.count).toBe(consultations?.n);
    const backwards = await call(
      app,
      operatorToken,
      'GET',
      '/account/tickets/statistics?from=2025-04-30&to=2025-04-01',
    );
    expect(backwards.statusCode).toBe(400);
  });
});

describe('followers (spec §3, §5, §9)', () => {
  it('keeps at most 5 emergency contacts, refuses a follower added twice and invalid input, and lists them', async () => {
    const patient = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
    const url = `/account/patients/${patient.id}/contacts`;
    for (let index = 0; index < 5; index++) {
      const added = await call(app, org.adminToken, 'POST', url, {
        contactType: 'EMERGENCY',
        name: 'Friend',
        phone: `090300000${String(index)}`,
        relationship: 'FRIEND',
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    const sixth = await call(app, org.adminToken, 'POST', url, {
      contactType: 'EMERGENCY',
      name: 'Friend',
      phone: '0903000009',
      relationship: 'FRIEND',
    });
    expect([sixth.statusCode, codeOf(sixth)]).toEqual([409, 'careTeam.limitReached']);
    const twice = await call(app, org.adminToken, 'POST', url, {
      contactType: 'CARING',
      name: 'Friend',
      phone: '0903000001',
      relationship: 'FRIEND',
    });
    expect([twice.statusCode, codeOf(twice)]).toEqual([409, 'contact.exists']);
    const digits = await call(app, org.adminToken, 'POST', url, {
      contactType: 'CARING',
      name: 'Friend 2',
      phone: '0903000008',
      relationship: 'FRIEND',
    });
    expect(digits.statusCode).toBe(400);
    const [count] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM patient_contacts WHERE patient_id = $1',
      [patient.id],
    );
    expect(count?.n).toBe(5);
    // Operators may read followers but not change them.
    const listed = await call(app, operatorToken, 'GET', url);
    expect(listed.json<{ data: unknown[] }>().data).toHaveLength(5);
    const denied = await call(app, operatorToken, 'POST', url, {
      contactType: 'CARING',
      name: 'Friend',
      phone: '0903000007',
      relationship: 'FRIEND',
    });
    expect(denied.statusCode).toBe(403);
    // Another center's patient is not found.
    const centerBAdmin = await logInAs(app, org.tenant.code, org.adminB);
    const hidden = await call(app, centerBAdmin, 'GET', url);
    expect([hidden.statusCode, codeOf(hidden)]).toEqual([404, 'patient.notFound']);
  });
});
