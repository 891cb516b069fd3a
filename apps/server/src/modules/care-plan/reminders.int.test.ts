import type { CareReminder, ReminderOccurrence } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import {
  auditCount,
  call,
  careOrganisation,
  codeOf,
  dataOf,
  logInAs,
  tokensOf,
  type CareOrganisation,
} from '../doctors/test-support.js';

/**
 * Care reminders (spec §3 Reminder, §6): doctors and assistants create and delete them, admins and
 * patients do not; §5 schedule rules refused with their messages; the app gets the day's times in
 * the patient's time zone.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;
let assistantToken: string;
// 09:00 in Ho Chi Minh City on the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
  const assistant = await createTenantUser(testDb.database, org.tenant.id, {
    role: 'DOCTOR_ASSISTANT',
    healthCenterId: org.centerA.id,
  });
  assistantToken = await logInAs(app, org.tenant.code, assistant);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const reminder = (overrides: Record<string, unknown> = {}) => ({
  title: 'Measure your blood pressure',
  note: 'Sit for 5 minutes first',
  schedule: {
    times: [
      { label: 'Morning', time: '07:30' },
      { label: 'Evening', time: '19:30' },
    ],
    repeat: { kind: 'MONTH_DAYS', days: '1,15' },
    startDate: '2026-12-01',
    endDate: null,
  },
  ...overrides,
});
const url = () => `/health/patients/${org.patientA.id}/reminders`;

describe('care reminders', () => {
  it('an assistant creates and deletes one; the doctor sees it; the app gets the day’s times', async () => {
    const created = await call(app, assistantToken, 'POST', url(), reminder());
    expect(created.statusCode, created.body).toBe(200);
    const item = dataOf<CareReminder>(created);
    expect(item).toMatchObject({ title: 'Measure your blood pressure', patientId: org.patientA.id });
    expect(await auditCount(testDb.ownerUrl, 'REMINDER_CREATED', item.id)).toBe(1);
    const seen = dataOf<CareReminder[]>(await call(app, tokens.doctorA, 'GET', url()));
    expect(seen.map((entry) => entry.id)).toContain(item.id);
    const today = dataOf<ReminderOccurrence[]>(
      await call(app, tokens.patient, 'GET', '/health/me/reminders'),
    );
    expect(
      today.filter((entry) => entry.reminderId === item.id).map((entry) => [entry.localTime, entry.at]),
    ).toEqual([
      ['07:30', '2026-12-01T00:30:00.000Z'],
      ['19:30', '2026-12-01T12:30:00.000Z'],
    ]);
    const notADay = dataOf<ReminderOccurrence[]>(
      await call(app, tokens.patient, 'GET', '/health/me/reminders?date=2026-12-02'),
    );
    expect(notADay.filter((entry) => entry.reminderId === item.id)).toEqual([]);
    const removed = await call(app, assistantToken, 'DELETE', `${url()}/${item.id}`);
    expect(removed.statusCode).toBe(200);
    expect(await auditCount(testDb.ownerUrl, 'REMINDER_DELETED', item.id)).toBe(1);
    const again = await call(app, tokens.doctorA, 'DELETE', `${url()}/${item.id}`);
    expect(again.statusCode).toBe(404);
    expect(codeOf(again)).toBe('reminder.notFound');
    const kept = await asOwner<{ deleted_by: string }>(
      testDb.ownerUrl,
      'SELECT deleted_by FROM care_reminders WHERE id = $1',
      [item.id],
    );
    expect(kept[0]?.deleted_by).not.toBeNull();
  });

  it('refuses admins, the patient and another center’s doctor', async () => {
    for (const token of [tokens.admin, tokens.adminA, tokens.patient]) {
      const response = await call(app, token, 'POST', url(), reminder());
      expect(response.statusCode).toBe(403);
      expect(codeOf(response)).toBe('auth.permissionDenied');
    }
    expect(codeOf(await call(app, tokens.doctorB, 'POST', url(), reminder()))).toBe('patient.notFound');
  });

  it('refuses the §5 schedule rules with their messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ times: [], repeat: { kind: 'WEEKDAYS', weekdays: [1] } }, 'body.schedule.times:times.required'],
      [
        { repeat: { kind: 'WEEKDAYS', weekdays: [] } },
        'body.schedule.repeat.weekdays:repeat.weekdaysRequired',
      ],
      [{ repeat: { kind: 'MONTH_DAYS', days: '1,32' } }, 'body.schedule.repeat.days:repeat.monthDaysFormat'],
      [{ startDate: '2026-12-10', endDate: '2026-12-01' }, 'body.schedule.endDate:dates.startAfterEnd'],
    ];
    for (const [schedule, expected] of cases) {
      const body = reminder();
      const response = await call(app, tokens.doctorA, 'POST', url(), {
        ...body,
        schedule: { ...body.schedule, ...schedule },
      });
      expect(response.statusCode, expected).toBe(400);
      expect(codeOf(response)).toBe('reminder.invalid');
      const fields = response.json<{ fieldErrors: { field: string; code: string; message: string }[] }>()
        .fieldErrors;
      expect(fields.map((field) => `${field.field}:${field.code}`)).toContain(expected);
      expect(fields.every((field) => !field.message.startsWith('carePlan:'))).toBe(true);
    }
  });
});
