import type { Appointment, DoctorSchedule, ScheduleReport } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createTenantUser } from '../../../test/factories.js';
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
 * The doctor schedule statistical report (spec §2): scheduled hours in the doctor's local periods
 * across a daylight-saving change, appointment counts per period, a no-show once its slot ends,
 * who sees whose report, and the ranges refused.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let toronto: Awaited<ReturnType<typeof createTenantUser>>;
// Tuesday 20 October 2026, before the schedules start (EDT until 1 November 02:00).
const clock = new ManualClock(new Date('2026-10-20T12:00:00Z'));
const appointments: Record<'done' | 'cancelled' | 'absent' | 'coming', Appointment> = {} as never;

const reportOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<ScheduleReport>(response);
};
const report = async (token: string, query: string) =>
  reportOf(await call(app, token, 'GET', `/account/schedules/report?${query}`));
const figures = (rows: ScheduleReport['periods']) =>
  rows.map(({ start, end, booked, completed, cancelled, noShows, open, completionRate }) => ({
    start,
    end,
    booked,
    completed,
    cancelled,
    noShows,
    open,
    completionRate,
  }));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  toronto = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'DOCTOR',
    healthCenterId: org.centerA.id,
    timeZone: 'America/Toronto',
    firstName: 'Toronto',
    lastName: 'Doctor',
  });
  const doctor = await logInAs(app, org.tenant.code, toronto);
  const request = async (body: Record<string, unknown>) => {
    const response = await call(app, doctor, 'POST', '/account/doctor/schedules', body);
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<DoctorSchedule>(response);
  };
  // Every morning 08:00–12:00 for two weeks across the change, and the night of the change itself
  // 00:00–04:00 (01:00–02:00 happens twice: five hours pass).
  const mornings = await request({
    kind: 'WEEKLY',
    startDate: '2026-10-26',
    endDate: '2026-11-08',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    startTime: '08:00',
    endTime: '12:00',
    slotMinutes: 30,
  });
  const night = await request({
    kind: 'SINGLE',
    startDate: '2026-11-01',
    endDate: '2026-11-01',
    startTime: '00:00',
    endTime: '04:00',
    slotMinutes: 60,
  });
  // A request never approved counts for nothing.
  await request({
    kind: 'SINGLE',
    startDate: '2026-11-02',
    endDate: '2026-11-02',
    startTime: '14:00',
    endTime: '16:00',
    slotMinutes: 60,
  });
  const adminA = await logInAs(app, org.tenant.code, org.adminA);
  const decided = await call(app, adminA, 'POST', '/account/schedules/decisions', {
    ids: [mornings.id, night.id],
    decision: 'APPROVE',
  });
  expect(decided.statusCode, decided.body).toBe(200);

  const book = async (patientId: string, startAt: string) => {
    const response = await call(app, doctor, 'POST', '/account/appointments', {
      patientId,
      doctorId: toronto.id,
      startAt,
      reason: 'Blood pressure review',
      place: 'CLINIC',
    });
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<Appointment>(response);
  };
  // 08:00 EDT is 12:00 UTC; 08:00 EST (from 1 November) is 13:00 UTC.
  appointments.done = await book(org.patientA.id, '2026-10-27T12:00:00Z');
  appointments.cancelled = await book(org.patientA2.id, '2026-10-27T12:30:00Z');
  appointments.absent = await book(org.patientA.id, '2026-10-28T12:00:00Z');
  appointments.coming = await book(org.patientA.id, '2026-11-03T13:00:00Z');

  // 08:05 on 27 October: the first is seen, the second called off (a fresh session at that time).
  clock.advance(Date.parse('2026-10-27T12:05:00Z') - clock.now().getTime());
  const later = await logInAs(app, org.tenant.code, toronto);
  const move = async (id: string, body: Record<string, unknown>) => {
    const response = await call(app, later, 'POST', `/account/appointments/${id}/transitions`, body);
    expect(response.statusCode, response.body).toBe(200);
  };
  await move(appointments.done.id, { action: 'start' });
  await move(appointments.done.id, { action: 'complete', diagnosis: 'Stable', advice: 'Keep walking' });
  await move(appointments.cancelled.id, { action: 'cancel', reason: 'Travelling' });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const torontoReport = (data: ScheduleReport) => {
  const entry = data.doctors.find((candidate) => candidate.doctor.id === toronto.id);
  if (entry === undefined) throw new Error('the Toronto doctor is not in the report');
  return entry;
};

describe('scheduled hours', () => {
  it('counts elapsed working time per local day, the night of the change lasting five hours', async () => {
    const doctor = await logInAs(app, org.tenant.code, toronto);
    const data = await report(doctor, 'from=2026-10-31&to=2026-11-02&period=day');
    expect(data.doctors.map((entry) => entry.doctor.id)).toEqual([toronto.id]);
    const entry = torontoReport(data);
    expect(entry.timeZone).toBe('America/Toronto');
    expect(entry.periods.map((row) => [row.start, row.end, row.scheduledMinutes])).toEqual([
      ['2026-10-31', '2026-10-31', 240],
      ['2026-11-01', '2026-11-01', 240 + 300],
      ['2026-11-02', '2026-11-02', 240],
    ]);
    expect(entry.totals.scheduledMinutes).toBe(1020);
  });

  it('cuts ISO weeks and months at the dates asked for', async () => {
    const doctor = await logInAs(app, org.tenant.code, toronto);
    const weeks = torontoReport(await report(doctor, 'from=2026-10-28&to=2026-11-08&period=week'));
    expect(weeks.periods.map((row) => [row.start, row.end, row.scheduledMinutes])).toEqual([
      ['2026-10-28', '2026-11-01', 5 * 240 + 300],
      ['2026-11-02', '2026-11-08', 7 * 240],
    ]);
    const months = torontoReport(await report(doctor, 'from=2026-10-01&to=2026-11-30&period=month'));
    expect(months.periods.map((row) => [row.start, row.end, row.scheduledMinutes])).toEqual([
      ['2026-10-01', '2026-10-31', 6 * 240],
      ['2026-11-01', '2026-11-30', 8 * 240 + 300],
    ]);
  });
});

