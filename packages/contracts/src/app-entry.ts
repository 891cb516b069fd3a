/**
 * The patient app's entry screens (spec §1 manual and photo-based entry, §5 manual health entry):
 * the measures they offer, the checks a value gets while it is typed (the same §5 rules the server
 * applies to POST /health/manual), the threshold warning, and the photo (OCR) call's shapes.
 */
import { z } from 'zod';
import { itemTimeProblem, type ItemTimeProblem } from './health.js';
import { THRESHOLD_METRICS, levelOf, worseStatus, type ThresholdMetric, type ThresholdSet, type VitalStatus } from './thresholds.js';
import {
  bloodPressureProblem,
  displayUnit,
  manualEntryRange,
  manualValueProblem,
  toCanonical,
  type ManualEntryProblem,
  type Measure,
  type UnitPreferences,
} from './vitals.js';

export * from './app-entry-ocr.js';

/** What the entry screens offer, blood pressure first (a systolic / diastolic pair). */
export const ENTRY_MEASURES = ['BLOOD_PRESSURE', 'HEART_RATE', 'SPO2', 'GLUCOSE', 'TEMPERATURE', 'WEIGHT'] as const;
export type EntryMeasure = (typeof ENTRY_MEASURES)[number];

/** One entry as typed, in the entering user's units; blood pressure uses systolic and diastolic. */
export interface EntryValues {
  measure: EntryMeasure;
  value?: number | undefined;
  systolic?: number | undefined;
  diastolic?: number | undefined;
  measuredAt: Date;
}

export type EntryField = 'value' | 'systolic' | 'diastolic' | 'measuredAt';
export type EntryProblemCode = ManualEntryProblem | ItemTimeProblem | 'required';
export interface EntryProblem {
  field: EntryField;
  code: EntryProblemCode;
}

/** The unit a measure is typed in (blood pressure: mmHg). */
export function entryUnit(measure: EntryMeasure, units: UnitPreferences): string {
  return measure === 'BLOOD_PRESSURE' ? 'mmHg' : displayUnit(measure, units);
}

/**
 * Why an entry would be refused (spec §5, the rules of POST /health/manual: contracts
 * MANUAL_ENTRY_RANGES, systolic ≥ diastolic + 20, the time rule), or null when it is accepted.
 */
export function entryProblem(entry: EntryValues, units: UnitPreferences, now: Date): EntryProblem | null {
  if (Number.isNaN(entry.measuredAt.getTime())) return { field: 'measuredAt', code: 'required' };
  const time = itemTimeProblem(entry.measuredAt, { now, monitoredSince: null });
  if (time !== null) return { field: 'measuredAt', code: time };
  if (entry.measure === 'BLOOD_PRESSURE') {
    const { systolic, diastolic } = entry;
    if (systolic === undefined) return { field: 'systolic', code: 'required' };
    if (diastolic === undefined) return { field: 'diastolic', code: 'required' };
    const problem = bloodPressureProblem(systolic, diastolic);
    if (problem === null) return null;
    const field = problem === 'pulsePressure' || manualValueProblem('SYSTOLIC', systolic) !== null ? 'systolic' : 'diastolic';
    return { field, code: problem };
  }
  if (entry.value === undefined) return { field: 'value', code: 'required' };
  const problem = manualValueProblem(entry.measure, entry.value, displayUnit(entry.measure, units));
  return problem === null ? null : { field: 'value', code: problem };
}

/** The §5 bounds of a measure in the unit it is typed in, rounded for a message ("above 88 and below 100"). */
export function entryBounds(measure: Exclude<EntryMeasure, 'BLOOD_PRESSURE'> | 'SYSTOLIC' | 'DIASTOLIC', units: UnitPreferences) {
  const range = manualEntryRange(measure, displayUnit(measure, units));
  const round = (bound: number | undefined) => (bound === undefined ? undefined : Math.round(bound * 10) / 10);
  return { above: round(range?.above), below: round(range?.below) };
}

const isThresholdMetric = (measure: string): measure is ThresholdMetric =>
  (THRESHOLD_METRICS as readonly string[]).includes(measure);

