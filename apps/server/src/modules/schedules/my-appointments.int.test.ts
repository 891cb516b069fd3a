import type {
  Appointment,
  AppointmentSlot,
  AppointmentVideo,
  DoctorSchedule,
  LiveServerMessage,
  MyAppointment,
} from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import type { createTenantUser } from '../../../test/factories.js';
import { SESSION_COOKIE } from '../../http/access.js';
import { ManualClock } from '../../lib/clock.js';
import type { Page } from '../care-plan/store.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, type CareOrganisation } from '../doctors/test-support.js';

/**
 * The patient app's appointments and the video room (spec §2 patient app events and appointment
 * states, video meeting room): booking a free slot, the app states, cancelling with a reason, who
 * sees what; the room's parties and hours; call signalling over /ws between the two parties only.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let baseUrl: string;
// 09:00 in Ho Chi Minh City, Tuesday the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));
/** Moves the clock forward to `iso`. */
const at = (iso: string) => {
  clock.advance(new Date(iso).getTime() - clock.now().getTime());
};
let adminLogin: Awaited<ReturnType<typeof createTenantUser>>;

const patient = () => logInAs(app, org.tenant.code, org.patientUser);
const doctor = () => logInAs(app, org.tenant.code, org.doctorA);
function ok200(response: LightMyRequestResponse): LightMyRequestResponse {
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  baseUrl = `ws://127.0.0.1:${String(typeof address === 'object' && address !== null ? address.port : 0)}/ws`;
  org = await careOrganisation(testDb);
  adminLogin = org.adminA;
  const doctorToken = await doctor();
  const schedule = dataOf<DoctorSchedule>(ok200(
    await call(app, doctorToken, 'POST', '/account/doctor/schedules', {
      kind: 'WEEKLY',
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      weekdays: [1, 2, 3, 4, 5],
      startTime: '08:00',
      endTime: '12:00',
      slotMinutes: 30,
    }),
  ));
  const admin = await logInAs(app, org.tenant.code, adminLogin);
  dataOf(ok200(await call(app, admin, 'POST', '/account/schedules/decisions', { ids: [schedule.id], decision: 'APPROVE' })));
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** The appointment e-mails queued so far: recipient and purpose. */
const mails = () =>
  asOwner<{ recipient: string; purpose: string; subject: string }>(
    testDb.ownerUrl,
    `SELECT recipient, purpose, subject FROM outbox_messages WHERE purpose LIKE 'APPOINTMENT_%' OR purpose LIKE 'SCHEDULE_%' ORDER BY created_at, id`,
  );

describe('the patient app’s appointments', () => {
  it('offers the doctor’s free slots, books one, and shows it as booked; staff bookings show as invited, then updated', async () => {
    const token = await patient();
    const slots = dataOf<AppointmentSlot[]>(ok200(
      await call(app, token, 'GET', `/health/me/doctors/${org.doctorA.id}/slots?date=2026-12-02`),
    ));
    expect(slots).toHaveLength(8);
    const booked = dataOf<MyAppointment>(ok200(
      await call(app, token, 'POST', '/health/me/appointments', {
        doctorId: org.doctorA.id,
        startAt: '2026-12-02T01:30:00Z',
        reason: 'Dizzy in the mornings',
        place: 'ONLINE',
      }),
    ));
    expect(booked).toMatchObject({ appState: 'BOOKED', status: 'UPCOMING', place: 'ONLINE', paid: false, videoOpen: false });
    expect(booked.createdBy?.id).toBe(org.patientUser.id);
    // The doctor heard of the schedule's approval, then of the booking; the patient booked it itself.
    expect((await mails()).map((mail) => [mail.recipient, mail.purpose])).toEqual([
      [org.doctorA.email, 'SCHEDULE_APPROVE'],
      [org.doctorA.email, 'APPOINTMENT_BOOKED'],
    ]);
    const after = dataOf<AppointmentSlot[]>(ok200(
      await call(app, token, 'GET', `/health/me/doctors/${org.doctorA.id}/slots?date=2026-12-02`),
    ));
    expect(after.find((slot) => slot.startAt === '2026-12-02T01:30:00.000Z')?.free).toBe(false);
    // The same slot again, and a slot that does not exist.
    expect(
      codeOf(
        await call(app, token, 'POST', '/health/me/appointments', {
          doctorId: org.doctorA.id,
          startAt: '2026-12-02T01:30:00Z',
          reason: 'Again',
        }),
      ),
    ).toBe('appointment.patientBusy');
    expect(
      codeOf(
        await call(app, token, 'POST', '/health/me/appointments', {
          doctorId: org.doctorA.id,
          startAt: '2026-12-02T01:40:00Z',
          reason: 'Off the grid',
        }),
      ),
    ).toBe('appointment.notASlot');

    // The operator side books one for the patient: invited; moved: updated.
    const doctorToken = await doctor();
    const invited = dataOf<Appointment>(ok200(
      await call(app, doctorToken, 'POST', '/account/appointments', {
        patientId: org.patientA.id,
        doctorId: org.doctorA.id,
        startAt: '2026-12-03T01:00:00Z',
        reason: 'Follow-up',
        place: 'CLINIC',
      }),
    ));
    const seen = dataOf<MyAppointment>(ok200(await call(app, token, 'GET', `/health/me/appointments/${invited.id}`)));
    expect(seen.appState).toBe('INVITED');
    // Booked by the doctor: the patient is told, at its account's address.
    expect((await mails()).slice(2).map((mail) => [mail.recipient, mail.purpose])).toEqual([
      [org.patientUser.email, 'APPOINTMENT_BOOKED'],
    ]);
    clock.advance(60_000);
    dataOf(ok200(
      await call(app, await doctor(), 'PUT', `/account/appointments/${invited.id}`, {
        startAt: '2026-12-03T02:00:00Z',
        reason: 'Follow-up',
        place: 'CLINIC',
      }),
    ));
    const page = dataOf<Page<MyAppointment>>(ok200(await call(app, await patient(), 'GET', '/health/me/appointments?when=upcoming')));
    expect(page.items.map((item) => [item.id, item.appState])).toEqual([
      [booked.id, 'BOOKED'],
      [invited.id, 'UPDATED'],
    ]);
    expect(dataOf<Page<MyAppointment>>(ok200(await call(app, await patient(), 'GET', '/health/me/appointments?when=past'))).total).toBe(0);
  });

  it('cancels one still to come with a reason; it then shows as cancelled in the past', async () => {
    const token = await patient();
    const page = dataOf<Page<MyAppointment>>(ok200(await call(app, token, 'GET', '/health/me/appointments')));
    // Another tenant's appointment is not found by the patient's routes or the room; nor is ours by its doctor.
    const far = await careOrganisation(testDb);
    const farDoctor = await logInAs(app, far.tenant.code, far.doctorA);
    const [farSchedule] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `INSERT INTO doctor_schedules (tenant_id, id, doctor_id, health_center_id, kind, start_date, end_date, weekdays, start_time, end_time, slot_minutes, time_zone, status, requested_at)
       VALUES ($1, gen_random_uuid(), $2, $3, 'SINGLE', '2026-12-04', '2026-12-04', ARRAY[5]::smallint[], '08:00', '12:00', 30, 'Asia/Ho_Chi_Minh', 'APPROVED', now()) RETURNING id`,
      [far.tenant.id, far.doctorA.id, far.centerA.id],
    );
    const [farAppointment] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, $3, $4, '2026-12-04T01:00:00Z', '2026-12-04T01:30:00Z', 'Far', 'ONLINE', 'UPCOMING', now(), now()) RETURNING id`,
      [far.tenant.id, far.patientA.id, far.doctorA.id, farSchedule?.id],
    );
    const farId = farAppointment?.id ?? '';
    expect(codeOf(await call(app, token, 'GET', `/health/me/appointments/${farId}`))).toBe('appointment.notFound');
    expect(codeOf(await call(app, token, 'GET', `/health/me/appointments/${farId}/video`))).toBe('appointment.notFound');
    expect(codeOf(await call(app, token, 'POST', `/health/me/appointments/${farId}/cancel`, { reason: 'Not mine' }))).toBe('appointment.notFound');
    expect(codeOf(await call(app, await doctor(), 'GET', `/account/appointments/${farId}/video`))).toBe('appointment.notFound');
    expect(codeOf(await call(app, farDoctor, 'GET', `/account/appointments/${page.items[0]?.id ?? ''}/video`))).toBe('appointment.notFound');
    const target = page.items.find((item) => item.appState === 'UPDATED');
    expect(target).toBeDefined();
    const id = target?.id ?? '';
    const empty = await call(app, token, 'POST', `/health/me/appointments/${id}/cancel`, { reason: ' ' });
    expect(empty.statusCode).toBe(400);
    const canceled = dataOf<MyAppointment>(ok200(
      await call(app, token, 'POST', `/health/me/appointments/${id}/cancel`, { reason: 'Travelling that week' }),
    ));
    expect(canceled).toMatchObject({ appState: 'CANCELED', status: 'CANCELED', cancelReason: 'Travelling that week' });
    expect(
      codeOf(await call(app, token, 'POST', `/health/me/appointments/${id}/cancel`, { reason: 'Again' })),
    ).toBe('appointment.wrongState');
    const past = dataOf<Page<MyAppointment>>(ok200(await call(app, token, 'GET', '/health/me/appointments?when=past')));
    expect(past.items.map((item) => item.id)).toEqual([id]);
    const [audit] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'APPOINTMENT_CANCELED' AND details->>'appointmentId' = $1`,
      [id],
    );
    expect(audit?.n).toBe(1);
    // The move told the patient; the patient's cancellation tells the doctor.
    expect((await mails()).slice(-2).map((mail) => [mail.recipient, mail.purpose])).toEqual([
      [org.patientUser.email, 'APPOINTMENT_UPDATED'],
      [org.doctorA.email, 'APPOINTMENT_CANCELED'],
    ]);
  });

  it('keeps another patient’s appointments out of reach', async () => {
    const doctorToken = await doctor();
    const other = dataOf<Appointment>(ok200(
      await call(app, doctorToken, 'POST', '/account/appointments', {
        patientId: org.patientA2.id,
        doctorId: org.doctorA.id,
        startAt: '2026-12-04T01:00:00Z',
        reason: 'Someone else',
        place: 'CLINIC',
      }),
    ));
    const token = await patient();
    expect(codeOf(await call(app, token, 'GET', `/health/me/appointments/${other.id}`))).toBe('appointment.notFound');
    expect(
      codeOf(await call(app, token, 'POST', `/health/me/appointments/${other.id}/cancel`, { reason: 'Not mine' })),
    ).toBe('appointment.notFound');
    expect(codeOf(await call(app, token, 'GET', `/health/me/appointments/${other.id}/video`))).toBe('appointment.notFound');
    const page = dataOf<Page<MyAppointment>>(ok200(await call(app, token, 'GET', '/health/me/appointments')));
    expect(page.items.map((item) => item.id)).not.toContain(other.id);
  });
});

