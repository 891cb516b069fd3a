import { EVENT_LIMIT, type PatientEvent } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
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
 * My Events (spec §3 Event reminder, §5, §8, §9): the patient writes its events; a time and an
 * icon are required; no two events at one time (a canceled one frees it); at most 20 planned events
 * to come; a follower reads none and writes none; the care team reads them.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let tokens: Awaited<ReturnType<typeof tokensOf>>;
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  tokens = await tokensOf(app, org);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const event = (arrivalAt: string, overrides: Record<string, unknown> = {}) => ({
  arrivalAt,
  label: 'Blood test',
  icon: 'TEST',
  location: 'Cho Ray hospital, lab 2',
  organizer: 'Dr. Bao Tran',
  note: 'Fasting from midnight',
  ...overrides,
});

describe('My Events', () => {
  it('adds, lists, changes and deletes an event; the care team reads it; audited', async () => {
    const created = await call(
      app,
      tokens.patient,
      'POST',
      '/health/me/events',
      event('2026-12-03T01:30:00Z'),
    );
    expect(created.statusCode, created.body).toBe(200);
    const item = dataOf<PatientEvent>(created);
    expect(item).toMatchObject({
      label: 'Blood test',
      icon: 'TEST',
      status: 'PLANNED',
      patientId: org.patientA.id,
    });
    expect(await auditCount(testDb.ownerUrl, 'EVENT_CREATED', item.id)).toBe(1);
    const upcoming = dataOf<{ items: PatientEvent[] }>(
      await call(app, tokens.patient, 'GET', '/health/me/events'),
    );
    expect(upcoming.items.map((entry) => entry.id)).toContain(item.id);
    const past = dataOf<{ items: PatientEvent[] }>(
      await call(app, tokens.patient, 'GET', '/health/me/events?when=past'),
    );
    expect(past.items.map((entry) => entry.id)).not.toContain(item.id);
    const team = dataOf<{ items: PatientEvent[] }>(
      await call(app, tokens.doctorA, 'GET', `/health/patients/${org.patientA.id}/events`),
    );
    expect(team.items.map((entry) => entry.id)).toContain(item.id);
    const done = await call(
      app,
      tokens.patient,
      'PUT',
      `/health/me/events/${item.id}`,
      event('2026-12-03T01:30:00Z', { status: 'DONE' }),
    );
    expect(dataOf<PatientEvent>(done).status).toBe('DONE');
    expect((await call(app, tokens.patient, 'DELETE', `/health/me/events/${item.id}`)).statusCode).toBe(200);
    expect(codeOf(await call(app, tokens.patient, 'DELETE', `/health/me/events/${item.id}`))).toBe(
      'event.notFound',
    );
  });

  it('needs a time and an icon, and refuses two events at one time until one is canceled', async () => {
    const noIcon = await call(app, tokens.patient, 'POST', '/health/me/events', {
      arrivalAt: '2026-12-05T01:00:00Z',
      label: 'X',
    });
    expect(noIcon.statusCode).toBe(400);
    expect(codeOf(noIcon)).toBe('common.invalidParameter');
    const noTime = await call(app, tokens.patient, 'POST', '/health/me/events', {
      label: 'X',
      icon: 'OTHER',
    });
    expect(noTime.statusCode).toBe(400);
    const first = dataOf<PatientEvent>(
      await call(app, tokens.patient, 'POST', '/health/me/events', event('2026-12-05T03:00:00Z')),
    );
    const clash = await call(
      app,
      tokens.patient,
      'POST',
      '/health/me/events',
      event('2026-12-05T03:00:00Z', { label: 'Vaccine', icon: 'VACCINE' }),
    );
    expect(clash.statusCode).toBe(409);
    expect(codeOf(clash)).toBe('event.duplicateTime');
    await call(
      app,
      tokens.patient,
      'PUT',
      `/health/me/events/${first.id}`,
      event('2026-12-05T03:00:00Z', { status: 'CANCELED' }),
    );
    const freed = await call(
      app,
      tokens.patient,
      'POST',
      '/health/me/events',
      event('2026-12-05T03:00:00Z', { label: 'Vaccine', icon: 'VACCINE' }),
    );
    expect(freed.statusCode).toBe(200);
  });

  it('holds at most 20 planned events to come; past, done and canceled ones do not count', async () => {
    const user = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, userId: user.id });
    const token = await logInAs(app, org.tenant.code, user);
    const at = (day: number) => new Date(Date.parse('2026-12-02T01:00:00Z') + day * 86_400_000).toISOString();
    await call(app, token, 'POST', '/health/me/events', event('2026-11-20T01:00:00Z'));
    await call(app, token, 'POST', '/health/me/events', event(at(100), { status: 'DONE' }));
    for (let day = 0; day < EVENT_LIMIT; day++) {
      expect((await call(app, token, 'POST', '/health/me/events', event(at(day)))).statusCode).toBe(200);
    }
    const over = await call(app, token, 'POST', '/health/me/events', event(at(EVENT_LIMIT)));
    expect(over.statusCode).toBe(409);
    expect(codeOf(over)).toBe('event.limitReached');
    const count = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM patient_events WHERE created_by = $1`,
      [user.id],
    );
    expect(count[0]?.n).toBe(EVENT_LIMIT + 2);
  });

  it('a follower neither reads nor writes the followed patient’s events', async () => {
    const followerUser = await createTenantUser(testDb.database, org.tenant.id, {
      role: 'PATIENT',
      healthCenterId: org.centerA.id,
    });
    await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      userId: followerUser.id,
    });
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship, invitation_status, follower_user_id, confirmed_at)
       VALUES ($1, gen_random_uuid(), $2, 'CARING', 'Lan', '0912345678', 'FRIEND', 'CONFIRMED', $3, now())`,
      [org.tenant.id, org.patientA.id, followerUser.id],
    );
    const token = await logInAs(app, org.tenant.code, followerUser);
    const headers = { 'x-patient-profile': org.patientA.id };
    const read = await app.inject({
      method: 'GET',
      url: '/health/me/events',
      headers,
      cookies: { rpm_session: token },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: { items: unknown[] } }>().data.items).toEqual([]);
    const write = await app.inject({
      method: 'POST',
      url: '/health/me/events',
      headers,
      cookies: { rpm_session: token },
      payload: event('2026-12-09T01:00:00Z'),
    });
    expect(write.statusCode).toBe(403);
    expect(write.json<{ code: string }>().code).toBe('profile.readOnly');
  });
});
