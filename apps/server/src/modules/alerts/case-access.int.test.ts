import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, patientOutbox, type AlertOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let operatorToken: string;
let doctorToken: string;
const clock = new ManualClock(new Date('2025-04-01T09:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  operatorToken = await logInAs(app, org.tenant.code, org.operator);
  doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface CaseBody {
  data: { id: string; status: string; ticketId: string | null; allowedActions: string[]; history: { kind: string; note: string }[] };
}
const codeOf = (response: { json: () => unknown }) => (response.json() as { code?: string }).code;

async function openCase(patientId: string): Promise<CaseBody['data']> {
  const response = await call(app, operatorToken, 'POST', `/account/patients/${patientId}/sos`, { note: 'Hotline' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<CaseBody>().data;
}

describe('doctors and SOS cases (the patient access rule decides which patients)', () => {
  it('lets a doctor read the case and ticket of its center’s patient, with no actions offered', async () => {
    const sosCase = await openCase(org.patientA.id);
    const read = await call(app, doctorToken, 'GET', `/account/sos-cases/${sosCase.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<CaseBody>().data.id).toBe(sosCase.id);
    // Reading is not handling: the doctor holds no health.sos, so nothing is offered to it.
    expect(read.json<CaseBody>().data.allowedActions).toEqual([]);
    const ticket = await call(app, doctorToken, 'GET', `/account/tickets/${String(sosCase.ticketId)}`);
    expect(ticket.statusCode, ticket.body).toBe(200);
  });

  it('answers 404 for another center’s case and ticket, as for a missing one', async () => {
    const other = await openCase(org.patientB.id);
    const read = await call(app, doctorToken, 'GET', `/account/sos-cases/${other.id}`);
    expect(read.statusCode).toBe(404);
    expect(codeOf(read)).toBe('sosCase.notFound');
    const ticket = await call(app, doctorToken, 'GET', `/account/tickets/${String(other.ticketId)}`);
    expect(ticket.statusCode).toBe(404);
  });

  it('refuses the doctor every change (accept, actions, hotline SOS) with 403, changing nothing', async () => {
    const sosCase = await call(app, operatorToken, 'GET', `/account/sos-cases?open=true&search=Anh`);
    const id = sosCase.json<{ data: { items: { id: string }[] } }>().data.items[0]?.id ?? '';
    const accept = await call(app, doctorToken, 'PUT', `/account/sos-cases/${id}/accept`, {});
    expect(accept.statusCode).toBe(403);
    expect(codeOf(accept)).toBe('auth.permissionDenied');
    const step = await call(app, doctorToken, 'POST', `/account/sos-cases/${id}/actions`, { type: 'NOTE', note: 'x' });
    expect(step.statusCode).toBe(403);
    const [row] = await asOwner<{ status: string }>(testDb.ownerUrl, 'SELECT status FROM sos_cases WHERE id = $1', [id]);
    expect(row?.status).toBe('NEW');
  });

  it('still offers the operator the machine’s actions', async () => {
    const list = await call(app, operatorToken, 'GET', `/account/sos-cases?open=true&search=Anh`);
    const id = list.json<{ data: { items: { id: string }[] } }>().data.items[0]?.id ?? '';
    const read = await call(app, operatorToken, 'GET', `/account/sos-cases/${id}`);
    expect(read.json<CaseBody>().data.allowedActions).toEqual(['accept', 'close']);
  });
});

describe('calling and texting the patient from the case (spec §3 action taken)', () => {
  it('places a call to the patient’s phone and logs it in the case history', async () => {
    const list = await call(app, operatorToken, 'GET', `/account/sos-cases?open=true&search=Anh`);
    const id = list.json<{ data: { items: { id: string }[] } }>().data.items[0]?.id ?? '';
    const before = await asOwner<{ id: string }>(testDb.ownerUrl, `SELECT id FROM calls WHERE patient_id = $1 AND to_number = '0901000001'`, [org.patientA.id]);
    const step = await call(app, operatorToken, 'POST', `/account/sos-cases/${id}/actions`, { type: 'CALL_PATIENT', note: 'No answer' });
    expect(step.statusCode, step.body).toBe(200);
    const calls = await asOwner<{ id: string; purpose: string; sos_case_id: string }>(
      testDb.ownerUrl,
      `SELECT id, purpose, sos_case_id FROM calls WHERE patient_id = $1 AND to_number = '0901000001'`,
      [org.patientA.id],
    );
    expect(calls.length).toBe(before.length + 1);
    expect(calls.at(-1)).toMatchObject({ purpose: 'SOS_OPERATOR_CALL', sos_case_id: id });
    const last = step.json<CaseBody>().data.history.at(-1);
    expect(last?.kind).toBe('CALL_PATIENT');
    expect(last?.note).toContain('0901000001');
    expect(last?.note).toContain('No answer');
  });

  it('sends an SMS to the patient’s phone through the outbox and logs it', async () => {
    const list = await call(app, operatorToken, 'GET', `/account/sos-cases?open=true&search=Anh`);
    const id = list.json<{ data: { items: { id: string }[] } }>().data.items[0]?.id ?? '';
    const step = await call(app, operatorToken, 'POST', `/account/sos-cases/${id}/actions`, { type: 'SMS_PATIENT', note: 'We are calling you now' });
    expect(step.statusCode, step.body).toBe(200);
    const sent = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'SOS_OPERATOR_SMS');
    expect(sent).toContainEqual(expect.objectContaining({ recipient: '0901000001', channel: 'SMS', body: 'We are calling you now' }));
    const last = step.json<CaseBody>().data.history.at(-1);
    expect(last?.kind).toBe('SMS_PATIENT');
    expect(last?.note).toContain('0901000001');
  });

  it('refuses a call or SMS to a patient with no phone (sosCase.patientNoPhone), logging nothing', async () => {
    const sosCase = await openCase(org.patientB.id);
    const steps = sosCase.history.length;
    for (const type of ['CALL_PATIENT', 'SMS_PATIENT']) {
      const step = await call(app, operatorToken, 'POST', `/account/sos-cases/${sosCase.id}/actions`, { type, note: '' });
      expect(step.statusCode, step.body).toBe(409);
      expect(codeOf(step)).toBe('sosCase.patientNoPhone');
    }
    const read = await call(app, operatorToken, 'GET', `/account/sos-cases/${sosCase.id}`);
    expect(read.json<CaseBody>().data.history.length).toBe(steps);
  });
});