/** A live socket that records what it receives. */
class Party {
  readonly received: LiveServerMessage[] = [];
  closeCode: number | undefined;
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.received.push(JSON.parse(data.toString('utf8')) as LiveServerMessage);
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
  }
  send(appointmentId: string, signal: Record<string, unknown>): void {
    this.socket.send(JSON.stringify({ type: 'call', appointmentId, signal }));
  }
  calls(): { kind: string; [key: string]: unknown }[] {
    return this.received.flatMap((message) =>
      'signal' in message ? [message.signal as { kind: string }] : [],
    );
  }
  async until(condition: () => boolean): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > 10_000) throw new Error(`timed out; received ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function connect(token: string): Promise<Party> {
  const socket = new WebSocket(baseUrl, {
    headers: { cookie: `${SESSION_COOKIE}=${token}` },
    origin: new URL(baseUrl.replace(/^ws/, 'http')).origin,
  });
  const party = new Party(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => {
      resolve();
    });
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'resume', after: null }));
  await party.until(() => party.received.some((message) => message.type === 'resumed'));
  return party;
}

describe('the video room', () => {
  let online: MyAppointment;
  let clinic: MyAppointment;
  beforeAll(async () => {
    const token = await patient();
    online = dataOf<MyAppointment>(ok200(
      await call(app, token, 'POST', '/health/me/appointments', {
        doctorId: org.doctorA.id,
        startAt: '2026-12-07T02:00:00Z',
        reason: 'Video review',
        place: 'ONLINE',
      }),
    ));
    clinic = dataOf<MyAppointment>(ok200(
      await call(app, token, 'POST', '/health/me/appointments', {
        doctorId: org.doctorA.id,
        startAt: '2026-12-08T02:00:00Z',
        reason: 'In person',
        place: 'CLINIC',
      }),
    ));
  });

  it('opens 10 minutes before the start and closes at the end, for the doctor and the patient only', async () => {
    at('2026-12-07T01:49:00Z');
    const room = dataOf<AppointmentVideo>(ok200(await call(app, await doctor(), 'GET', `/account/appointments/${online.id}/video`)));
    expect(room).toMatchObject({ role: 'DOCTOR', peerName: 'Hung Pham', isOpen: false, opensAt: '2026-12-07T01:50:00.000Z', closesAt: '2026-12-07T02:30:00.000Z' });
    at('2026-12-07T01:50:00Z');
    expect(dataOf<AppointmentVideo>(ok200(await call(app, await patient(), 'GET', `/health/me/appointments/${online.id}/video`)))).toMatchObject({ role: 'PATIENT', isOpen: true });
    const other = await logInAs(app, org.tenant.code, org.doctorA2);
    expect(codeOf(await call(app, other, 'GET', `/account/appointments/${online.id}/video`))).toBe('video.notAParty');
    const admin = await logInAs(app, org.tenant.code, adminLogin);
    expect(codeOf(await call(app, admin, 'GET', `/account/appointments/${online.id}/video`))).toBe('video.notAParty');
  });

  it('relays offers, answers and candidates between the two parties, refuses anyone else, and ends for both on leave', async () => {
    at('2026-12-07T01:55:00Z');
    const doctorSocket = await connect(await doctor());
    const patientSocket = await connect(await patient());
    const intruder = await connect(await logInAs(app, org.tenant.code, org.doctorA2));
    try {
      doctorSocket.send(online.id, { kind: 'ready' });
      await doctorSocket.until(() => doctorSocket.received.some((message) => message.type === 'callJoined'));
      patientSocket.send(online.id, { kind: 'ready' });
      await doctorSocket.until(() => doctorSocket.calls().some((signal) => signal.kind === 'ready'));
      // An offer larger than a NOTIFY payload goes through the table, and keeps its order with what follows.
      const sdp = `v=0\r\n${'a=x-padding:0123456789\r\n'.repeat(600)}`;
      doctorSocket.send(online.id, { kind: 'description', session: 1, description: { type: 'offer', sdp } });
      doctorSocket.send(online.id, {
        kind: 'candidate',
        session: 1,
        candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 },
      });
      await patientSocket.until(() => patientSocket.calls().length >= 2);
      expect(patientSocket.calls().map((signal) => signal.kind)).toEqual(['description', 'candidate']);
      expect((patientSocket.calls()[0] as unknown as { description: { sdp: string } }).description.sdp).toBe(sdp);
      patientSocket.send(online.id, { kind: 'description', session: 1, description: { type: 'answer', sdp: 'v=0\r\n' } });
      await doctorSocket.until(() => doctorSocket.calls().some((signal) => signal.kind === 'description'));

      // A third user is refused and hears nothing.
      intruder.send(online.id, { kind: 'ready' });
      intruder.send(online.id, { kind: 'description', session: 1, description: { type: 'offer', sdp: 'v=0\r\n' } });
      await intruder.until(() => intruder.received.filter((message) => message.type === 'callRefused').length === 2);
      expect(intruder.received.filter((message) => message.type === 'callRefused')).toEqual([
        { type: 'callRefused', appointmentId: online.id, code: 'video.notAParty' },
        { type: 'callRefused', appointmentId: online.id, code: 'video.notAParty' },
      ]);
      expect(intruder.calls()).toEqual([]);

      // A clinic appointment has no call.
      patientSocket.send(clinic.id, { kind: 'ready' });
      await patientSocket.until(() => patientSocket.received.some((message) => message.type === 'callRefused'));
      expect(patientSocket.received.find((message) => message.type === 'callRefused')).toMatchObject({ code: 'video.notOnline' });

      patientSocket.send(online.id, { kind: 'leave' });
      await doctorSocket.until(() => doctorSocket.calls().some((signal) => signal.kind === 'leave'));
    } finally {
      doctorSocket.socket.close();
      patientSocket.socket.close();
      intruder.socket.close();
    }
  });

  it('refuses call messages once the room has closed', async () => {
    at('2026-12-07T02:30:00Z');
    expect(dataOf<AppointmentVideo>(ok200(await call(app, await doctor(), 'GET', `/account/appointments/${online.id}/video`))).isOpen).toBe(false);
    const doctorSocket = await connect(await doctor());
    try {
      doctorSocket.send(online.id, { kind: 'ready' });
      await doctorSocket.until(() => doctorSocket.received.some((message) => message.type === 'callRefused'));
      expect(doctorSocket.received.find((message) => message.type === 'callRefused')).toMatchObject({ code: 'video.roomClosed' });
    } finally {
      doctorSocket.socket.close();
    }
  });
});

describe('appointment changes by SMS (tenant setting APPOINTMENT_SMS)', () => {
  const texts = () =>
    asOwner<{ recipient: string; purpose: string; body: string }>(
      testDb.ownerUrl,
      `SELECT m.recipient, m.purpose, m.body FROM patient_messages link JOIN outbox_messages m ON m.tenant_id = link.tenant_id AND m.id = link.message_id
        WHERE link.patient_id = $1 AND m.channel = 'SMS' AND m.purpose LIKE 'APPOINTMENT_%' ORDER BY m.created_at, m.id`,
      [org.patientA.id],
    );
  const setSms = (value: 'true' | 'false') =>
    asOwner(
      testDb.ownerUrl,
      `INSERT INTO tenant_settings (tenant_id, key, value) VALUES ($1, 'APPOINTMENT_SMS', $2) ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value`,
      [org.tenant.id, value],
    );

  it('texts the patient where the tenant turned it on, unless the patient turned SMS off for appointments', async () => {
    await asOwner(testDb.ownerUrl, `UPDATE patients SET phone = '0909000111' WHERE id = $1`, [org.patientA.id]);
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = NULL WHERE id = $1`, [org.patientUser.id]);
    const book = async (startAt: string) =>
      dataOf<Appointment>(ok200(
        await call(app, await doctor(), 'POST', '/account/appointments', {
          patientId: org.patientA.id,
          doctorId: org.doctorA.id,
          startAt,
          reason: 'Blood pressure review',
          place: 'CLINIC',
        }),
      ));
    // Off (the default): no SMS.
    const quiet = await book('2026-12-21T01:00:00Z');
    expect(await texts()).toEqual([]);
    await setSms('true');
    // On: the booking is texted from the center's hotline, in the patient's language.
    dataOf(ok200(await call(app, await doctor(), 'PUT', `/account/appointments/${quiet.id}`, { startAt: '2026-12-21T02:00:00Z', reason: 'Blood pressure review', place: 'CLINIC' })));
    const [moved] = await texts();
    expect(moved).toMatchObject({ recipient: '0909000111', purpose: 'APPOINTMENT_UPDATED' });
    expect(moved?.body).toMatch(/^.+: (Appointment changed: |Lịch hẹn đã thay đổi: ngày )/);
    // The patient turns SMS off for appointments: the next change is not texted.
    ok200(await call(app, await patient(), 'PUT', '/notification/preferences', { items: [{ type: 'APPOINTMENT', channel: 'SMS', enabled: false }] }));
    dataOf(ok200(await call(app, await doctor(), 'PUT', `/account/appointments/${quiet.id}`, { startAt: '2026-12-21T03:00:00Z', reason: 'Blood pressure review', place: 'CLINIC' })));
    expect(await texts()).toHaveLength(1);
    await setSms('false');
    // Cancelled by the patient itself (no SMS about its own act), so later tests find no appointment of it here.
    ok200(await call(app, await patient(), 'POST', `/health/me/appointments/${quiet.id}/cancel`, { reason: 'Moved away' }));
    expect(await texts()).toHaveLength(1);
  });
});

