import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { ALERT_LEVELS, THRESHOLD_METRICS, type ThresholdMetric, type ThresholdSet } from './thresholds.js';
import {
  TENANT_BLOOD_GLUCOSE_UNITS,
  TENANT_SETTING_DEFAULTS,
  TENANT_THERMAL_UNITS,
  TENANT_UNIT_SYSTEMS,
  TENANT_URIC_ACID_UNITS,
} from './tenant-settings.js';
import { DATA_SOURCES, MEASURE_CODES } from './vitals.js';

/**
 * Health data calls (spec §7 health and collector prefixes): ingestion of readings, ECG, sleep and
 * sport records and device events; manual entry; range fetches; thresholds. Values travel in the
 * tenant's units (settings UNIT_SYSTEM, THERMAL_UNIT, BLOOD_GLUCOSE_UNIT, ACID_URIC_UNIT) and are
 * stored in the canonical units of vitals.ts.
 */

const isoInstant = z.iso.datetime({ offset: true });
const finite = z.number();

/** Most items one collector batch may carry (readings + records + events). */
export const MAX_BATCH_ITEMS = 5000;
/** Clock skew a device may have: a time later than now + this is "in the future". */
export const FUTURE_SKEW_MS = 5 * 60_000;

// Time rules: future, too old, before monitoring, late ----------------------------------------

/** The oldest a reading (or record, or event) may be when it arrives: a year. */
export const READING_MAX_AGE_MS = 365 * 24 * 3_600_000;
/** Tenant setting LATE_DATA_HORIZON_MINUTES when unset. */
export const DEFAULT_LATE_DATA_HORIZON_MINUTES = Number(TENANT_SETTING_DEFAULTS.LATE_DATA_HORIZON_MINUTES);

export type ItemTimeProblem = 'health.futureDate' | 'health.tooOld' | 'health.beforeMonitoring';

/**
 * The time rule of every item (reading, ECG, sleep, sport, device event, manual entry), by the
 * time it was measured:
 * - later than now + FUTURE_SKEW_MS: refused, `health.futureDate`;
 * - more than READING_MAX_AGE_MS (a year) before now: refused, `health.tooOld` (a manual entry
 *   dated 1900-01-01 is one);
 * - before `monitoredSince` — the patient's account creation, or for a device's reading the later
 *   of that and the time the device was bound to the patient: refused, `health.beforeMonitoring`.
 */
export function itemTimeProblem(
  at: Date,
  limits: { now: Date; monitoredSince: Date | null },
): ItemTimeProblem | null {
  const time = at.getTime();
  const now = limits.now.getTime();
  if (time > now + FUTURE_SKEW_MS) return 'health.futureDate';
  if (time < now - READING_MAX_AGE_MS) return 'health.tooOld';
  if (limits.monitoredSince !== null && time < limits.monitoredSince.getTime()) return 'health.beforeMonitoring';
  return null;
}

/**
 * The late-data rule: an item measured more than the tenant's horizon (LATE_DATA_HORIZON_MINUTES,
 * default 120) before it arrived is late. Late readings are stored, returned by the data calls
 * with `late: true` and counted in rollups, but never passed to the status engine: they do not
 * raise the status, open or re-arm an alert, open a case, escalate or end "I am fine". Late
 * device events (fall, SOS button) are stored and raise nothing either. (The status lifecycle and
 * the episode rule, contracts status-lifecycle.ts, judge only what this rule lets through.)
 */
export function isLateReading(at: Date, receivedAt: Date, horizonMinutes: number): boolean {
  return receivedAt.getTime() - at.getTime() > horizonMinutes * 60_000;
}

/**
 * The units values were read in (the account settings' codes): for manual and photo (OCR) entry
 * the entering user's own units, each falling back to the tenant's; for device readings the
 * tenant's.
 */
export const unitsUsedSchema = z.object({
  unitSystem: z.enum(TENANT_UNIT_SYSTEMS),
  thermalUnit: z.enum(TENANT_THERMAL_UNITS),
  bloodGlucoseUnit: z.enum(TENANT_BLOOD_GLUCOSE_UNITS),
  uricAcidUnit: z.enum(TENANT_URIC_ACID_UNITS),
});
export type UnitsUsed = z.infer<typeof unitsUsedSchema>;

/** A reading's measure: every scalar measure, plus BLOOD_PRESSURE (systolic + diastolic). */
export const READING_MEASURES = [...MEASURE_CODES, 'BLOOD_PRESSURE'] as const;
export type ReadingMeasure = (typeof READING_MEASURES)[number];

