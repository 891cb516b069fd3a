/** Vitals (migration 0013). Mirrors the SQL; schema.int.test.ts checks drift. */
import { bigint, boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, timestamps } from './schema-columns.js';

/** Partitioned by month on measured_at; always queried through this parent. */
export const readings = pgTable(
  'readings',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    measure: text().notNull(),
    measuredAt: timestamps('measured_at').notNull(),
    value: doublePrecision().notNull(),
    source: text().notNull(),
    deviceId: uuid('device_id'),
    batchId: uuid('batch_id'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
    /** Measured longer before it arrived than the tenant's late-data horizon (migration 0025). */
    late: boolean().notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.tenantId, table.patientId, table.measure, table.measuredAt, table.source] }),
  ],
);

/**
 * Compact blocks of cold readings (migration 0058): one row per patient, measure and UTC day, the
 * readings as parallel arrays (at_steps: microseconds from the day's start, then from the reading
 * before). Written only by compact_patient_readings; read through patient_readings and all_readings.
 */
export const readingBlocks = pgTable(
  'reading_blocks',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    measure: text().notNull(),
    dayStart: timestamps('day_start').notNull(),
    count: integer().notNull(),
    firstAt: timestamps('first_at').notNull(),
    lastAt: timestamps('last_at').notNull(),
    atSteps: bigint('at_steps', { mode: 'bigint' }).array().notNull(),
    measuredValues: doublePrecision('measured_values').array().notNull(),
    sources: text().array().notNull(),
    deviceIds: uuid('device_ids').array().notNull(),
    batchIds: uuid('batch_ids').array().notNull(),
    receivedAts: timestamps('received_ats').array().notNull(),
    lateFlags: boolean('late_flags').array().notNull(),
    compactedAt: timestamps('compacted_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId, table.measure, table.dayStart] })],
);

const rollupColumns = {
  tenantId: uuid('tenant_id').notNull(),
  patientId: uuid('patient_id').notNull(),
  measure: text().notNull(),
  bucketStart: timestamps('bucket_start').notNull(),
  count: integer().notNull(),
  sum: doublePrecision().notNull(),
  min: doublePrecision().notNull(),
  max: doublePrecision().notNull(),
  lastValue: doublePrecision('last_value').notNull(),
  lastAt: timestamps('last_at').notNull(),
};

/**
 * Rollups in the patient's local time (migration 0027): an hourly row is one local clock hour, a
 * daily row one local calendar day, each keyed by the instant it starts (patient_time_zone,
 * rollup_hour_start, rollup_day_start). Rebuilt from readings when the patient's zone changes.
 */
export const readingsHourly = pgTable('readings_hourly', { ...rollupColumns }, (table) => [
  primaryKey({ columns: [table.tenantId, table.patientId, table.measure, table.bucketStart] }),
]);
export const readingsDaily = pgTable('readings_daily', { ...rollupColumns }, (table) => [
  primaryKey({ columns: [table.tenantId, table.patientId, table.measure, table.bucketStart] }),
]);

export const ecgRecords = pgTable(
  'ecg_records',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    measuredAt: timestamps('measured_at').notNull(),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    sampleRate: integer('sample_rate').notNull(),
    samples: bytea().notNull(),
    averageHeartRate: doublePrecision('average_heart_rate'),
    hrv: doublePrecision(),
    qt: doublePrecision(),
    respirationRate: doublePrecision('respiration_rate'),
    source: text().notNull(),
    deviceId: uuid('device_id'),
    batchId: uuid('batch_id'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export interface SleepStageRow {
  stage: 'AWAKE' | 'LIGHT' | 'DEEP' | 'REM';
  from: string;
  to: string;
}

export const sleepRecords = pgTable(
  'sleep_records',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    startAt: timestamps('start_at').notNull(),
    endAt: timestamps('end_at').notNull(),
    totalMinutes: integer('total_minutes').notNull(),
    deepMinutes: integer('deep_minutes').notNull(),
    lightMinutes: integer('light_minutes').notNull(),
    remMinutes: integer('rem_minutes').notNull(),
    wakeCount: integer('wake_count').notNull(),
    fallingAsleepMinutes: integer('falling_asleep_minutes'),
    reSleepMinutes: integer('re_sleep_minutes'),
    stages: jsonb().$type<SleepStageRow[]>().notNull().default([]),
    deviceId: uuid('device_id'),
    batchId: uuid('batch_id'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const sportRecords = pgTable(
  'sport_records',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    sport: text().notNull(),
    startAt: timestamps('start_at').notNull(),
    practiceSeconds: integer('practice_seconds').notNull(),
    steps: integer(),
    strideCm: doublePrecision('stride_cm'),
    tempo: doublePrecision(),
    speedKmh: doublePrecision('speed_kmh'),
    heightM: doublePrecision('height_m'),
    calories: doublePrecision(),
    deviceId: uuid('device_id'),
    batchId: uuid('batch_id'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
    /** A session tracked in the patient app (migration 0036): its id there, distance and the distance's source. */
    clientId: uuid('client_id'),
    distanceM: doublePrecision('distance_m'),
    distanceSource: text('distance_source'),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

/** A patient's weight goal and the weight it started from (migration 0036). */
export const weightGoals = pgTable(
  'weight_goals',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    goalKg: doublePrecision('goal_kg').notNull(),
    startKg: doublePrecision('start_kg'),
    setAt: timestamps('set_at').notNull(),
    setBy: uuid('set_by').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId] })],
);

export const healthEvents = pgTable(
  'health_events',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id').notNull(),
    type: text().notNull(),
    occurredAt: timestamps('occurred_at').notNull(),
    lat: doublePrecision(),
    lng: doublePrecision(),
    note: text().notNull().default(''),
    deviceId: uuid('device_id'),
    batchId: uuid('batch_id'),
    createdBy: uuid('created_by'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const ingestBatches = pgTable(
  'ingest_batches',
  {
    tenantId: uuid('tenant_id').notNull(),
    batchId: uuid('batch_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    response: jsonb().$type<Record<string, unknown>>(),
    /** SHA-256 of the normalized batch (migration 0025); null for batches stored before it. */
    contentHash: text('content_hash'),
    receivedAt: timestamps('received_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.batchId] })],
);

export const patientThresholds = pgTable(
  'patient_thresholds',
  {
    tenantId: uuid('tenant_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    metric: text().notNull(),
    level: text().notNull(),
    lowerBound: doublePrecision('lower_bound'),
    upperBound: doublePrecision('upper_bound'),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.patientId, table.metric, table.level] })],
);

export const tenantThresholds = pgTable(
  'tenant_thresholds',
  {
    tenantId: uuid('tenant_id').notNull(),
    metric: text().notNull(),
    level: text().notNull(),
    lowerBound: doublePrecision('lower_bound'),
    upperBound: doublePrecision('upper_bound'),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.metric, table.level] })],
);