describe('a schedule with appointments to come', () => {
  it('cancels them with one reason, telling each patient, and then may be asked for deletion', async () => {
    const doctorToken = await doctor();
    const mine = dataOf<{ items: DoctorSchedule[] }>(ok200(await call(app, doctorToken, 'GET', '/account/doctor/schedules')));
    const schedule = mine.items.find((item) => item.status === 'APPROVED');
    if (schedule === undefined) throw new Error('no approved schedule');
    const booked = dataOf<Appointment>(
      ok200(
        await call(app, doctorToken, 'POST', '/account/appointments', {
          patientId: org.patientA.id,
          doctorId: org.doctorA.id,
          startAt: '2026-12-09T02:00:00Z',
          reason: 'Review',
          place: 'CLINIC',
        }),
      ),
    );
    expect(codeOf(await call(app, doctorToken, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {}))).toBe(
      'schedule.hasAppointments',
    );
    // Another doctor cannot touch it; a reason is needed.
    const other = await logInAs(app, org.tenant.code, org.doctorA2);
    expect(
      codeOf(await call(app, other, 'POST', `/account/doctor/schedules/${schedule.id}/cancel-appointments`, { reason: 'Not mine' })),
    ).toBe('schedule.notFound');
    expect((await call(app, doctorToken, 'POST', `/account/doctor/schedules/${schedule.id}/cancel-appointments`, { reason: '' })).statusCode).toBe(400);
    const before = (await mails()).length;
    const result = dataOf<{ canceled: number }>(
      ok200(
        await call(app, doctorToken, 'POST', `/account/doctor/schedules/${schedule.id}/cancel-appointments`, {
          reason: 'The doctor is away that week',
        }),
      ),
    );
    // This one and the patient's clinic visit of the 8th; the online one of the 7th has ended.
    expect(result.canceled).toBe(2);
    const seen = dataOf<Appointment>(ok200(await call(app, doctorToken, 'GET', `/account/appointments/${booked.id}`)));
    expect(seen).toMatchObject({ status: 'CANCELED', cancelReason: 'The doctor is away that week' });
    const told = (await mails()).slice(before);
    expect(told.length).toBe(result.canceled);
    expect(told.every((mail) => mail.purpose === 'APPOINTMENT_CANCELED' && mail.recipient !== org.doctorA.email)).toBe(true);
    ok200(await call(app, doctorToken, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {}));
  });
});