export const readingInputSchema = z.object({
  measure: z.enum(READING_MEASURES),
  /**
   * The value in the tenant's unit (WIRELESS_DEVICE) or the sending user's own units (MANUAL,
   * PHOTO_OCR); for BLOOD_PRESSURE use systolic and diastolic.
   */
  value: finite.optional(),
  systolic: finite.optional(),
  diastolic: finite.optional(),
  measuredAt: isoInstant,
  source: z.enum(DATA_SOURCES).default('WIRELESS_DEVICE'),
});
export type ReadingInput = z.infer<typeof readingInputSchema>;

export const ecgInputSchema = z.object({
  measuredAt: isoInstant,
  durationSeconds: finite.min(1).max(600),
  /** Samples per second of `samples`. */
  sampleRate: z.number().int().min(50).max(1000),
  /** The waveform in millivolts, at most 10 minutes at 512 Hz. */
  samples: z.array(finite).max(307_200),
  averageHeartRate: finite.min(0).max(300).nullable().optional(),
  hrv: finite.min(0).max(500).nullable().optional(),
  qt: finite.min(0).max(1000).nullable().optional(),
  respirationRate: finite.min(0).max(100).nullable().optional(),
  source: z.enum(DATA_SOURCES).default('WIRELESS_DEVICE'),
});
export type EcgInput = z.infer<typeof ecgInputSchema>;

export const SLEEP_STAGES = ['AWAKE', 'LIGHT', 'DEEP', 'REM'] as const;
export const sleepStageSchema = z.object({ stage: z.enum(SLEEP_STAGES), from: isoInstant, to: isoInstant });

export const sleepInputSchema = z.object({
  startAt: isoInstant,
  endAt: isoInstant,
  totalMinutes: z.number().int().min(0).max(1440),
  deepMinutes: z.number().int().min(0).max(1440),
  lightMinutes: z.number().int().min(0).max(1440),
  remMinutes: z.number().int().min(0).max(1440),
  wakeCount: z.number().int().min(0).max(500),
  /** Minutes from lying down to sleep (onset). */
  fallingAsleepMinutes: z.number().int().min(0).max(1440).nullable().optional(),
  /** Minutes to fall asleep again after waking. */
  reSleepMinutes: z.number().int().min(0).max(1440).nullable().optional(),
  stages: z.array(sleepStageSchema).max(2000).default([]),
});
export type SleepInput = z.infer<typeof sleepInputSchema>;

/** Spec §3 sports. */
export const SPORT_TYPES = [
  'RUN',
  'WALK',
  'CYCLE',
  'BREATHING',
  'YOGA',
  'BASKETBALL',
  'FOOTBALL',
  'CLIMB',
  'TENNIS',
  'BADMINTON',
] as const;
export type SportType = (typeof SPORT_TYPES)[number];

export const sportInputSchema = z.object({
  sport: z.enum(SPORT_TYPES),
  startAt: isoInstant,
  practiceSeconds: z.number().int().min(1).max(86_400),
  steps: z.number().int().min(0).max(1_000_000).nullable().optional(),
  /** Stride in cm, speed in km/h, height (climbed) in m, tempo in steps per minute. */
  strideCm: finite.min(0).max(500).nullable().optional(),
  tempo: finite.min(0).max(1000).nullable().optional(),
  speedKmh: finite.min(0).max(200).nullable().optional(),
  heightM: finite.min(0).max(10_000).nullable().optional(),
  calories: finite.min(0).max(100_000).nullable().optional(),
});
export type SportInput = z.infer<typeof sportInputSchema>;

export const DEVICE_EVENT_TYPES = ['FALL', 'SOS_BUTTON'] as const;
export const locationSchema = z.object({ lat: finite.min(-90).max(90), lng: finite.min(-180).max(180) });
export const deviceEventInputSchema = z.object({
  type: z.enum(DEVICE_EVENT_TYPES),
  at: isoInstant,
  location: locationSchema.nullable().optional(),
});
export type DeviceEventInput = z.infer<typeof deviceEventInputSchema>;

/**
 * POST /collector/readings: one batch from the patient app (the patient's own session) or from staff
 * holding health.update for a patient they see. A batch sent again with the same batchId and the same
 * content (normalizedBatchText) is answered with the first answer (`replayed: true`) and stores
 * nothing more; the same batchId with other content is refused (409 health.batchReused).
 */
export const collectorBatchSchema = z
  .object({
    batchId: z.uuid(),
    /** Required for staff; a patient's own session may omit it (their own record). */
    patientId: z.uuid().optional(),
    deviceId: z.uuid().optional(),
    readings: z.array(readingInputSchema).max(MAX_BATCH_ITEMS).default([]),
    ecg: z.array(ecgInputSchema).max(20).default([]),
    sleep: z.array(sleepInputSchema).max(50).default([]),
    sport: z.array(sportInputSchema).max(200).default([]),
    events: z.array(deviceEventInputSchema).max(50).default([]),
  })
  .refine(
    (batch) =>
      batch.readings.length +
        batch.ecg.length +
        batch.sleep.length +
        batch.sport.length +
        batch.events.length <=
      MAX_BATCH_ITEMS,
    { error: `at most ${MAX_BATCH_ITEMS} items per batch`, path: ['readings'] },
  );
