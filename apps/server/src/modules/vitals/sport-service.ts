import {
  asianRiskNote,
  bmiBand,
  bodyMassIndex,
  FUTURE_SKEW_MS,
  itemTimeProblem,
  weightGoalProgress,
  type DataSource,
  type sportSessionInputSchema,
  type SportSession,
  type SportType,
  type WeightOverview,
} from '@rpm/contracts';
import type { z } from 'zod';
import type { Database, TenantTransaction } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../audit/store.js';
import { readPatient } from './fetch-service.js';
import { listSport } from './fetch-store.js';
import { withVitalsPatient, type VitalsEnvironment, type VitalsPatient } from './patient-access.js';
import { readVitals } from './vitals-database.js';
import {
  findSavedSession,
  findSession,
  findWeightGoal,
  heightOf,
  insertSession,
  recentWeights,
  upsertWeightGoal,
  type SportRow,
} from './sport-store.js';

/** The calls of this file are the signed-in patient's own: staff have no record of their own. */
function assertPatientSession(environment: VitalsEnvironment): void {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
}

/** A read of the caller's own data, with its audit row (PHI read): fetch-service's read, patient sessions only. */
function readOwn<T>(
  environment: VitalsEnvironment,
  what: string,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
): Promise<T> {
  assertPatientSession(environment);
  return readPatient(environment, undefined, what, work);
}

/** A change to the caller's own data (the account must still be active). */
function writeOwn<T>(environment: VitalsEnvironment, work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>): Promise<T> {
  assertPatientSession(environment);
  return withVitalsPatient(environment, { patientId: undefined, permission: 'health.update', lock: false, write: true }, work);
}

export function sessionOf(row: SportRow): SportSession {
  return {
    id: row.id,
    sport: row.sport as SportType,
    startAt: row.startAt.toISOString(),
    practiceSeconds: row.practiceSeconds,
    steps: row.steps,
    strideCm: row.strideCm,
    tempo: row.tempo,
    speedKmh: row.speedKmh,
    heightM: row.heightM,
    calories: row.calories,
    distanceM: row.distanceM,
    distanceSource: row.distanceSource as SportSession['distanceSource'],
    clientId: row.clientId,
  };
}

/**
 * POST /health/me/sport: saves a session tracked in the app. The same clientId again stores
 * nothing and answers the stored record (`replayed`). A session that starts or ends in the future
 * (beyond the allowed clock skew) or more than a year ago is refused with the item time rule's code.
 */
export function saveSportSession(environment: VitalsEnvironment, input: z.output<typeof sportSessionInputSchema>) {
  const now = environment.clock.now();
  const startAt = new Date(input.startAt);
  const problem =
    itemTimeProblem(startAt, { now, monitoredSince: null }) ??
    (startAt.getTime() + input.practiceSeconds * 1000 > now.getTime() + FUTURE_SKEW_MS ? 'health.futureDate' : null);
  if (problem !== null) throw new AppError(problem);
  return writeOwn(environment, async (tx, patient) => {
    const key = { tenantId: patient.tenantId, patientId: patient.id, clientId: input.clientId, sport: input.sport, startAt };
    const isAdded = await insertSession(tx, { tenantId: patient.tenantId, patientId: patient.id, receivedAt: now }, input);
    const saved = await findSavedSession(tx, key);
    if (saved === undefined) throw new AppError('common.default');
    if (isAdded) {
      await recordAudit(tx, patient.tenantId, environment.audit, {
        action: 'HEALTH_DATA_RECEIVED',
        subjectUserId: patient.userId,
        targetType: 'patient',
        targetId: patient.id,
        details: { kind: 'sport', recordId: saved.id, clientId: input.clientId, sport: input.sport },
      });
    }
    return { record: sessionOf(saved), replayed: !isAdded };
  });
}

/** GET /health/me/sport: the caller's sessions, newest first. */
export function listOwnSport(environment: VitalsEnvironment, query: { page: number; size: number; from?: string | undefined; to?: string | undefined }) {
  return readOwn(environment, 'sport', async (tx, patient) => {
    const { items, total } = await listSport(tx, {
      tenantId: patient.tenantId,
      patientId: patient.id,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      page: query.page,
      size: query.size,
    });
    return { items: items.map(sessionOf), page: query.page, size: query.size, total };
  });
}

/** GET /health/me/sport/:recordId: one of the caller's sessions (another patient's is not found). */
export function readOwnSport(environment: VitalsEnvironment, recordId: string) {
  return readOwn(environment, `sport:${recordId}`, async (tx, patient) => {
    const row = await findSession(tx, patient.tenantId, patient.id, recordId);
    if (row === undefined) throw new AppError('health.recordNotFound');
    return sessionOf(row);
  });
}

async function overviewOf(database: Database, tx: TenantTransaction, patient: VitalsPatient): Promise<WeightOverview> {
  const [rows, heightCm] = await readVitals(database, tx, patient, async (vitals) => [
    await recentWeights(vitals, patient.tenantId, patient.id),
    await heightOf(tx, patient, vitals),
  ]);
  const goal = await findWeightGoal(tx, patient.tenantId, patient.id);
  const records = rows.map((row) => ({ valueKg: row.value, measuredAt: row.measured_at, source: row.source as DataSource }));
  const currentKg = records[0]?.valueKg ?? null;
  const bmi = bodyMassIndex(currentKg, heightCm);
  // A goal set before any weight counts from the first weight entered after it.
  const setAt = goal?.setAt.toISOString() ?? '';
  const startKg = goal?.startKg ?? records.filter((record) => record.measuredAt >= setAt).at(-1)?.valueKg ?? null;
  return {
    goal: goal === undefined ? null : { goalKg: goal.goalKg, startKg, setAt },
    heightCm,
    records,
    bmi,
    band: bmi === null ? null : bmiBand(bmi),
    asianRisk: bmi === null ? null : asianRiskNote(bmi),
    progress:
      goal === undefined || startKg === null || currentKg === null
        ? null
        : weightGoalProgress({ startKg, currentKg, goalKg: goal.goalKg }),
  };
}

/** GET /health/me/weight: goal, recent weights, height, BMI with its band, progress. */
export function readOwnWeight(environment: VitalsEnvironment) {
  return readOwn(environment, 'weight', (tx, patient) => overviewOf(environment.database, tx, patient));
}

/** POST /health/me/weight/goal: sets the goal; progress counts from the latest weight at this time. */
export function setOwnWeightGoal(environment: VitalsEnvironment, goalKg: number) {
  return writeOwn(environment, async (tx, patient) => {
    const [latest] = await readVitals(environment.database, tx, patient, (vitals) => recentWeights(vitals, patient.tenantId, patient.id));
    const setAt = environment.clock.now();
    await upsertWeightGoal(tx, {
      tenantId: patient.tenantId,
      patientId: patient.id,
      goalKg,
      startKg: latest?.value ?? null,
      setAt,
      setBy: environment.auth.userId,
    });
    await recordAudit(tx, patient.tenantId, environment.audit, {
      action: 'PATIENT_UPDATED',
      subjectUserId: patient.userId,
      targetType: 'patient',
      targetId: patient.id,
      details: { weightGoalKg: goalKg, startKg: latest?.value ?? null },
    });
    return overviewOf(environment.database, tx, patient);
  });
}
