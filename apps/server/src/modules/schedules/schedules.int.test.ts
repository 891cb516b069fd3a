import type { DoctorSchedule, ScheduleDecisionResult, ScheduleOccurrence } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
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
 * Doctor schedules through the API (spec §4 doctor schedule states, §5 conflicts, §6 doctors
 * request and center admins decide): every transition, single and bulk decisions, the conflict
 * rule, what each center's admin sees, and the calendar's instants in the schedule's time zone.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
const tokens: Record<string, string> = {};
// 09:00 in Ho Chi Minh City (the tenant's default zone), Tuesday the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  for (const [name, user] of Object.entries({
    doctorA: org.doctorA,
    doctorA2: org.doctorA2,
    doctorB: org.doctorB,
    adminA: org.adminA,
    adminB: org.adminB,
    admin: org.admin,
  }))
    tokens[name] = await logInAs(app, org.tenant.code, user);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const weekly = (overrides: Record<string, unknown> = {}) => ({
  kind: 'WEEKLY',
  startDate: '2026-12-07',
  endDate: '2027-01-31',
  weekdays: [1, 3, 5],
  startTime: '08:00',
  endTime: '12:00',
  slotMinutes: 30,
  ...overrides,
});
const single = (date: string, startTime: string, endTime: string) => ({
  kind: 'SINGLE',
  startDate: date,
  endDate: date,
  startTime,
  endTime,
  slotMinutes: 30,
});
const requestAs = (token: string, body: unknown) =>
  call(app, token, 'POST', '/account/doctor/schedules', body);
const decide = (token: string, body: unknown) =>
  call(app, token, 'POST', '/account/schedules/decisions', body);
const fieldsOf = (response: LightMyRequestResponse) =>
  (response.json<{ fieldErrors?: { field: string; code: string }[] }>().fieldErrors ?? []).map(
    (error) => `${error.field}:${error.code}`,
  );
const scheduleOf = (response: LightMyRequestResponse) => {
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<DoctorSchedule>(response);
};
const listIds = async (token: string, url: string) =>
  dataOf<{ items: DoctorSchedule[] }>(await call(app, token, 'GET', url)).items.map((item) => item.id);

