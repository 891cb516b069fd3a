/**
 * The patient app's sport modes and weight pages: the calls' shapes shared by the server and the
 * app, and the pure rules behind them (calories from MET values, stride and distance from steps,
 * pace, body mass index with its WHO bands, progress to a weight goal).
 */
import { z } from 'zod';
import { SPORT_TYPES, sportRecordSchema, type SportType } from './health.js';
import { weightSchema } from './patients.js';
import { DATA_SOURCES } from './vitals.js';

// Calories --------------------------------------------------------------------------------------

/**
 * Metabolic equivalents (MET) per sport, from the Compendium of Physical Activities (Ainsworth et
 * al., 2011), the entry nearest to how each sport is usually practised:
 * run 8.3 (running, 8 km/h), walk 3.5 (walking, moderate pace, level ground), cycle 7.5
 * (bicycling, general), breathing 2.0 (yoga, Nadisodhana: breathing exercise), yoga 2.5 (Hatha),
 * basketball 6.5 (general), football 7.0 (soccer, casual, general), climb 8.0 (rock or mountain
 * climbing), tennis 7.3 (general), badminton 5.5 (social singles and doubles, general).
 */
export const SPORT_METS: Record<SportType, number> = {
  RUN: 8.3,
  WALK: 3.5,
  CYCLE: 7.5,
  BREATHING: 2.0,
  YOGA: 2.5,
  BASKETBALL: 6.5,
  FOOTBALL: 7.0,
  CLIMB: 8.0,
  TENNIS: 7.3,
  BADMINTON: 5.5,
};

/**
 * Energy spent, in kilocalories: MET × body weight (kg) × hours (1 MET is about 1 kcal per kg per
 * hour). Null without a usable weight: the app then asks for one rather than guessing.
 */
export function caloriesBurned(sport: SportType, weightKg: number | null, seconds: number): number | null {
  if (weightKg === null || !Number.isFinite(weightKg) || weightKg <= 0) return null;
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return SPORT_METS[sport] * weightKg * (seconds / 3600);
}

// Steps, distance, pace -------------------------------------------------------------------------

/** Sports measured by the steps a phone or watch counts (the others show time and calories). */
export const STEP_SPORTS: readonly SportType[] = ['RUN', 'WALK', 'CLIMB', 'FOOTBALL', 'BASKETBALL', 'TENNIS', 'BADMINTON'];
/** Sports with a distance worth showing (and a pace): from GPS when granted, else from steps. */
export const DISTANCE_SPORTS: readonly SportType[] = ['RUN', 'WALK', 'CYCLE', 'CLIMB'];

/**
 * Step length as a share of body height: 0.415 for walking (the usual pedometer estimate) and
 * 0.65 for running, where steps are longer. An estimate for when there is no GPS.
 */
export function strideCmFor(sport: SportType, heightCm: number | null): number | null {
  if (heightCm === null || !Number.isFinite(heightCm) || heightCm <= 0) return null;
  return heightCm * (sport === 'RUN' ? 0.65 : 0.415);
}

/** Metres walked or run: steps × stride. */
export function distanceFromSteps(steps: number, strideCm: number | null): number | null {
  if (strideCm === null || steps <= 0) return strideCm === null ? null : 0;
  return (steps * strideCm) / 100;
}

/** Below this distance a pace would be noise (a few metres of GPS drift), so none is shown. */
export const MIN_PACE_DISTANCE_M = 10;

/** Seconds per kilometre, or null when too little distance was covered to say. */
export function paceSecondsPerKm(seconds: number, meters: number | null): number | null {
  if (meters === null || meters < MIN_PACE_DISTANCE_M || seconds <= 0) return null;
  return seconds / (meters / 1000);
}

/** Average speed in km/h, or null without a distance. */
export function speedKmhOf(seconds: number, meters: number | null): number | null {
  if (meters === null || seconds <= 0) return null;
  return meters / 1000 / (seconds / 3600);
}

/** Steps per minute (the sport record's tempo), or null without steps. */
export function tempoOf(steps: number | null, seconds: number): number | null {
  if (steps === null || seconds <= 0) return null;
  return steps / (seconds / 60);
}

export interface GeoPoint {
  lat: number;
  lng: number;
}
const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres between two positions (haversine). */
export function metersBetween(a: GeoPoint, b: GeoPoint): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.lat - a.lat);
  const dLng = radians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

// Body mass index -------------------------------------------------------------------------------

export const BMI_BANDS = ['UNDERWEIGHT', 'NORMAL', 'OVERWEIGHT', 'OBESE_I', 'OBESE_II', 'OBESE_III'] as const;
export type BmiBand = (typeof BMI_BANDS)[number];

/** Body mass index, kg/m², or null without both a weight and a height. */
export function bodyMassIndex(weightKg: number | null, heightCm: number | null): number | null {
  if (weightKg === null || heightCm === null || weightKg <= 0 || heightCm <= 0) return null;
  const meters = heightCm / 100;
  return weightKg / (meters * meters);
}

/**
 * The WHO adult band of a BMI (international cut-offs): under 18.5 underweight, 18.5 to under 25
 * normal, 25 to under 30 overweight (pre-obese), 30 to under 35 obese class I, 35 to under 40
 * class II, 40 and over class III. Bands are read on the BMI rounded to one decimal, as shown.
 */
