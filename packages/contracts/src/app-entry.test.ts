import { describe, expect, it } from 'vitest';
import {
  candidateInUnits,
  entryBounds,
  entryProblem,
  entryWarning,
  manualEntryBody,
  normalizeOcrText,
  parseReadingText,
  preferencesFromUnits,
  type EntryValues,
} from './app-entry.js';
import { defaultThresholds } from './thresholds.js';

const METRIC = preferencesFromUnits({ unitSystem: 'metric', thermalUnit: 'C', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: 'mg/dL' });
const IMPERIAL = preferencesFromUnits({ unitSystem: 'imperial', thermalUnit: 'F', bloodGlucoseUnit: 'mmol/L', uricAcidUnit: 'mg/dL' });
const NOW = new Date('2026-11-20T08:00:00Z');
const entry = (values: Partial<EntryValues> & Pick<EntryValues, 'measure'>): EntryValues => ({ measuredAt: NOW, ...values });

describe('entryProblem (spec §5, the rules of POST /health/manual)', () => {
  it('refuses SpO2 at its exclusive bounds and accepts inside them', () => {
    expect(entryProblem(entry({ measure: 'SPO2', value: 88 }), METRIC, NOW)).toEqual({ field: 'value', code: 'outOfRange' });
    expect(entryProblem(entry({ measure: 'SPO2', value: 100 }), METRIC, NOW)).toEqual({ field: 'value', code: 'outOfRange' });
    expect(entryProblem(entry({ measure: 'SPO2', value: 88.1 }), METRIC, NOW)).toBeNull();
    expect(entryProblem(entry({ measure: 'SPO2', value: 99 }), METRIC, NOW)).toBeNull();
  });

  it('checks heart rate, glucose, weight and temperature bounds in the unit they are typed in', () => {
    expect(entryProblem(entry({ measure: 'HEART_RATE', value: 30 }), METRIC, NOW)?.code).toBe('outOfRange');
    expect(entryProblem(entry({ measure: 'HEART_RATE', value: 31 }), METRIC, NOW)).toBeNull();
    expect(entryProblem(entry({ measure: 'GLUCOSE', value: 300 }), METRIC, NOW)?.code).toBe('outOfRange');
    expect(entryProblem(entry({ measure: 'WEIGHT', value: 700 }), METRIC, NOW)?.code).toBe('outOfRange');
    // 45 °C is 113 °F: refused in °F too; 44 °C (111.2 °F) is accepted.
    expect(entryProblem(entry({ measure: 'TEMPERATURE', value: 113 }), IMPERIAL, NOW)?.code).toBe('outOfRange');
    expect(entryProblem(entry({ measure: 'TEMPERATURE', value: 111.2 }), IMPERIAL, NOW)).toBeNull();
    // 700 kg in pounds.
    expect(entryProblem(entry({ measure: 'WEIGHT', value: 1543.3 }), IMPERIAL, NOW)?.code).toBe('outOfRange');
  });

  it('asks for both blood pressure values and systolic at least 20 above diastolic', () => {
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', diastolic: 80 }), METRIC, NOW)).toEqual({ field: 'systolic', code: 'required' });
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', systolic: 120 }), METRIC, NOW)).toEqual({ field: 'diastolic', code: 'required' });
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', systolic: 119, diastolic: 100 }), METRIC, NOW)).toEqual({ field: 'systolic', code: 'pulsePressure' });
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', systolic: 120, diastolic: 100 }), METRIC, NOW)).toBeNull();
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', systolic: 300, diastolic: 80 }), METRIC, NOW)).toEqual({ field: 'systolic', code: 'outOfRange' });
    expect(entryProblem(entry({ measure: 'BLOOD_PRESSURE', systolic: 120, diastolic: 0 }), METRIC, NOW)).toEqual({ field: 'diastolic', code: 'outOfRange' });
  });

  it('refuses a missing value, a future date and one over a year old', () => {
    expect(entryProblem(entry({ measure: 'HEART_RATE' }), METRIC, NOW)).toEqual({ field: 'value', code: 'required' });
    expect(entryProblem(entry({ measure: 'HEART_RATE', value: 70, measuredAt: new Date('2026-11-20T09:00:00Z') }), METRIC, NOW)).toEqual({
      field: 'measuredAt',
      code: 'health.futureDate',
    });
    expect(entryProblem(entry({ measure: 'HEART_RATE', value: 70, measuredAt: new Date('1900-01-01T00:00:00Z') }), METRIC, NOW)?.code).toBe('health.tooOld');
    expect(entryProblem(entry({ measure: 'HEART_RATE', value: 70, measuredAt: new Date('x') }), METRIC, NOW)?.code).toBe('required');
  });

  it('states the bounds in the entered unit, rounded for a message', () => {
    expect(entryBounds('SPO2', METRIC)).toEqual({ above: 88, below: 100 });
    expect(entryBounds('TEMPERATURE', IMPERIAL)).toEqual({ above: 86, below: 113 });
    expect(entryBounds('GLUCOSE', IMPERIAL)).toEqual({ above: 0, below: 16.7 });
  });
});

