import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { call, logInAs, newPatient, vitalsOrganisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-06-10T08:00:00Z'));
let org: Awaited<ReturnType<typeof vitalsOrganisation>>;
let patientToken: string;
let operatorToken: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await vitalsOrganisation(testDb);
  patientToken = await logInAs(app, org.tenant.code, org.patientUser);
  operatorToken = await logInAs(app, org.tenant.code, org.operatorA);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const session = (overrides: Record<string, unknown> = {}) => ({
  clientId: randomUUID(),
  sport: 'WALK',
  startAt: new Date(clock.now().getTime() - HOUR).toISOString(),
  practiceSeconds: 1200,
  steps: 2000,
  distanceM: 1400,
  distanceSource: 'STEPS',
  strideCm: 70,
  tempo: 100,
  speedKmh: 4.2,
  calories: 81.7,
  ...overrides,
});

const sportRows = (patientId: string) =>
  asOwner<{ id: string; client_id: string | null; distance_m: number | null }>(
    testDb.ownerUrl,
    'SELECT id, client_id, distance_m FROM sport_records WHERE patient_id = $1',
    [patientId],
  );
const auditRows = (patientId: string, action: string) =>
  asOwner<{ details: Record<string, unknown> }>(
    testDb.ownerUrl,
    'SELECT details FROM audit_log WHERE target_id = $1 AND action = $2',
    [patientId, action],
  );

describe('POST /health/me/sport', () => {
  it('saves a tracked session once, however often the app retries it', async () => {
    const body = session();
    const first = await call(app, patientToken, 'POST', '/health/me/sport', body);
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json<{ data: { record: { id: string; distanceM: number; clientId: string }; replayed: boolean } }>().data;
    expect(saved.replayed).toBe(false);
    expect(saved.record).toMatchObject({ sport: 'WALK', steps: 2000, distanceM: 1400, distanceSource: 'STEPS', clientId: body.clientId });

    const again = await call(app, patientToken, 'POST', '/health/me/sport', body);
    expect(again.json<{ data: { record: { id: string }; replayed: boolean } }>().data).toMatchObject({ replayed: true, record: { id: saved.record.id } });
    expect((await sportRows(org.patientA.id)).filter((row) => row.client_id === body.clientId)).toHaveLength(1);
    const audits = await auditRows(org.patientA.id, 'HEALTH_DATA_RECEIVED');
    expect(audits.filter((row) => row.details.clientId === body.clientId)).toHaveLength(1);
  });

  it('refuses a session ending in the future, one over a year old, and bad fields, storing nothing', async () => {
    const before = (await sportRows(org.patientA.id)).length;
    const future = await call(app, patientToken, 'POST', '/health/me/sport', session({ startAt: new Date(clock.now().getTime() - MINUTE).toISOString(), practiceSeconds: 3600 }));
    expect(future.statusCode).toBe(400);
    expect(future.json<{ code: string }>().code).toBe('health.futureDate');
    const old = await call(app, patientToken, 'POST', '/health/me/sport', session({ startAt: new Date(clock.now().getTime() - 400 * 24 * HOUR).toISOString() }));
    expect(old.json<{ code: string }>().code).toBe('health.tooOld');
    for (const bad of [{ sport: 'CHESS' }, { practiceSeconds: 0 }, { steps: -1 }, { clientId: 'not-a-uuid' }, { distanceSource: 'MAP' }]) {
      const response = await call(app, patientToken, 'POST', '/health/me/sport', session(bad));
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('common.invalidParameter');
    }
    expect(await sportRows(org.patientA.id)).toHaveLength(before);
  });

  it('answers staff that they have no patient profile, storing nothing', async () => {
    const before = (await sportRows(org.patientA.id)).length;
    const response = await call(app, operatorToken, 'POST', '/health/me/sport', session());
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('health.noPatientProfile');
    expect(await sportRows(org.patientA.id)).toHaveLength(before);
  });
});

describe('GET /health/me/sport and /health/me/sport/:recordId', () => {
  it('lists the caller’s sessions newest first, with a watch’s sessions too, and audits the read', async () => {
    const newer = session({ sport: 'RUN', startAt: new Date(clock.now().getTime() - 30 * MINUTE).toISOString(), practiceSeconds: 600 });
    expect((await call(app, patientToken, 'POST', '/health/me/sport', newer)).statusCode).toBe(200);
    const response = await call(app, patientToken, 'GET', '/health/me/sport?page=0&size=10');
    expect(response.statusCode, response.body).toBe(200);
    const list = response.json<{ data: { items: { id: string; sport: string; clientId: string }[]; total: number } }>().data;
    expect(list.items[0]).toMatchObject({ sport: 'RUN', clientId: newer.clientId });
    expect(list.total).toBe(list.items.length);
    const views = await auditRows(org.patientA.id, 'HEALTH_DATA_VIEWED');
    expect(views.some((row) => row.details.what === 'sport')).toBe(true);

    const one = await call(app, patientToken, 'GET', `/health/me/sport/${list.items[0]?.id ?? ''}`);
    expect(one.json<{ data: { clientId: string } }>().data.clientId).toBe(newer.clientId);
  });

  it('does not find another patient’s session', async () => {
    const other = await newPatient(testDb, org.tenant.id, org.centerA.id);
    const id = randomUUID();
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO sport_records (tenant_id, id, patient_id, sport, start_at, practice_seconds) VALUES ($1, $2, $3, 'RUN', now() - interval '1 day', 600)`,
      [org.tenant.id, id, other.id],
    );
    const response = await call(app, patientToken, 'GET', `/health/me/sport/${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('health.recordNotFound');
    const list = await call(app, patientToken, 'GET', '/health/me/sport?page=0&size=50');
    expect(list.json<{ data: { items: { id: string }[] } }>().data.items.map((item) => item.id)).not.toContain(id);
  });
});

describe('weight goal, records and BMI', () => {
  it('shows BMI from the latest weight and the height, and progress from the weight the goal started at', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
    const patient = await createPatient(testDb.database, tenant.id, { userId: user.id, heightCm: 170, createdAt: new Date('2020-01-01T00:00:00Z') });
    const token = await logInAs(app, tenant.code, user);
    const enter = (kg: number, minutesAgo: number) =>
      call(app, token, 'POST', '/health/manual', { measure: 'WEIGHT', value: kg, measuredAt: new Date(clock.now().getTime() - minutesAgo * MINUTE).toISOString() });

    const empty = await call(app, token, 'GET', '/health/me/weight');
    expect(empty.json<{ data: unknown }>().data).toMatchObject({ goal: null, heightCm: 170, records: [], bmi: null, band: null, progress: null });

    expect((await enter(80, 120)).statusCode).toBe(200);
    const goal = await call(app, token, 'POST', '/health/me/weight/goal', { goalKg: 70 });
    expect(goal.statusCode, goal.body).toBe(200);
    expect(goal.json<{ data: { goal: { goalKg: number; startKg: number } } }>().data.goal).toMatchObject({ goalKg: 70, startKg: 80 });

    expect((await enter(75, 10)).statusCode).toBe(200);
    const overview = (await call(app, token, 'GET', '/health/me/weight')).json<{
      data: { records: { valueKg: number }[]; bmi: number; band: string; asianRisk: string | null; progress: { fraction: number; remainingKg: number } };
    }>().data;
    expect(overview.records.map((record) => record.valueKg)).toEqual([75, 80]);
    expect(overview.bmi).toBeCloseTo(75 / 1.7 ** 2, 6); // 25.95
    expect(overview.band).toBe('OVERWEIGHT');
    expect(overview.asianRisk).toBeNull();
    expect(overview.progress).toMatchObject({ fraction: 0.5, remainingKg: 5 });
    const changes = await auditRows(patient.id, 'PATIENT_UPDATED');
    expect(changes.map((row) => row.details.weightGoalKg)).toEqual([70]);
  });

  it('refuses a goal outside the §5 weight range and keeps the old one', async () => {
    for (const goalKg of [1, 700, -5]) {
      const response = await call(app, patientToken, 'POST', '/health/me/weight/goal', { goalKg });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('common.invalidParameter');
    }
    const [goal] = await asOwner(testDb.ownerUrl, 'SELECT goal_kg FROM weight_goals WHERE patient_id = $1', [org.patientA.id]);
    expect(goal).toBeUndefined();
  });

  it('answers staff that they have no patient profile', async () => {
    for (const [method, url] of [['GET', '/health/me/weight'], ['POST', '/health/me/weight/goal']] as const) {
      const response = await call(app, operatorToken, method, url, method === 'POST' ? { goalKg: 60 } : undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ code: string }>().code).toBe('health.noPatientProfile');
    }
  });
});
