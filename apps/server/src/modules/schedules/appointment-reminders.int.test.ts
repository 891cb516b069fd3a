import type { Appointment, DoctorSchedule } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { registeredPeriodicTasks } from '../jobs/registry.js';
import { call, careOrganisation, dataOf, logInAs, type CareOrganisation } from '../doctors/test-support.js';
import { APPOINTMENT_REMINDER_TASK, sendAppointmentReminders } from './appointment-reminders.js';

/** Spec §9: appointment reminders 24 hours and 15 minutes before, on a controlled clock, each once. */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let patientId: string;
let patientEmail: string;
// 09:00 in Ho Chi Minh City, Tuesday the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  patientEmail = `patient-${String(Date.now())}@test.example`;
  const account = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    email: patientEmail,
    language: 'vi',
  });
  patientId = (
    await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: account.id,
    })
  ).id;
  const doctor = await logInAs(app, org.tenant.code, org.doctorA);
  const schedule = dataOf<DoctorSchedule>(
    await call(app, doctor, 'POST', '/account/doctor/schedules', {
      kind: 'WEEKLY',
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      weekdays: [1, 2, 3, 4, 5],
      startTime: '08:00',
      endTime: '12:00',
      slotMinutes: 30,
    }),
  );
  await call(app, await logInAs(app, org.tenant.code, org.adminA), 'POST', '/account/schedules/decisions', {
    ids: [schedule.id],
    decision: 'APPROVE',
  });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const book = async (startAt: string) => {
  const token = await logInAs(app, org.tenant.code, org.adminA);
  const response = await call(app, token, 'POST', '/account/appointments', {
    patientId,
    doctorId: org.doctorA.id,
    startAt,
    reason: 'Blood pressure review',
    place: 'CLINIC',
  });
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<Appointment>(response);
};
const outbox = () =>
  asOwner<{ recipient: string; subject: string; body: string; purpose: string }>(
    testDb.ownerUrl,
    `SELECT recipient, subject, body, purpose FROM outbox_messages WHERE purpose LIKE 'APPOINTMENT_REMINDER_%' ORDER BY created_at, id`,
  );
const passAt = async (iso: string) => {
  clock.advance(Date.parse(iso) - clock.now().getTime());
  return sendAppointmentReminders(testDb.database, clock);
};

describe('appointment reminders', () => {
  it('are queued 24 hours and 15 minutes before, to the patient and the doctor in their languages, once each', async () => {
    // Wednesday 10:00 local (03:00 UTC).
    await book('2026-12-02T03:00:00Z');
    expect(await passAt('2026-12-01T02:30:00Z')).toBe(0);
    // 23 hours 50 minutes before.
    expect(await passAt('2026-12-01T03:10:00Z')).toBe(2);
    expect(await sendAppointmentReminders(testDb.database, clock)).toBe(0);
    const first = await outbox();
    expect(first.map((message) => [message.recipient, message.purpose])).toEqual([
      [patientEmail, 'APPOINTMENT_REMINDER_24H'],
      [org.doctorA.email, 'APPOINTMENT_REMINDER_24H'],
    ]);
    // The patient's in Vietnamese at its local time; the doctor's in its language.
    expect(first[0]?.subject).toBe('Nhắc lịch hẹn ngày 02/12/2026 lúc 10:00');
    expect(first[0]?.body).toContain('tại phòng khám');
    expect(first[1]?.body).toContain('Blood pressure review');
    // 10 minutes before.
    expect(await passAt('2026-12-02T02:50:00Z')).toBe(2);
    expect(await sendAppointmentReminders(testDb.database, clock)).toBe(0);
    expect((await outbox()).slice(2).map((message) => message.purpose)).toEqual([
      'APPOINTMENT_REMINDER_15M',
      'APPOINTMENT_REMINDER_15M',
    ]);
  });

  it('sends only the 15-minute one for a last-minute booking, and nothing for a cancelled appointment', async () => {
    const before = (await outbox()).length;
    const cancelled = await book('2026-12-03T01:00:00Z');
    const token = await logInAs(app, org.tenant.code, org.adminA);
    await call(app, token, 'POST', `/account/appointments/${cancelled.id}/transitions`, {
      action: 'cancel',
      reason: 'Away',
    });
    // 10:20 local on Thursday: an appointment at 10:30 booked now.
    clock.advance(Date.parse('2026-12-03T03:20:00Z') - clock.now().getTime());
    await book('2026-12-03T03:30:00Z');
    expect(await sendAppointmentReminders(testDb.database, clock)).toBe(2);
    expect((await outbox()).slice(before).map((message) => message.purpose)).toEqual([
      'APPOINTMENT_REMINDER_15M',
      'APPOINTMENT_REMINDER_15M',
    ]);
    expect(await passAt('2026-12-03T03:25:00Z')).toBe(0);
  });

  it('runs every minute on the job queue', () => {
    expect(registeredPeriodicTasks().get(APPOINTMENT_REMINDER_TASK)?.schedule).toBe('* * * * *');
  });
});