export type CollectorBatch = z.infer<typeof collectorBatchSchema>;

/** Why one item of a batch was refused; the codes are error codes with messages in the catalogue. */
export const ITEM_PROBLEM_CODES = [
  'health.valueOutOfRange',
  'health.pulsePressure',
  'health.futureDate',
  'health.valueRequired',
  'health.invalidRecord',
  'health.tooOld',
  'health.beforeMonitoring',
] as const;
export type ItemProblemCode = (typeof ITEM_PROBLEM_CODES)[number];

export const itemProblemSchema = z.object({
  kind: z.enum(['readings', 'ecg', 'sleep', 'sport', 'events']),
  index: z.number().int(),
  code: z.enum(ITEM_PROBLEM_CODES),
  field: z.string(),
});
export type ItemProblem = z.infer<typeof itemProblemSchema>;

export const VITAL_STATUSES = ['NORMAL', ...ALERT_LEVELS] as const;

export const collectorResultSchema = z.object({
  batchId: z.uuid(),
  patientId: z.uuid(),
  /** Items stored by this batch (a blood-pressure pair counts once). */
  accepted: z.number().int(),
  /** Valid items already stored before (same patient, measure, time and source). */
  duplicates: z.number().int(),
  rejected: z.number().int(),
  problems: z.array(itemProblemSchema),
  /** The patient's status after this batch. */
  status: z.enum(VITAL_STATUSES),
  /** true when this is the stored answer of an earlier delivery of the same batch. */
  replayed: z.boolean(),
  /** Readings stored by this batch that arrived late (isLateReading): shown, never judged. */
  late: z.number().int().optional(),
  /** The units the values were read in: `entered` for MANUAL and PHOTO_OCR items, `device` for the rest. */
  units: z.object({ entered: unitsUsedSchema, device: unitsUsedSchema }).optional(),
});
export type CollectorResult = z.infer<typeof collectorResultSchema>;

/** POST /health/manual: one manual entry (spec §5), all or nothing. */
export const manualEntrySchema = z.object({
  patientId: z.uuid().optional(),
  measure: z.enum(READING_MEASURES),
  value: finite.optional(),
  systolic: finite.optional(),
  diastolic: finite.optional(),
  measuredAt: isoInstant,
});
export type ManualEntry = z.infer<typeof manualEntrySchema>;

export const manualEntryResultSchema = z.object({
  patientId: z.uuid(),
  stored: z.boolean(),
  status: z.enum(VITAL_STATUSES),
  /** The entry is older than the tenant's late-data horizon: stored and shown, never judged. */
  late: z.boolean(),
  /** The unit the value was read in (°F is "F", pounds "lbs", …; blood pressure "mmHg"). */
  unit: z.string(),
  /** The entering user's effective units (own choice, else the tenant's). */
  units: unitsUsedSchema,
});

/** POST /health/sos/hotline: a hotline call raises SOS for the patient (a patient's own session: themselves). */
export const hotlineCallSchema = z.object({
  patientId: z.uuid().optional(),
  note: z.string().trim().max(1000).optional(),
  location: locationSchema.nullable().optional(),
});
export type HotlineCall = z.infer<typeof hotlineCallSchema>;

// Fetches --------------------------------------------------------------------------------------

export const HEALTH_VIEWS = ['day', 'week', 'month', 'year'] as const;
export type HealthView = (typeof HEALTH_VIEWS)[number];
/** Longest range per view; raw readings for a day, hourly rollups for a week, daily for month and year. */
export const HEALTH_VIEW_MAX_DAYS: Record<HealthView, number> = { day: 2, week: 8, month: 32, year: 367 };
export const HEALTH_VIEW_RESOLUTION = { day: 'raw', week: 'hour', month: 'day', year: 'day' } as const;

export const healthDataQuerySchema = z.object({
  measure: z.enum(MEASURE_CODES),
  from: isoInstant,
  to: isoInstant,
  view: z.enum(HEALTH_VIEWS),
});
export type HealthDataQuery = z.infer<typeof healthDataQuerySchema>;

export const healthPointSchema = z.object({
  at: z.iso.datetime(),
  /** Raw: the reading; rollups: the mean of the bucket. */
  value: z.number(),
  min: z.number(),
  max: z.number(),
  count: z.number().int(),
  /** Raw readings only. */
  source: z.enum(DATA_SOURCES).nullable(),
  /** Raw readings: arrived after the late-data horizon (shown, never judged); rollups: null. */
  late: z.boolean().nullable().optional(),
});
export type HealthPoint = z.infer<typeof healthPointSchema>;