describe('appointments', () => {
  it('counts per period, a no-show only once its slot has ended', async () => {
    const query = `from=2026-10-26&to=2026-11-08&period=week&doctorId=${toronto.id}`;
    // 08:10 on 28 October: the third appointment's slot (08:00–08:30) is under way.
    clock.advance(Date.parse('2026-10-28T12:10:00Z') - clock.now().getTime());
    let adminA = await logInAs(app, org.tenant.code, org.adminA);
    let data = await report(adminA, query);
    expect(figures(torontoReport(data).periods)).toEqual([
      {
        start: '2026-10-26',
        end: '2026-11-01',
        booked: 3,
        completed: 1,
        cancelled: 1,
        noShows: 0,
        open: 1,
        completionRate: 100,
      },
      {
        start: '2026-11-02',
        end: '2026-11-08',
        booked: 1,
        completed: 0,
        cancelled: 0,
        noShows: 0,
        open: 1,
        completionRate: null,
      },
    ]);
    // 08:30: the slot has ended and nobody checked in.
    clock.advance(20 * 60_000);
    adminA = await logInAs(app, org.tenant.code, org.adminA);
    data = await report(adminA, query);
    const entry = torontoReport(data);
    expect(figures(entry.periods)).toEqual([
      {
        start: '2026-10-26',
        end: '2026-11-01',
        booked: 3,
        completed: 1,
        cancelled: 1,
        noShows: 1,
        open: 0,
        completionRate: 50,
      },
      {
        start: '2026-11-02',
        end: '2026-11-08',
        booked: 1,
        completed: 0,
        cancelled: 0,
        noShows: 0,
        open: 1,
        completionRate: null,
      },
    ]);
    expect(entry.totals).toMatchObject({
      booked: 4,
      completed: 1,
      cancelled: 1,
      noShows: 1,
      open: 1,
      completionRate: 50,
    });
    expect(entry.totals.scheduledMinutes).toBe(14 * 240 + 300);
    // One doctor asked: the sum over doctors is that doctor's.
    expect(data.totals).toEqual(entry.totals);
    // Per day, in the doctor's days.
    const days = torontoReport(
      await report(adminA, `from=2026-10-27&to=2026-10-28&period=day&doctorId=${toronto.id}`),
    );
    expect(days.periods.map((row) => [row.start, row.booked, row.noShows])).toEqual([
      ['2026-10-27', 2, 0],
      ['2026-10-28', 1, 1],
    ]);
  });
});

describe('access', () => {
  it('gives a doctor its own report whatever doctor it names', async () => {
    const doctorA = await logInAs(app, org.tenant.code, org.doctorA);
    const data = await report(doctorA, `from=2026-10-26&to=2026-11-08&period=week&doctorId=${toronto.id}`);
    expect(data.doctors.some((entry) => entry.doctor.id === toronto.id)).toBe(false);
    expect(data.totals).toMatchObject({ scheduledMinutes: 0, booked: 0 });
  });

  it('shows another center’s admin nothing of the doctor', async () => {
    const adminB = await logInAs(app, org.tenant.code, org.adminB);
    for (const query of ['', `&doctorId=${toronto.id}`]) {
      const data = await report(adminB, `from=2026-10-26&to=2026-11-08&period=week${query}`);
      expect(data.doctors).toEqual([]);
      expect(data.totals).toMatchObject({ scheduledMinutes: 0, booked: 0 });
    }
    // The center's own admin and the tenant admin see it among their doctors.
    for (const admin of [org.adminA, org.admin]) {
      const data = await report(
        await logInAs(app, org.tenant.code, admin),
        'from=2026-10-26&to=2026-11-08&period=month',
      );
      expect(data.doctors.map((entry) => entry.doctor.id)).toContain(toronto.id);
    }
  });

  it('refuses callers without the schedule permissions', async () => {
    const operator = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'OPERATOR',
      healthCenterId: org.centerA.id,
    });
    const token = await logInAs(app, org.tenant.code, operator);
    expect(
      codeOf(await call(app, token, 'GET', '/account/schedules/report?from=2026-10-26&to=2026-11-08')),
    ).toBe('auth.permissionDenied');
  });
});

describe('ranges', () => {
  it('refuses a start after the end and more than 366 days, and accepts 366', async () => {
    const adminA = await logInAs(app, org.tenant.code, org.adminA);
    const ask = (query: string) => call(app, adminA, 'GET', `/account/schedules/report?${query}`);
    for (const query of ['from=2026-11-02&to=2026-11-01', 'from=2026-01-01&to=2027-01-03&period=month']) {
      const response = await ask(query);
      expect({ query, status: response.statusCode, code: codeOf(response) }).toEqual({
        query,
        status: 400,
        code: 'schedule.reportRange',
      });
    }
    expect((await ask('from=2026-01-01&to=2027-01-02&period=day')).statusCode).toBe(200);
    for (const query of [
      'from=2026-11-01',
      'from=2026-11-01&to=2026-11-31',
      'from=2026-11-01&to=2026-11-02&period=year',
    ])
      expect((await ask(query)).statusCode).toBe(400);
  });
});
