import type { Appointment, AppointmentSlot, DoctorSchedule } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { ManualClock } from '../../lib/clock.js';
import {
  call,
  careOrganisation,
  codeOf,
  dataOf,
  logInAs,
  type CareOrganisation,
} from '../doctors/test-support.js';

/**
 * Appointments through the API (spec §4 appointment states, §5, §6): booking into free slots of
 * approved schedules, the one-per-slot and one-at-a-time rules, every transition and what it needs,
 * the overdue indicator on a controlled clock, who sees what, and the schedule deletion rule.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let operatorId: string;
let secondPatientId: string;
// 09:00 in Ho Chi Minh City, Tuesday the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));
let scheduleA: DoctorSchedule;

const as = (name: 'doctorA' | 'doctorA2' | 'adminA' | 'adminB') => logInAs(app, org.tenant.code, org[name]);

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  const operator = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'OPERATOR',
    healthCenterId: org.centerA.id,
  });
  operatorId = operator.id;
  operatorLogin = operator;
  const second = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id });
  secondPatientId = second.id;
  // Doctor A works weekday mornings in December; doctor A2 Wednesday mornings; both approved.
  const weekly = (weekdays: number[]) => ({
    kind: 'WEEKLY',
    startDate: '2026-12-01',
    endDate: '2026-12-31',
    weekdays,
    startTime: '08:00',
    endTime: '12:00',
    slotMinutes: 30,
  });
  const doctorA = await logInAs(app, org.tenant.code, org.doctorA);
  scheduleA = dataOf<DoctorSchedule>(
    await call(app, doctorA, 'POST', '/account/doctor/schedules', weekly([1, 2, 3, 4, 5])),
  );
  const doctorA2 = await logInAs(app, org.tenant.code, org.doctorA2);
  const scheduleA2 = dataOf<DoctorSchedule>(
    await call(app, doctorA2, 'POST', '/account/doctor/schedules', weekly([3])),
  );
  const adminA = await logInAs(app, org.tenant.code, org.adminA);
  const decided = await call(app, adminA, 'POST', '/account/schedules/decisions', {
    ids: [scheduleA.id, scheduleA2.id],
    decision: 'APPROVE',
  });
  expect(decided.statusCode, decided.body).toBe(200);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

let operatorLogin: Awaited<ReturnType<typeof createTenantUser>>;
const operatorToken = () => logInAs(app, org.tenant.code, operatorLogin);
const book = (token: string, body: Record<string, unknown>) =>
  call(app, token, 'POST', '/account/appointments', {
    patientId: org.patientA.id,
    doctorId: org.doctorA.id,
    startAt: '2026-12-02T01:00:00Z',
    reason: 'Blood pressure review',
    place: 'CLINIC',
    ...body,
  });
const appointmentOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<Appointment>(response);
};
const move = (token: string, id: string, body: Record<string, unknown>) =>
  call(app, token, 'POST', `/account/appointments/${id}/transitions`, body);

describe('booking', () => {
  it('offers the doctor’s slots of a day, books one, and refuses what is not a free slot', async () => {
    const operator = await operatorToken();
    const slots = dataOf<AppointmentSlot[]>(
      await call(app, operator, 'GET', `/account/doctors/${org.doctorA.id}/slots?date=2026-12-02`),
    );
    // 08:00 to 12:00 local (01:00 to 05:00 UTC) in 30-minute slots.
    expect(slots.map((slot) => slot.startAt)).toEqual(
      [0, 30, 60, 90, 120, 150, 180, 210].map((minutes) =>
        new Date(Date.parse('2026-12-02T01:00:00Z') + minutes * 60_000).toISOString(),
      ),
    );
    expect(slots.every((slot) => slot.free)).toBe(true);
    // Today's slots before 09:00 have begun.
    const today = dataOf<AppointmentSlot[]>(
      await call(app, operator, 'GET', `/account/doctors/${org.doctorA.id}/slots?date=2026-12-01`),
    );
    expect(today.filter((slot) => slot.free).map((slot) => slot.startAt)[0]).toBe('2026-12-01T02:30:00.000Z');

    const booked = appointmentOf(await book(operator, {}));
    expect(booked).toMatchObject({
      status: 'UPCOMING',
      overdue: false,
      scheduleId: scheduleA.id,
      startAt: '2026-12-02T01:00:00.000Z',
      endAt: '2026-12-02T01:30:00.000Z',
      patient: { id: org.patientA.id },
      createdBy: { id: operatorId },
    });
    const after = dataOf<AppointmentSlot[]>(
      await call(app, operator, 'GET', `/account/doctors/${org.doctorA.id}/slots?date=2026-12-02`),
    );
    expect(after.find((slot) => slot.startAt === booked.startAt)?.free).toBe(false);

    expect(codeOf(await book(operator, { patientId: secondPatientId }))).toBe('appointment.slotTaken');
    // The same patient with another doctor at the same time.
    expect(codeOf(await book(operator, { doctorId: org.doctorA2.id }))).toBe('appointment.patientBusy');
    for (const startAt of [
      '2026-12-02T01:10:00Z',
      '2026-12-05T01:00:00Z',
      '2026-12-01T01:00:00Z',
      '2027-01-04T01:00:00Z',
    ])
      expect({
        startAt,
        code: codeOf(await book(operator, { patientId: secondPatientId, startAt })),
      }).toEqual({
        startAt,
        code: 'appointment.notASlot',
      });
    expect((await book(operator, { reason: '' })).statusCode).toBe(400);
  });

  it('lets one of two bookings of the same slot at the same moment through', async () => {
    const operator = await operatorToken();
    const [first, second] = await Promise.all([
      book(operator, { startAt: '2026-12-03T02:00:00Z' }),
      book(operator, { patientId: secondPatientId, startAt: '2026-12-03T02:00:00Z' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
  });

  it('a doctor books its own time only; another center’s admin and another doctor do not see the appointment', async () => {
    const doctorA = await as('doctorA');
    expect((await book(await as('doctorA2'), { startAt: '2026-12-04T01:00:00Z' })).statusCode).toBe(403);
    const own = appointmentOf(
      await book(doctorA, { patientId: secondPatientId, startAt: '2026-12-04T01:00:00Z' }),
    );
    expect(codeOf(await call(app, await as('adminB'), 'GET', `/account/appointments/${own.id}`))).toBe(
      'appointment.notFound',
    );
    expect(codeOf(await call(app, await as('doctorA2'), 'GET', `/account/appointments/${own.id}`))).toBe(
      'appointment.notFound',
    );
    const listed = dataOf<{ items: Appointment[] }>(
      await call(app, await as('adminB'), 'GET', '/account/appointments?size=100'),
    );
    expect(listed.items).toEqual([]);
  });
});

describe('states', () => {
  it('walks check-in, examination, hold and completion with a diagnosis; only its doctor examines', async () => {
    const operator = await operatorToken();
    const doctorA = await as('doctorA');
    const appointment = appointmentOf(await book(operator, { startAt: '2026-12-07T01:00:00Z' }));
    expect(appointmentOf(await move(operator, appointment.id, { action: 'checkIn' })).status).toBe(
      'WAITING_FOR_DOCTOR',
    );
    expect(codeOf(await move(operator, appointment.id, { action: 'start' }))).toBe('appointment.wrongState');
    expect(codeOf(await move(await as('doctorA2'), appointment.id, { action: 'start' }))).toBe(
      'appointment.notFound',
    );
    expect(appointmentOf(await move(doctorA, appointment.id, { action: 'start' })).status).toBe('EXAMINING');
    expect(codeOf(await move(operator, appointment.id, { action: 'cancel', reason: 'x' }))).toBe(
      'appointment.wrongState',
    );
    expect(appointmentOf(await move(doctorA, appointment.id, { action: 'hold' })).status).toBe('PENDING');
    expect(
      codeOf(await move(doctorA, appointment.id, { action: 'complete', diagnosis: 'Hypertension' })),
    ).toBe('appointment.diagnosisRequired');
    const done = appointmentOf(
      await move(doctorA, appointment.id, {
        action: 'complete',
        diagnosis: 'Hypertension, controlled',
        advice: 'Keep the dose; walk daily',
      }),
    );
    expect(done).toMatchObject({
      status: 'COMPLETED',
      diagnosis: 'Hypertension, controlled',
      advice: 'Keep the dose; walk daily',
    });
    expect(codeOf(await move(doctorA, appointment.id, { action: 'start' }))).toBe('appointment.wrongState');
  });

  it('cancels with a reason only, frees the slot, and edits move an upcoming one to another free slot', async () => {
    const operator = await operatorToken();
    const appointment = appointmentOf(await book(operator, { startAt: '2026-12-08T01:00:00Z' }));
    const moved = appointmentOf(
      await call(app, operator, 'PUT', `/account/appointments/${appointment.id}`, {
        startAt: '2026-12-08T02:00:00Z',
        reason: 'Review, moved',
        place: 'ONLINE',
        paid: true,
      }),
    );
    expect(moved).toMatchObject({
      startAt: '2026-12-08T02:00:00.000Z',
      place: 'ONLINE',
      paid: true,
      reason: 'Review, moved',
    });
    expect(codeOf(await move(operator, appointment.id, { action: 'cancel' }))).toBe(
      'appointment.reasonRequired',
    );
    const canceled = appointmentOf(
      await move(operator, appointment.id, { action: 'cancel', reason: 'Patient travelling' }),
    );
    expect(canceled).toMatchObject({ status: 'CANCELED', cancelReason: 'Patient travelling' });
    // Its slot is free for someone else.
    appointmentOf(await book(operator, { patientId: secondPatientId, startAt: '2026-12-08T02:00:00Z' }));
  });

  it('shows an upcoming appointment past its start as overdue', async () => {
    const operator = await operatorToken();
    const appointment = appointmentOf(await book(operator, { startAt: '2026-12-09T03:00:00Z' }));
    expect(appointment.overdue).toBe(false);
    clock.advance(8 * 86_400_000 + 90 * 60_000);
    const later = await operatorToken();
    expect(
      appointmentOf(await call(app, later, 'GET', `/account/appointments/${appointment.id}`)).overdue,
    ).toBe(true);
  });
});

describe('schedules with appointments', () => {
  it('cannot be asked for deletion while appointments are to come; can once they are cancelled', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
    });
    const token = await logInAs(app, org.tenant.code, doctor);
    const schedule = dataOf<DoctorSchedule>(
      await call(app, token, 'POST', '/account/doctor/schedules', {
        kind: 'SINGLE',
        startDate: '2026-12-28',
        endDate: '2026-12-28',
        startTime: '14:00',
        endTime: '15:00',
        slotMinutes: 30,
      }),
    );
    const adminA = await as('adminA');
    await call(app, adminA, 'POST', '/account/schedules/decisions', {
      ids: [schedule.id],
      decision: 'APPROVE',
    });
    const operator = await operatorToken();
    const appointment = appointmentOf(
      await book(operator, {
        doctorId: doctor.id,
        patientId: secondPatientId,
        startAt: '2026-12-28T07:00:00Z',
      }),
    );
    expect(
      codeOf(await call(app, token, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {})),
    ).toBe('schedule.hasAppointments');
    await move(operator, appointment.id, { action: 'cancel', reason: 'Doctor away' });
    const asked = await call(app, token, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {});
    expect(dataOf<DoctorSchedule>(asked).status).toBe('DELETION_REQUESTED');
  });
});

describe('check-in by the sheet’s QR code', () => {
  it('checks in with the signed token within its window; an altered or stale token is not found', async () => {
    const operator = await operatorToken();
    const appointment = appointmentOf(
      await book(operator, { patientId: secondPatientId, startAt: '2026-12-14T01:00:00Z' }),
    );
    const tokenOf = async () =>
      dataOf<{ token: string }>(
        await call(app, await operatorToken(), 'GET', `/account/appointments/${appointment.id}/check-in`),
      ).token;
    const printed = await tokenOf();
    const checkIn = async (token: string) =>
      call(app, await operatorToken(), 'POST', '/account/appointments/check-in', { token });
    // Days before: closed.
    expect(codeOf(await checkIn(printed))).toBe('appointment.checkInClosed');
    // Moved after printing: the old sheet no longer works.
    const moved = await call(app, await operatorToken(), 'PUT', `/account/appointments/${appointment.id}`, {
      startAt: '2026-12-14T01:30:00Z',
      reason: 'Review',
      place: 'CLINIC',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(codeOf(await checkIn(printed))).toBe('appointment.notFound');
    const current = await tokenOf();
    const altered = `${current.slice(0, -1)}${current.endsWith('A') ? 'B' : 'A'}`;
    expect(codeOf(await checkIn(altered))).toBe('appointment.notFound');
    expect(codeOf(await checkIn('not-a-token'))).toBe('appointment.notFound');
    // An hour before its start.
    clock.advance(Date.parse('2026-12-14T00:30:00Z') - clock.now().getTime());
    expect(appointmentOf(await checkIn(current)).status).toBe('WAITING_FOR_DOCTOR');
    expect(codeOf(await checkIn(current))).toBe('appointment.wrongState');
  });
});