describe('requesting schedules', () => {
  it('a doctor requests a weekly schedule: NEW, in its center and the tenant’s time zone, audited', async () => {
    const schedule = scheduleOf(await requestAs(tokens.doctorA ?? '', weekly({ note: 'Mornings' })));
    expect(schedule).toMatchObject({
      doctor: { id: org.doctorA.id },
      healthCenter: { id: org.centerA.id },
      kind: 'WEEKLY',
      weekdays: [1, 3, 5],
      startTime: '08:00',
      endTime: '12:00',
      timeZone: 'Asia/Ho_Chi_Minh',
      status: 'NEW',
      displayStatus: 'NEW',
      note: 'Mornings',
      decidedBy: null,
    });
    const [audit] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'SCHEDULE_REQUESTED' AND target_id = $1`,
      [schedule.id],
    );
    expect(audit?.n).toBe(1);
  });

  it('refuses each §5 rule with its field, a start in the past, and callers who are not doctors', async () => {
    const doctor = tokens.doctorA ?? '';
    const cases: [unknown, string[]][] = [
      [single('2026-12-10', '10:00', '09:00'), ['endTime:startAfterEnd']],
      [single('2026-12-10', '10:00', '10:15'), ['endTime:shorterThanSlot']],
      [{ ...single('2026-12-10', '08:00', '09:00'), endDate: '2026-12-11' }, ['endDate:singleOneDay']],
      [weekly({ weekdays: [] }), ['weekdays:weekdaysRequired']],
      [weekly({ startDate: '2026-12-08', endDate: '2026-12-09', weekdays: [5] }), ['weekdays:noDayInRange']],
      [weekly({ endDate: '2026-12-01' }), ['endDate:endDateBeforeStart']],
      [weekly({ endDate: '2028-01-31' }), ['endDate:tooLong']],
    ];
    for (const [body, fields] of cases) {
      const response = await requestAs(doctor, body);
      expect({ body, code: codeOf(response), fields: fieldsOf(response) }).toEqual({
        body,
        code: 'schedule.invalid',
        fields,
      });
    }
    expect(codeOf(await requestAs(doctor, single('2026-11-30', '08:00', '09:00')))).toBe('schedule.pastDate');
    expect((await requestAs(tokens.adminA ?? '', single('2026-12-10', '08:00', '09:00'))).statusCode).toBe(
      403,
    );
  });

  it('refuses a schedule that overlaps another of the doctor’s; touching ends, other days and other doctors are fine', async () => {
    const doctor = tokens.doctorA ?? '';
    // Wednesday 9 December 11:00-13:00 overlaps the weekly 08:00-12:00 on Wednesdays.
    expect(codeOf(await requestAs(doctor, single('2026-12-09', '11:00', '13:00')))).toBe('schedule.conflict');
    expect(
      codeOf(await requestAs(doctor, weekly({ weekdays: [5], startTime: '07:00', endTime: '08:30' }))),
    ).toBe('schedule.conflict');
    scheduleOf(await requestAs(doctor, single('2026-12-09', '12:00', '13:00')));
    scheduleOf(await requestAs(doctor, single('2026-12-08', '09:00', '10:00')));
    scheduleOf(await requestAs(tokens.doctorA2 ?? '', weekly()));
    // Two requests for the same hours at the same moment: one is taken, one conflicts.
    const [first, second] = await Promise.all([
      requestAs(doctor, single('2026-12-15', '14:00', '15:00')),
      requestAs(doctor, single('2026-12-15', '14:30', '15:30')),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
  });
});

describe('deciding on schedules', () => {
  it('a center’s admin approves several at once and rejects with a reason; another center’s admin sees none of them', async () => {
    const pending = await listIds(
      tokens.adminA ?? '',
      `/account/schedules?status=NEW&doctorId=${org.doctorA.id}&size=50`,
    );
    expect(pending.length).toBeGreaterThanOrEqual(4);
    expect(await listIds(tokens.adminB ?? '', '/account/schedules?status=NEW&size=50')).toEqual([]);
    const [toReject, ...toApprove] = pending;
    const outsider = dataOf<ScheduleDecisionResult>(
      await decide(tokens.adminB ?? '', { ids: pending, decision: 'APPROVE' }),
    );
    expect(outsider.results.every((result) => result.error === 'schedule.notFound')).toBe(true);
    expect(codeOf(await decide(tokens.doctorA ?? '', { ids: pending, decision: 'APPROVE' }))).toBe(
      'auth.permissionDenied',
    );

    const approved = dataOf<ScheduleDecisionResult>(
      await decide(tokens.adminA ?? '', { ids: toApprove, decision: 'APPROVE' }),
    );
    expect(approved.results.map((result) => [result.status, result.error])).toEqual(
      toApprove.map(() => ['APPROVED', null]),
    );
    expect(codeOf(await decide(tokens.adminA ?? '', { ids: [toReject], decision: 'REJECT' }))).toBe(
      'schedule.reasonRequired',
    );
    const rejected = await decide(tokens.adminA ?? '', {
      ids: [toReject],
      decision: 'REJECT',
      reason: 'On leave that week',
    });
    expect(dataOf<ScheduleDecisionResult>(rejected).results).toEqual([
      { id: toReject, status: 'REJECTED', error: null },
    ]);
    const shown = scheduleOf(
      await call(app, tokens.doctorA ?? '', 'GET', `/account/schedules/${toReject ?? ''}`),
    );
    expect(shown).toMatchObject({
      status: 'REJECTED',
      reason: 'On leave that week',
      decidedBy: { id: org.adminA.id },
    });
    // Decided already: left as it is, with the reason.
    const again = dataOf<ScheduleDecisionResult>(
      await decide(tokens.adminA ?? '', { ids: toApprove.slice(0, 1), decision: 'REJECT', reason: 'x' }),
    );
    expect(again.results[0]).toMatchObject({ status: 'APPROVED', error: 'schedule.wrongState' });
  });

  it('deletion of an approved schedule is a request the admin decides; a rejected one is withdrawn by its doctor', async () => {
    const doctor = tokens.doctorA ?? '';
    const schedule = scheduleOf(await requestAs(doctor, single('2026-12-22', '08:00', '10:00')));
    expect(
      codeOf(await call(app, doctor, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {})),
    ).toBe('schedule.wrongState');
    await decide(tokens.adminA ?? '', { ids: [schedule.id], decision: 'APPROVE' });
    // Only its own doctor asks.
    expect(
      codeOf(
        await call(
          app,
          tokens.doctorA2 ?? '',
          'POST',
          `/account/doctor/schedules/${schedule.id}/deletion`,
          {},
        ),
      ),
    ).toBe('schedule.notFound');
    expect(codeOf(await call(app, doctor, 'DELETE', `/account/doctor/schedules/${schedule.id}`))).toBe(
      'schedule.wrongState',
    );
    const asked = scheduleOf(
      await call(app, doctor, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {
        reason: 'Conference',
      }),
    );
    expect(asked.status).toBe('DELETION_REQUESTED');
    await decide(tokens.adminA ?? '', {
      ids: [schedule.id],
      decision: 'REJECT',
      reason: 'Patients are booked',
    });
    expect(scheduleOf(await call(app, doctor, 'GET', `/account/schedules/${schedule.id}`))).toMatchObject({
      status: 'APPROVED',
      reason: 'Patients are booked',
    });
    await call(app, doctor, 'POST', `/account/doctor/schedules/${schedule.id}/deletion`, {});
    const removed = dataOf<ScheduleDecisionResult>(
      await decide(tokens.adminA ?? '', { ids: [schedule.id], decision: 'APPROVE' }),
    );
    expect(removed.results[0]?.status).toBe('DELETED');
    expect(await listIds(doctor, '/account/doctor/schedules?size=100')).not.toContain(schedule.id);
    // Its hours are free again.
    scheduleOf(await requestAs(doctor, single('2026-12-22', '08:00', '10:00')));

    const rejected = (await listIds(doctor, '/account/doctor/schedules?status=REJECTED'))[0] ?? '';
    expect(
      scheduleOf(await call(app, doctor, 'DELETE', `/account/doctor/schedules/${rejected}`)).status,
    ).toBe('DELETED');
    const actions = await asOwner<{ action: string }>(
      testDb.ownerUrl,
      `SELECT action FROM audit_log WHERE target_id = $1 ORDER BY occurred_at, id`,
      [schedule.id],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'SCHEDULE_REQUESTED',
      'SCHEDULE_APPROVED',
      'SCHEDULE_DELETION_REQUESTED',
      'SCHEDULE_DELETION_REJECTED',
      'SCHEDULE_DELETION_REQUESTED',
      'SCHEDULE_DELETION_APPROVED',
    ]);
  });
});

describe('calendars', () => {
  it('shows each approved working period as instants; pending ones only when asked', async () => {
    const week = (extra = '') =>
      call(
        app,
        tokens.adminA ?? '',
        'GET',
        `/account/schedules/calendar?from=2026-12-07&to=2026-12-13&doctorId=${org.doctorA.id}${extra}`,
      );
    const approved = dataOf<ScheduleOccurrence[]>(await week());
    expect(approved.map((entry) => [entry.date, entry.startAt, entry.endAt])).toEqual(
      expect.arrayContaining([
        // 08:00 to 12:00 in Ho Chi Minh City (UTC+7) on Monday, Wednesday and Friday.
        ['2026-12-07', '2026-12-07T01:00:00.000Z', '2026-12-07T05:00:00.000Z'],
        ['2026-12-09', '2026-12-09T01:00:00.000Z', '2026-12-09T05:00:00.000Z'],
        ['2026-12-11', '2026-12-11T01:00:00.000Z', '2026-12-11T05:00:00.000Z'],
      ]),
    );
    expect(approved.every((entry) => entry.status === 'APPROVED')).toBe(true);
    const pendingRequest = scheduleOf(
      await requestAs(tokens.doctorA ?? '', single('2026-12-12', '14:00', '16:00')),
    );
    expect(
      dataOf<ScheduleOccurrence[]>(await week()).some((entry) => entry.scheduleId === pendingRequest.id),
    ).toBe(false);
    expect(
      dataOf<ScheduleOccurrence[]>(await week('&withPending=true')).find(
        (entry) => entry.scheduleId === pendingRequest.id,
      ),
    ).toMatchObject({
      status: 'NEW',
      startAt: '2026-12-12T07:00:00.000Z',
    });
    // Another center's admin sees none of it.
    const outside = await call(
      app,
      tokens.adminB ?? '',
      'GET',
      `/account/schedules/calendar?from=2026-12-07&to=2026-12-13&doctorId=${org.doctorA.id}`,
    );
    expect(dataOf<ScheduleOccurrence[]>(outside)).toEqual([]);
  });

  it('keeps 09:00 the doctor’s wall clock across a daylight-saving change (America/Toronto)', async () => {
    const doctor = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'DOCTOR',
      healthCenterId: org.centerA.id,
      timeZone: 'America/Toronto',
    });
    const token = await logInAs(app, org.tenant.code, doctor);
    const schedule = scheduleOf(
      await requestAs(
        token,
        weekly({
          startDate: '2027-03-08',
          endDate: '2027-03-19',
          weekdays: [1],
          startTime: '09:00',
          endTime: '11:00',
        }),
      ),
    );
    expect(schedule.timeZone).toBe('America/Toronto');
    await decide(tokens.adminA ?? '', { ids: [schedule.id], decision: 'APPROVE' });
    const days = dataOf<ScheduleOccurrence[]>(
      await call(
        app,
        tokens.adminA ?? '',
        'GET',
        `/account/schedules/calendar?from=2027-03-01&to=2027-03-31&doctorId=${doctor.id}`,
      ),
    );
    // EST (UTC-5) on 8 March, EDT (UTC-4) from 14 March.
    expect(days.map((entry) => entry.startAt)).toEqual([
      '2027-03-08T14:00:00.000Z',
      '2027-03-15T13:00:00.000Z',
    ]);
  });

  it('shows an approved schedule whose last day has passed as EXPIRED', async () => {
    const schedule = scheduleOf(
      await requestAs(tokens.doctorB ?? '', single('2026-12-02', '08:00', '09:00')),
    );
    await decide(tokens.adminB ?? '', { ids: [schedule.id], decision: 'APPROVE' });
    clock.advance(3 * 86_400_000);
    const token = await logInAs(app, org.tenant.code, org.doctorB);
    expect(scheduleOf(await call(app, token, 'GET', `/account/schedules/${schedule.id}`))).toMatchObject({
      status: 'APPROVED',
      displayStatus: 'EXPIRED',
    });
  });
});
