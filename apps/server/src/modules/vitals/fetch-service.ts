import {
  FUTURE_SKEW_MS,
  HEALTH_VIEW_MAX_DAYS,
  HEALTH_VIEW_RESOLUTION,
  displayUnit,
  type HealthDataQuery,
  type HealthSeries,
  type LatestReadings,
  type Measure,
  type SportType,
} from '@rpm/contracts';
import { AppError } from '../../http/app-error.js';
import { DAY } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import {
  findEcg,
  findSleep,
  latestValues,
  listEcg,
  listSleep,
  listSport,
  localPeriod,
  patientTimeZone,
  rawPoints,
  rollupPoints,
} from './fetch-store.js';
import { unpackSamples } from './ingest-store.js';
import { readVitalsPatient, withVitalsPatient, type VitalsEnvironment, type VitalsPatient } from './patient-access.js';
import { displayOf, tenantUnits } from './units.js';
import { readVitals } from './vitals-database.js';
import type { TenantTransaction } from '../../db/database.js';
import { isoInstant } from '../../lib/iso-instant.js';

const iso = (date: Date) => isoInstant(date.getTime());

/**
 * Reads of one patient's health data (`patientId` undefined: a patient session's own): health.view,
 * the patient visible, and an audit row (PHI read). With `mayUseReplica` (staff charts), a
 * DEDICATED tenant's replica may serve the read and the audit row is written on the primary.
 */
export function readPatient<T>(
  environment: VitalsEnvironment,
  patientId: string | undefined,
  what: string,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
  options: { mayUseReplica?: boolean } = {},
) {
  const record = (tx: TenantTransaction, patient: VitalsPatient) =>
    recordPatientReads(tx, patient.tenantId, environment.audit, {
      action: 'HEALTH_DATA_VIEWED',
      patientIds: [patient.id],
      subjectUserId: patient.userId,
      targetId: patient.id,
      details: { what },
    });
  if (options.mayUseReplica === true) return readVitalsPatient(environment, { patientId, permission: 'health.view' }, work, record);
  return withVitalsPatient(
    environment,
    { patientId, permission: 'health.view', lock: false, write: false },
    async (tx, patient) => {
      const result = await work(tx, patient);
      await record(tx, patient);
      return result;
    },
  );
}

/**
 * A series query: a range of instants (from, to), or a local calendar `date` (YYYY-MM-DD in the
 * patient's time zone) standing for the day, Monday-to-Sunday week, month or year of the view that
 * holds it.
 */
export interface SeriesQuery {
  measure: HealthDataQuery['measure'];
  view: HealthDataQuery['view'];
  from?: string | undefined;
  to?: string | undefined;
  date?: string | undefined;
}

/** A series in the patient's local buckets, saying which time zone they are in. */
export type LocalHealthSeries = HealthSeries & { timeZone: string };

/** A real YYYY-MM-DD calendar date (not 2026-02-30). */
function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/**
 * Spec §8 "invalid health-data date range": from must be before to, the range no longer than the
 * view allows, and not starting in the future.
 */
export function checkRange(range: { from: Date; to: Date; view: HealthDataQuery['view'] }, now: Date): { from: Date; to: Date } {
  const { from, to } = range;
  if (
    Number.isNaN(from.getTime()) ||
    Number.isNaN(to.getTime()) ||
    from >= to ||
    to.getTime() - from.getTime() > HEALTH_VIEW_MAX_DAYS[range.view] * DAY ||
    from.getTime() > now.getTime() + FUTURE_SKEW_MS
  ) {
    throw new AppError('health.invalidDateRange');
  }
  return { from, to };
}

/**
 * GET /health/patients/:patientId/data: raw readings for a day, hourly rollups for a week, daily
 * for month and year. Hours and days are the patient's local ones (their time zone, answered as
 * timeZone); with `date`, the range is that local day, week (from Monday), month or year.
 */
export async function readSeries(
  environment: VitalsEnvironment,
  patientId: string | undefined,
  query: SeriesQuery,
): Promise<LocalHealthSeries> {
  const now = environment.clock.now();
  const { date } = query;
  // Without a local date, the range is checked before the patient is looked up.
  const given =
    date === undefined
      ? checkRange({ from: new Date(query.from ?? ''), to: new Date(query.to ?? ''), view: query.view }, now)
      : null;
  if (date !== undefined && !isCalendarDate(date)) throw new AppError('health.invalidDateRange');
  const units = await tenantUnits(environment.database, environment.auth.tenantId);
  const resolution = HEALTH_VIEW_RESOLUTION[query.view];
  const { timeZone, from, to, points } = await readPatient(
    environment,
    patientId,
    `data:${query.measure}:${query.view}`,
    async (tx, patient) => {
      const zone = await patientTimeZone(tx, patient.id);
      const range =
        given ?? checkRange({ ...(await localPeriod(tx, zone, query.view, date ?? '')), view: query.view }, now);
      const found = await readVitals(environment.database, tx, patient, (vitals) =>
        resolution === 'raw'
          ? rawPoints(vitals, patient.tenantId, patient.id, query.measure, range.from, range.to)
          : rollupPoints(
              vitals,
              resolution === 'hour' ? 'readings_hourly' : 'readings_daily',
              patient.tenantId,
              patient.id,
              query.measure,
              range.from,
              range.to,
            ),
      );
      return { timeZone: zone, ...range, points: found };
    },
    // Staff charts may be a few seconds old; a patient's own views stay on the primary (what they
    // just entered shows at once).
    { mayUseReplica: patientId !== undefined },
  );
  const convert = (value: number) => displayOf(query.measure, value, units);
  return {
    measure: query.measure,
    unit: displayUnit(query.measure, units),
    view: query.view,
    resolution,
    timeZone,
    from: iso(from),
    to: iso(to),
    points: points.map((point) => ({
      at: isoInstant(point.atMs),
      value: convert(point.value),
      min: convert(point.min),
      max: convert(point.max),
      count: point.count,
      source: point.source as HealthSeries['points'][number]['source'],
      late: point.late,
    })),
  };
}