describe('entryWarning (a value over a threshold warns, never refuses)', () => {
  const thresholds = defaultThresholds(45);
  it('names the worst level and the metrics at it', () => {
    expect(entryWarning(entry({ measure: 'HEART_RATE', value: 72 }), thresholds, METRIC)).toEqual({ level: 'NORMAL', metrics: [] });
    expect(entryWarning(entry({ measure: 'HEART_RATE', value: 110 }), thresholds, METRIC)).toEqual({ level: 'AT_RISK', metrics: ['HEART_RATE'] });
    expect(entryWarning(entry({ measure: 'BLOOD_PRESSURE', systolic: 185, diastolic: 85 }), thresholds, METRIC)).toEqual({
      level: 'SOS',
      metrics: ['SYSTOLIC'],
    });
  });
  it('compares in canonical units: 101.3 °F is 38.5 °C, at risk; 102 °F high risk', () => {
    expect(entryWarning(entry({ measure: 'TEMPERATURE', value: 101.3 }), thresholds, IMPERIAL).level).toBe('AT_RISK');
    expect(entryWarning(entry({ measure: 'TEMPERATURE', value: 102 }), thresholds, IMPERIAL).level).toBe('HIGH_RISK');
  });
  it('has no thresholds for weight', () => {
    expect(entryWarning(entry({ measure: 'WEIGHT', value: 500 }), thresholds, METRIC).level).toBe('NORMAL');
  });
});

it('builds the manual entry body with the values as typed', () => {
  expect(manualEntryBody(entry({ measure: 'BLOOD_PRESSURE', systolic: 130, diastolic: 85 }))).toEqual({
    measure: 'BLOOD_PRESSURE',
    systolic: 130,
    diastolic: 85,
    measuredAt: NOW.toISOString(),
  });
  expect(manualEntryBody(entry({ measure: 'SPO2', value: 97 }))).toEqual({ measure: 'SPO2', value: 97, measuredAt: NOW.toISOString() });
});

describe('parseReadingText (photo entry)', () => {
  it('reads a blood pressure monitor with SYS / DIA / PUL labels', () => {
    expect(parseReadingText('SYS 128\nDIA 82\nPUL 71\n')).toEqual([
      { measure: 'BLOOD_PRESSURE', systolic: 128, diastolic: 82, unit: 'mmHg' },
      { measure: 'HEART_RATE', value: 71, unit: null },
    ]);
  });

  it('reads a slash pair and a pulse in bpm', () => {
    expect(parseReadingText('Blood pressure 135/88 mmHg  Pulse 64 bpm')).toEqual([
      { measure: 'BLOOD_PRESSURE', systolic: 135, diastolic: 88, unit: 'mmHg' },
      { measure: 'HEART_RATE', value: 64, unit: null },
    ]);
  });

  it('reads an unlabelled monitor display that prints mmHg: systolic, diastolic, pulse in order', () => {
    expect(parseReadingText('mmHg\n142\n91\n77\n')).toEqual([
      { measure: 'BLOOD_PRESSURE', systolic: 142, diastolic: 91, unit: 'mmHg' },
      { measure: 'HEART_RATE', value: 77, unit: null },
    ]);
  });

  it('fixes look-alike letters inside numbers but keeps words', () => {
    expect(normalizeOcrText('SYS  1O8\nDIA 7I')).toBe('SYS 108\nDIA 71');
    expect(parseReadingText('SYS 1O8\nDIA 7I')).toEqual([{ measure: 'BLOOD_PRESSURE', systolic: 108, diastolic: 71, unit: 'mmHg' }]);
  });

  it('reads an oximeter: SpO2 (also SpO2 read as Sp02) and PR', () => {
    expect(parseReadingText('%SpO2 97\nPR bpm 68')).toEqual([
      { measure: 'HEART_RATE', value: 68, unit: null },
      { measure: 'SPO2', value: 97, unit: null },
    ]);
    expect(parseReadingText('Sp02 95')).toEqual([{ measure: 'SPO2', value: 95, unit: null }]);
  });

  it('reads glucose, temperature and weight with their printed units', () => {
    expect(parseReadingText('GLU 6,4 mmol/L')).toEqual([{ measure: 'GLUCOSE', value: 6.4, unit: 'mmol/L' }]);
    expect(parseReadingText('112 mg/dL')).toEqual([{ measure: 'GLUCOSE', value: 112, unit: 'mg/dL' }]);
    expect(parseReadingText('36.8 °C')).toEqual([{ measure: 'TEMPERATURE', value: 36.8, unit: 'C' }]);
    expect(parseReadingText('Temp 98.6F')).toEqual([{ measure: 'TEMPERATURE', value: 98.6, unit: 'F' }]);
    expect(parseReadingText('72.4 kg')).toEqual([{ measure: 'WEIGHT', value: 72.4, unit: 'kg' }]);
    expect(parseReadingText('Weight 160 lb')).toEqual([{ measure: 'WEIGHT', value: 160, unit: 'lbs' }]);
  });

  it('finds nothing in text without readings, and skips implausible numbers', () => {
    expect(parseReadingText('')).toEqual([]);
    expect(parseReadingText('Hello world\nMEM 03')).toEqual([]);
    expect(parseReadingText('SYS 12 DIA 8')).toEqual([]);
    expect(parseReadingText('SpO2 7')).toEqual([]);
  });
});

describe('candidateInUnits', () => {
  it('converts a value printed in another unit to the patient’s own', () => {
    expect(candidateInUnits({ measure: 'TEMPERATURE', value: 98.6, unit: 'F' }, METRIC)).toEqual({ measure: 'TEMPERATURE', value: 37, unit: 'C' });
    expect(candidateInUnits({ measure: 'GLUCOSE', value: 108, unit: 'mg/dL' }, IMPERIAL)).toEqual({ measure: 'GLUCOSE', value: 5.99, unit: 'mmol/L' });
    expect(candidateInUnits({ measure: 'WEIGHT', value: 72, unit: null }, METRIC)).toEqual({ measure: 'WEIGHT', value: 72, unit: 'kg' });
    const pressure = { measure: 'BLOOD_PRESSURE', systolic: 120, diastolic: 80, unit: 'mmHg' } as const;
    expect(candidateInUnits(pressure, IMPERIAL)).toBe(pressure);
  });
});