export function bmiBand(bmi: number): BmiBand {
  const shown = Math.round(bmi * 10) / 10;
  if (shown < 18.5) return 'UNDERWEIGHT';
  if (shown < 25) return 'NORMAL';
  if (shown < 30) return 'OVERWEIGHT';
  if (shown < 35) return 'OBESE_I';
  if (shown < 40) return 'OBESE_II';
  return 'OBESE_III';
}

/**
 * WHO's lower action points for Asian populations (WHO expert consultation, Lancet 2004): from 23
 * increased risk, from 27.5 high risk. Returned when the BMI is in the normal or overweight WHO
 * band but past one of these points, so the app can add that note (docs/decisions.md); else null.
 */
export function asianRiskNote(bmi: number): 'INCREASED' | 'HIGH' | null {
  const shown = Math.round(bmi * 10) / 10;
  if (shown >= 27.5 && shown < 30) return 'HIGH';
  if (shown >= 23 && shown < 25) return 'INCREASED';
  return null;
}

/**
 * Progress towards a weight goal from the weight when it was set: 0 at the start, 1 at (or past)
 * the goal, never negative; `remainingKg` is how far the current weight still is from the goal
 * (0 once reached). A goal equal to the start is reached.
 */
export function weightGoalProgress(input: { startKg: number; currentKg: number; goalKg: number }): {
  fraction: number;
  remainingKg: number;
  isReached: boolean;
} {
  const { startKg, currentKg, goalKg } = input;
  const wanted = startKg - goalKg;
  const losing = wanted >= 0;
  const done = startKg - currentKg;
  const isReached = losing ? currentKg <= goalKg : currentKg >= goalKg;
  const fraction = wanted === 0 || isReached ? 1 : Math.min(1, Math.max(0, done / wanted));
  return { fraction, remainingKg: isReached ? 0 : Math.abs(currentKg - goalKg), isReached };
}

// Calls -----------------------------------------------------------------------------------------

const isoInstant = z.iso.datetime({ offset: true });

/** Where a session's distance came from: the phone's positions, or steps × stride. */
export const DISTANCE_SOURCES = ['GPS', 'STEPS'] as const;

/**
 * POST /health/me/sport: a tracked session, saved once. `clientId` is made by the app when the
 * session starts; sending it again (a retry after a lost answer) stores nothing more and answers
 * the stored record.
 */
export const sportSessionInputSchema = z.object({
  clientId: z.uuid(),
  sport: z.enum(SPORT_TYPES),
  startAt: isoInstant,
  practiceSeconds: z.number().int().min(1).max(86_400),
  steps: z.number().int().min(0).max(1_000_000).nullable().default(null),
  distanceM: z.number().min(0).max(1_000_000).nullable().default(null),
  distanceSource: z.enum(DISTANCE_SOURCES).nullable().default(null),
  strideCm: z.number().min(0).max(500).nullable().default(null),
  tempo: z.number().min(0).max(1000).nullable().default(null),
  speedKmh: z.number().min(0).max(200).nullable().default(null),
  heightM: z.number().min(0).max(10_000).nullable().default(null),
  calories: z.number().min(0).max(100_000).nullable().default(null),
});
export type SportSessionInput = z.input<typeof sportSessionInputSchema>;

export const sportSessionSchema = sportRecordSchema.extend({
  distanceM: z.number().nullable(),
  distanceSource: z.enum(DISTANCE_SOURCES).nullable(),
  /** The app's id of a session it tracked; null for sessions a watch sent. */
  clientId: z.uuid().nullable(),
});
export type SportSession = z.infer<typeof sportSessionSchema>;

export const sportSavedSchema = z.object({
  record: sportSessionSchema,
  /** true when this clientId had already been saved (nothing new was stored). */
  replayed: z.boolean(),
});

/** POST /health/me/weight/goal. */
export const weightGoalInputSchema = z.object({ goalKg: weightSchema });

export const weightRecordSchema = z.object({
  valueKg: z.number(),
  measuredAt: z.iso.datetime(),
  source: z.enum(DATA_SOURCES),
});
export type WeightRecord = z.infer<typeof weightRecordSchema>;

/** GET /health/me/weight: the goal, the recent weights, height, BMI and its band. Weights in kg. */
export const weightOverviewSchema = z.object({
  goal: z
    .object({ goalKg: z.number(), startKg: z.number().nullable(), setAt: z.iso.datetime() })
    .nullable(),
  /** The patient record's height, else the account profile's, else the latest HEIGHT reading. */
  heightCm: z.number().nullable(),
  /** Newest first, at most WEIGHT_RECORDS_SHOWN. */
  records: z.array(weightRecordSchema),
  bmi: z.number().nullable(),
  band: z.enum(BMI_BANDS).nullable(),
  asianRisk: z.enum(['INCREASED', 'HIGH']).nullable(),
  progress: z.object({ fraction: z.number(), remainingKg: z.number(), isReached: z.boolean() }).nullable(),
});
export type WeightOverview = z.infer<typeof weightOverviewSchema>;

export const WEIGHT_RECORDS_SHOWN = 30;