export const healthSeriesSchema = z.object({
  measure: z.enum(MEASURE_CODES),
  unit: z.string(),
  view: z.enum(HEALTH_VIEWS),
  resolution: z.enum(['raw', 'hour', 'day']),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  points: z.array(healthPointSchema),
});
export type HealthSeries = z.infer<typeof healthSeriesSchema>;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * How long a pause in a series is still drawn as one line, in milliseconds (both front ends break
 * their lines past it, rather than draw readings that were never taken). Rollups have a point per
 * hour or day with readings, so a missing bucket is a pause (half a bucket more allows for a day of
 * 23 or 25 hours); raw readings come at the watch's pace, so a pause is three times the usual
 * spacing (the median of `times`, sorted), and never less than 15 minutes.
 */
export function longestJoinedGap(resolution: HealthSeries['resolution'], times: readonly number[]): number {
  if (resolution === 'hour') return 1.5 * HOUR_MS;
  if (resolution === 'day') return 36 * HOUR_MS;
  const spacings = times
    .slice(1)
    .map((time, index) => time - (times[index] ?? time))
    .sort((a, b) => a - b);
  const median = spacings[Math.floor(spacings.length / 2)] ?? 0;
  return Math.max(15 * MINUTE_MS, 3 * median);
}

export const latestReadingSchema = z.object({
  measure: z.enum(MEASURE_CODES),
  value: z.number(),
  unit: z.string(),
  measuredAt: z.iso.datetime(),
});
export const latestReadingsSchema = z.object({
  status: z.enum(VITAL_STATUSES),
  lastReadingAt: z.iso.datetime().nullable(),
  alertsSuppressed: z.boolean(),
  readings: z.array(latestReadingSchema),
});
export type LatestReadings = z.infer<typeof latestReadingsSchema>;

export const recordListQuerySchema = pageQuerySchema.extend({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
});

export const ecgSummarySchema = z.object({
  id: z.uuid(),
  measuredAt: z.iso.datetime(),
  durationSeconds: z.number(),
  sampleRate: z.number().int(),
  averageHeartRate: z.number().nullable(),
  hrv: z.number().nullable(),
  qt: z.number().nullable(),
  respirationRate: z.number().nullable(),
  source: z.enum(DATA_SOURCES),
});
export const ecgDetailSchema = ecgSummarySchema.extend({ samples: z.array(z.number()) });
export type EcgDetail = z.infer<typeof ecgDetailSchema>;

export const sleepSummarySchema = z.object({
  id: z.uuid(),
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  totalMinutes: z.number().int(),
  deepMinutes: z.number().int(),
  lightMinutes: z.number().int(),
  remMinutes: z.number().int(),
  wakeCount: z.number().int(),
  fallingAsleepMinutes: z.number().int().nullable(),
  reSleepMinutes: z.number().int().nullable(),
});
export const sleepDetailSchema = sleepSummarySchema.extend({
  stages: z.array(z.object({ stage: z.enum(SLEEP_STAGES), from: z.string(), to: z.string() })),
});
export type SleepDetail = z.infer<typeof sleepDetailSchema>;

export const sportRecordSchema = z.object({
  id: z.uuid(),
  sport: z.enum(SPORT_TYPES),
  startAt: z.iso.datetime(),
  practiceSeconds: z.number().int(),
  steps: z.number().int().nullable(),
  strideCm: z.number().nullable(),
  tempo: z.number().nullable(),
  speedKmh: z.number().nullable(),
  heightM: z.number().nullable(),
  calories: z.number().nullable(),
});

// Thresholds -----------------------------------------------------------------------------------

const boundSchema = z.number().nullable();
export const boundsSchema = z.object({ lower: boundSchema, upper: boundSchema });
const metricThresholdsSchema = z.object({
  AT_RISK: boundsSchema,
  HIGH_RISK: boundsSchema,
  SOS: boundsSchema,
});
/** A full threshold set (canonical units: °C, mg/dL, …; see THRESHOLD_UNITS). */
export const thresholdSetSchema = z.object(
  Object.fromEntries(THRESHOLD_METRICS.map((metric) => [metric, metricThresholdsSchema])) as Record<
    ThresholdMetric,
    typeof metricThresholdsSchema
  >,
) satisfies z.ZodType<ThresholdSet>;

/** PUT body: the whole set; only the levels that differ from the base (tenant or spec default) are kept as custom. */
export const thresholdsUpdateSchema = z.object({ thresholds: thresholdSetSchema });

export const thresholdsViewSchema = z.object({
  thresholds: thresholdSetSchema,
  /** `METRIC.LEVEL` of each level set for this patient (or this tenant, for the defaults). */
  custom: z.array(z.string()),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.uuid().nullable(),
});
export type ThresholdsView = z.infer<typeof thresholdsViewSchema>;