/**
 * The worst level an accepted entry reaches against the patient's thresholds (canonical units),
 * for the warning shown before saving (spec §5 "a value over a threshold shows a warning"), with
 * the metrics that cross it; NORMAL when none does. A warning, never a refusal.
 */
export function entryWarning(
  entry: EntryValues,
  thresholds: ThresholdSet,
  units: UnitPreferences,
): { level: VitalStatus; metrics: ThresholdMetric[] } {
  const values: [Measure, number | undefined][] =
    entry.measure === 'BLOOD_PRESSURE'
      ? [
          ['SYSTOLIC', entry.systolic],
          ['DIASTOLIC', entry.diastolic],
        ]
      : [[entry.measure, entry.value]];
  let level: VitalStatus = 'NORMAL';
  const levels: [ThresholdMetric, VitalStatus][] = [];
  for (const [measure, value] of values) {
    if (value === undefined || !isThresholdMetric(measure)) continue;
    const canonical = toCanonical(measure, value, displayUnit(measure, units));
    const reached = levelOf(measure, canonical, thresholds);
    levels.push([measure, reached]);
    level = worseStatus(level, reached);
  }
  return { level, metrics: levels.filter(([, reached]) => reached === level && level !== 'NORMAL').map(([metric]) => metric) };
}

/** The entry as the body of POST /health/manual (values as typed, the instant as ISO text). */
export function manualEntryBody(entry: EntryValues) {
  return entry.measure === 'BLOOD_PRESSURE'
    ? { measure: entry.measure, systolic: entry.systolic, diastolic: entry.diastolic, measuredAt: entry.measuredAt.toISOString() }
    : { measure: entry.measure, value: entry.value, measuredAt: entry.measuredAt.toISOString() };
}

/** The account's effective units (GET /account/me/unit-settings `effective`): what entries are typed in. */
export const entryUnitsSchema = z.object({
  unitSystem: z.enum(['metric', 'imperial']),
  thermalUnit: z.enum(['C', 'F']),
  bloodGlucoseUnit: z.enum(['mg/dL', 'mmol/L']),
  uricAcidUnit: z.enum(['mg/dL', 'mmol/L', 'umol/L']),
});
export type EntryUnits = z.infer<typeof entryUnitsSchema>;

/** The account settings' unit codes as the conversion functions' preferences. */
export function preferencesFromUnits(units: EntryUnits): UnitPreferences {
  return {
    unitSystem: units.unitSystem === 'imperial' ? 'IMPERIAL' : 'METRIC',
    thermalUnit: units.thermalUnit === 'F' ? 'FAHRENHEIT' : 'CELSIUS',
    glucoseUnit: units.bloodGlucoseUnit,
    uricAcidUnit: units.uricAcidUnit,
  };
}

// Photo entry (POST /collector/ocr) ----------------------------------------------------------------

/** The largest photo the OCR call reads (the spec's image limit, §9: 5 MB). */
export const OCR_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Photo types the OCR call reads, recognised by content (magic bytes), not by name. */
export const OCR_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** LOCAL: tesseract.js on the server; CLOUD: the tenant's OCR service (setting OCR_HEALTH_DEVICE_API_KEY). */
export const OCR_ADAPTERS = ['LOCAL', 'CLOUD'] as const;
export type OcrAdapterName = (typeof OCR_ADAPTERS)[number];

/** One value read from a photo, in the unit printed beside it (null: none printed). */
export const ocrCandidateSchema = z.object({
  measure: z.enum(ENTRY_MEASURES),
  value: z.number().optional(),
  systolic: z.number().optional(),
  diastolic: z.number().optional(),
  unit: z.string().nullable(),
});
export type OcrCandidate = z.infer<typeof ocrCandidateSchema>;

/** What the OCR call answers: the recognised text and the values found in it (none: "could not detect data"). */
export const ocrResultSchema = z.object({
  adapter: z.enum(OCR_ADAPTERS),
  text: z.string(),
  candidates: z.array(ocrCandidateSchema),
});
export type OcrResult = z.infer<typeof ocrResultSchema>;
