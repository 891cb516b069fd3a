import type { ForceStatus, InboxPage, LiveServerMessage, NotificationPreference, UnreadCount } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { SESSION_COOKIE } from '../../http/access.js';
import { ManualClock } from '../../lib/clock.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, tokensOf, type CareOrganisation } from '../doctors/test-support.js';

/**
 * The notification centre (spec §3 Notification, §4 read / unread, §7 notification calls): each
 * person's own inbox, the counts, read and read all, mandatory notices, messages from staff, the
 * per-channel preferences, and the notices the care plan and care requests write.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;
const clock = new ManualClock(new Date('2026-12-01T06:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  await app.listen({ host: '127.0.0.1', port: 0 });
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const inbox = async (token: string, query = '') => {
  const response = await call(app, token, 'GET', `/notification/notification/inbox${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<InboxPage>(response);
};
const counts = async (token: string) => dataOf<UnreadCount>(await call(app, token, 'GET', '/notification/getUnreadCount'));
const send = (token: string, body: Record<string, unknown>) => call(app, token, 'POST', '/collector/notification/send', body);
const tick = () => {
  clock.advance(1000);
};

describe('messages from staff and the inbox', () => {
  it('writes one notice per recipient, each reading only its own, newest first with the unread count', async () => {
    const sent = await send(tokens.adminA, {
      userIds: [org.doctorA.id],
      patientIds: [org.patientA.id],
      title: 'Clinic closed on Friday',
      body: 'The clinic is closed on Friday.\nCall the hotline for help.',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(dataOf<{ sent: number }>(sent).sent).toBe(2);
    tick();
    await send(tokens.adminA, { userIds: [org.doctorA.id], title: 'Second', body: 'Another one' });

    const doctor = await inbox(tokens.doctorA);
    expect(doctor.items.map((item) => item.title)).toEqual(['Second', 'Clinic closed on Friday']);
    expect(doctor).toMatchObject({ total: 2, unread: 2, page: 0, size: 15 });
    expect(doctor.items[1]).toMatchObject({
      type: 'MESSAGE',
      kind: 'message',
      body: 'The clinic is closed on Friday.\nCall the hotline for help.',
      force: false,
      read: false,
      readAt: null,
    });
    const patient = await inbox(tokens.patient);
    expect(patient.items.map((item) => item.title)).toEqual(['Clinic closed on Friday']);
    // Nobody else got anything.
    expect((await inbox(tokens.doctorA2)).total).toBe(0);
    expect(await counts(tokens.doctorA)).toEqual({ unread: 2, forcePending: 0 });
    // Paging and filters.
    expect((await inbox(tokens.doctorA, '?page=1&size=1')).items.map((item) => item.title)).toEqual(['Clinic closed on Friday']);
    expect((await inbox(tokens.doctorA, '?type=PRESCRIPTION')).total).toBe(0);
    expect(codeOf(await call(app, tokens.doctorA, 'GET', '/notification/notification/inbox?size=101'))).toBe('common.invalidParameter');
  });

  it('marks one read (someone else’s is not found), twice changing nothing, and all read', async () => {
    const [mine] = (await inbox(tokens.doctorA)).items;
    const [theirs] = (await inbox(tokens.patient)).items;
    if (mine === undefined || theirs === undefined) throw new Error('notices expected');
    const refused = await call(app, tokens.doctorA, 'POST', '/collector/notification/read', { id: theirs.id });
    expect(refused.statusCode).toBe(404);
    expect(codeOf(refused)).toBe('notification.notFound');
    expect((await inbox(tokens.patient)).unread).toBe(1);

    tick();
    const read = await call(app, tokens.doctorA, 'POST', '/collector/notification/read', { id: mine.id });
    expect(dataOf<UnreadCount>(read)).toEqual({ unread: 1, forcePending: 0 });
    const firstReadAt = (await inbox(tokens.doctorA)).items[0]?.readAt;
    expect(firstReadAt).toBe(clock.now().toISOString());
    tick();
    await call(app, tokens.doctorA, 'POST', '/collector/notification/read', { id: mine.id });
    expect((await inbox(tokens.doctorA)).items[0]?.readAt).toBe(firstReadAt);
    expect((await inbox(tokens.doctorA, '?unread=true')).items.map((item) => item.id)).not.toContain(mine.id);

    const all = await call(app, tokens.doctorA, 'POST', '/collector/notification/readAll');
    expect(dataOf<UnreadCount>(all)).toEqual({ unread: 0, forcePending: 0 });
    expect((await inbox(tokens.patient)).unread).toBe(1);
  });

  it('refuses a message without recipients, to someone the sender cannot see, or naming a patient’s account as staff', async () => {
    expect(codeOf(await send(tokens.adminA, { title: 'Hi', body: 'Hello' }))).toBe('notification.noRecipients');
    const elsewhere = await send(tokens.adminA, { patientIds: [org.patientB.id], title: 'Hi', body: 'Hello' });
    expect(elsewhere.statusCode).toBe(404);
    expect(codeOf(elsewhere)).toBe('notification.recipientNotFound');
    expect(codeOf(await send(tokens.adminA, { userIds: [org.patientUser.id], title: 'Hi', body: 'Hello' }))).toBe(
      'notification.recipientNotFound',
    );
    // A hidden character in the title is refused like every name.
    expect(codeOf(await send(tokens.adminA, { userIds: [org.doctorA.id], title: 'a\u202Eb', body: 'x' }))).toBe(
      'common.invalidParameter',
    );
    // Doctors and patients read their notices but send none.
    expect((await send(tokens.doctorA, { userIds: [org.doctorA2.id], title: 'Hi', body: 'Hello' })).statusCode).toBe(403);
    expect((await send(tokens.patient, { userIds: [org.doctorA.id], title: 'Hi', body: 'Hello' })).statusCode).toBe(403);
    const audited = await asOwner<{ n: number }>(testDb.ownerUrl, `SELECT count(*)::int AS n FROM audit_log WHERE action = 'NOTIFICATION_SENT'`);
    expect(audited[0]?.n).toBe(2);
  });
});

describe('another tenant', () => {
  it('neither reads nor marks a notice of this tenant, nor is sent one by it', async () => {
    const other = await createTenant(testDb.database);
    const outsider = await createTenantUser(testDb.database, other.id, { role: 'MAIN_ADMIN' });
    const outsiderToken = await logInAs(app, other.code, outsider);
    const [notice] = (await inbox(tokens.patient)).items;
    if (notice === undefined) throw new Error('a notice expected');
    const refused = await call(app, outsiderToken, 'POST', '/collector/notification/read', { id: notice.id });
    expect(refused.statusCode).toBe(404);
    expect(codeOf(refused)).toBe('notification.notFound');
    expect((await inbox(outsiderToken)).total).toBe(0);
    expect(codeOf(await send(tokens.admin, { userIds: [outsider.id], title: 'Hi', body: 'Hello' }))).toBe('notification.recipientNotFound');
    expect(codeOf(await send(outsiderToken, { patientIds: [org.patientA.id], title: 'Hi', body: 'Hello' }))).toBe('notification.recipientNotFound');
  });
});

describe('mandatory notices', () => {
  it('wait until opened one by one: read all leaves them, status and log tell of them', async () => {
    tick();
    await send(tokens.admin, { userIds: [org.doctorB.id], title: 'New privacy terms', body: 'Please read them.', force: true });
    tick();
    await send(tokens.admin, { userIds: [org.doctorB.id], title: 'Ordinary', body: 'Nothing urgent.' });
    expect(await counts(tokens.doctorB)).toEqual({ unread: 2, forcePending: 1 });
    const status = dataOf<ForceStatus>(await call(app, tokens.doctorB, 'GET', '/notification/status/force'));
    expect(status.pending).toBe(1);
    expect(status.oldest).toMatchObject({ title: 'New privacy terms', force: true, read: false });

    await call(app, tokens.doctorB, 'POST', '/collector/notification/readAll');
    expect(await counts(tokens.doctorB)).toEqual({ unread: 1, forcePending: 1 });

    await call(app, tokens.doctorB, 'POST', '/collector/notification/read', { id: status.oldest?.id });
    expect(await counts(tokens.doctorB)).toEqual({ unread: 0, forcePending: 0 });
    expect(dataOf<ForceStatus>(await call(app, tokens.doctorB, 'GET', '/notification/status/force'))).toEqual({ pending: 0, oldest: null });
    const log = dataOf<InboxPage>(await call(app, tokens.doctorB, 'GET', '/notification/log/force'));
    expect(log.items.map((item) => [item.title, item.read])).toEqual([['New privacy terms', true]]);
  });
});

describe('what the care plan and care requests write', () => {
  const prescription = {
    name: 'Blood pressure',
    rxNumber: 'RX-7',
    diagnosis: 'Hypertension',
    doctorInChargeId: '',
    startDate: '2026-12-01',
    endDate: '2026-12-30',
    refills: 0,
    medicines: [
      {
        name: 'Amlodipine',
        strength: '5 mg',
        dose: 1,
        doseUnit: 'PILL',
        route: 'ORAL',
        form: 'TABLET',
        frequencyCycle: 'DAY',
        timesOfDay: ['MORNING'],
        meal: 'AFTER_MEAL',
        mode: 'ON_SCHEDULE',
        schedule: {
          times: [{ label: 'Morning', time: '08:00' }],
          repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
          startDate: '2026-12-01',
          endDate: null,
        },
      },
    ],
  };

  it('tells the patient of a prescription written, changed and stopped, unless the patient turned it off in the app', async () => {
    const prefs = await call(app, tokens.patient, 'PUT', '/notification/preferences', {
      items: [
        { type: 'PRESCRIPTION', channel: 'IN_APP', enabled: false },
        { type: 'ALERT', channel: 'IN_APP', enabled: false },
      ],
    });
    expect(prefs.statusCode, prefs.body).toBe(200);
    const items = dataOf<{ items: NotificationPreference[] }>(prefs).items;
    expect(items).toHaveLength(9 * 4);
    expect(items.find((item) => item.type === 'PRESCRIPTION' && item.channel === 'IN_APP')).toMatchObject({ enabled: false, changeable: true });
    // Alerts cannot be turned off.
    expect(items.find((item) => item.type === 'ALERT' && item.channel === 'IN_APP')).toMatchObject({ enabled: true, changeable: false });

    const body = { ...prescription, doctorInChargeId: org.doctorA.id };
    const first = await call(app, tokens.doctorA, 'POST', `/health/patients/${org.patientA.id}/prescriptions`, body);
    expect(first.statusCode, first.body).toBe(200);
    expect((await inbox(tokens.patient, '?type=PRESCRIPTION')).total).toBe(0);

    await call(app, tokens.patient, 'PUT', '/notification/preferences', { items: [{ type: 'PRESCRIPTION', channel: 'IN_APP', enabled: true }] });
    const id = dataOf<{ id: string }>(first).id;
    tick();
    const changed = await call(app, tokens.doctorA, 'PUT', `/health/patients/${org.patientA.id}/prescriptions/${id}`, { ...body, refills: 1 });
    expect(changed.statusCode, changed.body).toBe(200);
    const successor = dataOf<{ id: string }>(changed).id;
    tick();
    const stopped = await call(app, tokens.doctorA, 'PUT', `/health/patients/${org.patientA.id}/prescriptions/${successor}/deactivate`);
    expect(stopped.statusCode, stopped.body).toBe(200);

    const notices = (await inbox(tokens.patient, '?type=PRESCRIPTION')).items;
    expect(notices.map((item) => [item.kind, item.link])).toEqual([
      ['prescription.deactivated', '/medicines'],
      ['prescription.replaced', `/medicines/prescriptions/${successor}`],
    ]);
    expect(notices[1]?.params).toMatchObject({ prescriptionName: 'Blood pressure', doctorName: expect.any(String) as string });
    // The doctor who wrote it is not told of its own act.
    expect((await inbox(tokens.doctorA, '?type=PRESCRIPTION')).total).toBe(0);
  });

  it('tells the doctor of a patient’s care request', async () => {
    const asked = await call(app, tokens.patient, 'POST', '/account/requests', {
      kind: 'PATIENT_REQUEST',
      patientId: org.patientA.id,
      doctorId: org.doctorA2.id,
      relation: 'FAMILY',
      message: 'Please take me on',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const [notice] = (await inbox(tokens.doctorA2, '?type=REQUEST')).items;
    expect(notice).toMatchObject({ kind: 'request.received', link: '/requests', params: { name: 'Hung Pham' } });
  });
});

/** A live socket that keeps what it receives. */
async function listen(token: string, after: number | null = null) {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/ws`, {
    headers: { cookie: `${SESSION_COOKIE}=${token}` },
    origin: `http://127.0.0.1:${String(port)}`,
  });
  const received: LiveServerMessage[] = [];
  socket.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8')) as LiveServerMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => {
      resolve();
    });
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'resume', after }));
  const until = async (condition: () => boolean) => {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > 10_000) throw new Error(`timed out; received ${JSON.stringify(received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await until(() => received.some((message) => message.type === 'resumed'));
  const notices = () => received.filter((message) => message.type === 'notification.created');
  return { socket, received, until, notices };
}

describe('live notices', () => {
  it('reach the addressee’s sockets only, live and on a replay, whoever else sees the tenant', async () => {
    const doctor = await listen(tokens.doctorA);
    const colleague = await listen(tokens.doctorA2);
    const wholeTenant = await listen(tokens.admin);
    const patient = await listen(tokens.patient);
    await send(tokens.adminA, { userIds: [org.doctorA.id], patientIds: [org.patientA.id], title: 'Live', body: 'Now' });
    await doctor.until(() => doctor.notices().length === 1);
    await patient.until(() => patient.notices().length === 1);
    expect(doctor.notices()[0]).toMatchObject({ patientId: null, payload: { type: 'MESSAGE', force: false, recipientUserId: org.doctorA.id } });
    // A later event everybody sees proves the others were not merely slow.
    await call(app, tokens.admin, 'POST', `/health/patients/${org.patientA.id}/reminders`, {
      title: 'Walk',
      schedule: { times: [{ label: 'Morning', time: '07:00' }], repeat: { kind: 'WEEKDAYS', weekdays: [1] }, startDate: '2026-12-01', endDate: null },
    });
    await send(tokens.admin, { userIds: [org.admin.id], title: 'To myself', body: 'Marker' });
    await wholeTenant.until(() => wholeTenant.notices().length === 1);
    expect(colleague.notices()).toEqual([]);
    expect(wholeTenant.notices().map((message) => 'payload' in message && message.payload.recipientUserId)).toEqual([org.admin.id]);
    // A replay from the start gives each socket its own notices only.
    const replayed = await listen(tokens.doctorA2, 0);
    // doctorA2's own: the care request of the test above.
    expect(replayed.notices().map((message) => 'payload' in message && message.payload.type)).toEqual(['REQUEST']);
    expect(replayed.notices().every((message) => 'payload' in message && message.payload.recipientUserId === org.doctorA2.id)).toBe(true);
    const replayedAdmin = await listen(tokens.admin, 0);
    expect(replayedAdmin.notices().every((message) => 'payload' in message && message.payload.recipientUserId === org.admin.id)).toBe(true);
    const replayedPatient = await listen(tokens.patient, 0);
    expect(replayedPatient.notices().length).toBeGreaterThanOrEqual(2);
    expect(replayedPatient.notices().every((message) => 'payload' in message && message.payload.recipientUserId === org.patientUser.id)).toBe(true);
    for (const party of [doctor, colleague, wholeTenant, patient, replayed, replayedAdmin, replayedPatient]) party.socket.close();
  });
});

describe('a deleted patient', () => {
  it('takes the notices about it along', async () => {
    const about = `SELECT count(*)::int AS n FROM notifications WHERE patient_id = '${org.patientA.id}'`;
    expect((await asOwner<{ n: number }>(testDb.ownerUrl, about))[0]?.n).toBeGreaterThan(0);
    await asOwner(testDb.ownerUrl, `DELETE FROM patients WHERE id = '${org.patientA.id}'`);
    expect((await asOwner<{ n: number }>(testDb.ownerUrl, about))[0]?.n).toBe(0);
  });
});