/** GET /health/patients/:patientId/latest: the status and the latest value of each measure. */
/** The latest values; `patientId` undefined: the calling patient's own (a patient session only). */
export async function readLatest(
  environment: VitalsEnvironment,
  patientId: string | undefined,
): Promise<LatestReadings> {
  const units = await tenantUnits(environment.database, environment.auth.tenantId);
  return readPatient(environment, patientId, 'latest', async (tx, patient) => {
    const values = await readVitals(environment.database, tx, patient, (vitals) => latestValues(vitals, patient.tenantId, patient.id));
    return {
      status: patient.status,
      lastReadingAt: patient.lastReadingAt === null ? null : iso(patient.lastReadingAt),
      alertsSuppressed: patient.alertsSuppressedUntilNormal,
      readings: values.map((row) => {
        const measure = row.measure as Measure;
        return {
          measure,
          value: displayOf(measure, row.value, units),
          unit: displayUnit(measure, units),
          measuredAt: isoInstant(row.atMs),
        };
      }),
    };
  });
}

interface RecordQuery {
  page: number;
  size: number;
  from?: string | undefined;
  to?: string | undefined;
}
const pageOfQuery = (patient: VitalsPatient, query: RecordQuery) => ({
  tenantId: patient.tenantId,
  patientId: patient.id,
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
  page: query.page,
  size: query.size,
});

type EcgRow = NonNullable<Awaited<ReturnType<typeof findEcg>>>;
const ecgSummary = (row: Omit<EcgRow, 'samples'>) => ({
  id: row.id,
  measuredAt: iso(row.measuredAt),
  durationSeconds: row.durationSeconds,
  sampleRate: row.sampleRate,
  averageHeartRate: row.averageHeartRate,
  hrv: row.hrv,
  qt: row.qt,
  respirationRate: row.respirationRate,
  source: row.source as 'WIRELESS_DEVICE' | 'PHOTO_OCR' | 'MANUAL',
});

export function readEcgList(environment: VitalsEnvironment, patientId: string, query: RecordQuery) {
  return readPatient(environment, patientId, 'ecg', async (tx, patient) => {
    const { items, total } = await listEcg(tx, pageOfQuery(patient, query));
    return { items: items.map(ecgSummary), page: query.page, size: query.size, total };
  });
}

export function readEcg(environment: VitalsEnvironment, patientId: string, recordId: string) {
  return readPatient(environment, patientId, `ecg:${recordId}`, async (tx, patient) => {
    const row = await findEcg(tx, patient.tenantId, patient.id, recordId);
    if (row === undefined) throw new AppError('health.recordNotFound');
    return { ...ecgSummary(row), samples: unpackSamples(row.samples) };
  });
}

type SleepRow = NonNullable<Awaited<ReturnType<typeof findSleep>>>;
const sleepSummary = (row: SleepRow) => ({
  id: row.id,
  startAt: iso(row.startAt),
  endAt: iso(row.endAt),
  totalMinutes: row.totalMinutes,
  deepMinutes: row.deepMinutes,
  lightMinutes: row.lightMinutes,
  remMinutes: row.remMinutes,
  wakeCount: row.wakeCount,
  fallingAsleepMinutes: row.fallingAsleepMinutes,
  reSleepMinutes: row.reSleepMinutes,
});

export function readSleepList(environment: VitalsEnvironment, patientId: string | undefined, query: RecordQuery) {
  return readPatient(environment, patientId, 'sleep', async (tx, patient) => {
    const { items, total } = await listSleep(tx, pageOfQuery(patient, query));
    return { items: items.map(sleepSummary), page: query.page, size: query.size, total };
  });
}

export function readSleep(environment: VitalsEnvironment, patientId: string | undefined, recordId: string) {
  return readPatient(environment, patientId, `sleep:${recordId}`, async (tx, patient) => {
    const row = await findSleep(tx, patient.tenantId, patient.id, recordId);
    if (row === undefined) throw new AppError('health.recordNotFound');
    return { ...sleepSummary(row), stages: row.stages };
  });
}

export function readSportList(environment: VitalsEnvironment, patientId: string, query: RecordQuery) {
  return readPatient(environment, patientId, 'sport', async (tx, patient) => {
    const { items, total } = await listSport(tx, pageOfQuery(patient, query));
    return {
      items: items.map((row) => ({
        id: row.id,
        sport: row.sport as SportType,
        startAt: iso(row.startAt),
        practiceSeconds: row.practiceSeconds,
        steps: row.steps,
        strideCm: row.strideCm,
        tempo: row.tempo,
        speedKmh: row.speedKmh,
        heightM: row.heightM,
        calories: row.calories,
      })),
      page: query.page,
      size: query.size,
      total,
    };
  });
}
