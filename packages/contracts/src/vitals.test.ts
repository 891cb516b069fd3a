import { describe, expect, it } from 'vitest';
import {
  bloodPressureProblem,
  displayUnit,
  fromCanonical,
  MANUAL_ENTRY_RANGES,
  manualEntryRange,
  manualValueProblem,
  toCanonical,
  type Measure,
} from './vitals.js';

describe('manual entry rules of spec §5, at the boundaries', () => {
  // Literal boundaries as a person types them, in every unit a tenant or user may choose.
  it.each<[Measure, number, string, boolean]>([
    // "SpO2 above 88 and below 100 percent"
    ['SPO2', 87.99, '%', false],
    ['SPO2', 88, '%', false],
    ['SPO2', 88.01, '%', true],
    ['SPO2', 99.99, '%', true],
    ['SPO2', 100, '%', false],
    ['SPO2', 100.01, '%', false],
    // "blood glucose below 300 mg/dL" (above 0: docs/decisions.md)
    ['GLUCOSE', -0.01, 'mg/dL', false],
    ['GLUCOSE', 0, 'mg/dL', false],
    ['GLUCOSE', 0.01, 'mg/dL', true],
    ['GLUCOSE', 299.99, 'mg/dL', true],
    ['GLUCOSE', 300, 'mg/dL', false],
    ['GLUCOSE', 300.01, 'mg/dL', false],
    ['GLUCOSE', 0, 'mmol/L', false],
    ['GLUCOSE', 0.01, 'mmol/L', true],
    ['GLUCOSE', 16.65, 'mmol/L', true], // 299.97 mg/dL
    ['GLUCOSE', 300 / 18.016, 'mmol/L', false], // 300 mg/dL exactly
    ['GLUCOSE', 16.66, 'mmol/L', false], // 300.15 mg/dL
    // "heart rate above 30 and below 300 bpm"
    ['HEART_RATE', 29.99, 'bpm', false],
    ['HEART_RATE', 30, 'bpm', false],
    ['HEART_RATE', 30.01, 'bpm', true],
    ['HEART_RATE', 299.99, 'bpm', true],
    ['HEART_RATE', 300, 'bpm', false],
    ['HEART_RATE', 300.01, 'bpm', false],
    // "weight above 1 and below 700 kg"
    ['WEIGHT', 0.99, 'kg', false],
    ['WEIGHT', 1, 'kg', false],
    ['WEIGHT', 1.01, 'kg', true],
    ['WEIGHT', 699.99, 'kg', true],
    ['WEIGHT', 700, 'kg', false],
    ['WEIGHT', 700.01, 'kg', false],
    ['WEIGHT', 2.2, 'lbs', false], // 0.998 kg
    ['WEIGHT', 2.2046226218, 'lbs', false], // 1 kg
    ['WEIGHT', 2.21, 'lbs', true],
    ['WEIGHT', 1543.23, 'lbs', true], // 699.997 kg
    ['WEIGHT', 1543.2358352599999, 'lbs', false], // 700 kg
    ['WEIGHT', 1543.24, 'lbs', false],
    // "temperature above 30 and below 45 C" (86 and 113 °F)
    ['TEMPERATURE', 29.99, 'C', false],
    ['TEMPERATURE', 30, 'C', false],
    ['TEMPERATURE', 30.01, 'C', true],
    ['TEMPERATURE', 44.99, 'C', true],
    ['TEMPERATURE', 45, 'C', false],
    ['TEMPERATURE', 45.01, 'C', false],
    ['TEMPERATURE', 85.99, 'F', false],
    ['TEMPERATURE', 86, 'F', false],
    ['TEMPERATURE', 86.01, 'F', true],
    ['TEMPERATURE', 98.6, 'F', true],
    ['TEMPERATURE', 112.99, 'F', true],
    ['TEMPERATURE', 113, 'F', false],
    ['TEMPERATURE', 113.01, 'F', false],
    // "Systolic and diastolic below 300 mmHg"
    ['SYSTOLIC', 0, 'mmHg', false],
    ['SYSTOLIC', 299.99, 'mmHg', true],
    ['SYSTOLIC', 300, 'mmHg', false],
    ['DIASTOLIC', 0, 'mmHg', false],
    ['DIASTOLIC', 299.99, 'mmHg', true],
    ['DIASTOLIC', 300, 'mmHg', false],
    // counts
    ['STEPS', -1, 'count', false],
    ['STEPS', 0, 'count', true],
    ['CALORIES', -0.01, 'kcal', false],
    ['CALORIES', 0, 'kcal', true],
  ])('%s %d %s accepted: %s', (measure, value, unit, accepted) => {
    expect(manualValueProblem(measure, value, unit) === null).toBe(accepted);
  });

  // Every bound in every unit, derived from the canonical range: just inside, on, just outside.
  const units: [Measure, string][] = [
    ['SPO2', '%'],
    ['GLUCOSE', 'mg/dL'],
    ['GLUCOSE', 'mmol/L'],
    ['GLUCOSE', 'umol/L'],
    ['HEART_RATE', 'bpm'],
    ['WEIGHT', 'kg'],
    ['WEIGHT', 'lbs'],
    ['TEMPERATURE', 'C'],
    ['TEMPERATURE', 'F'],
    ['SYSTOLIC', 'mmHg'],
    ['DIASTOLIC', 'mmHg'],
  ];
  it.each(units)('%s in %s: exclusive at both bounds, in the entered unit and in canonical', (measure, unit) => {
    const canonical = MANUAL_ENTRY_RANGES[measure];
    if (canonical?.above === undefined || canonical.below === undefined) throw new Error('expected a range');
    const range = manualEntryRange(measure, unit);
    const low = fromCanonical(measure, canonical.above, unit);
    const high = fromCanonical(measure, canonical.below, unit);
    expect(range?.above).toBe(low);
    expect(range?.below).toBe(high);
    const step = (high - low) / 10_000;
    const verdicts = [low - step, low, low + step, high - step, high, high + step].map(
      (value) => manualValueProblem(measure, value, unit) === null,
    );
    expect(verdicts).toEqual([false, false, true, true, false, false]);
    // The same values converted to canonical first give the same verdicts.
    expect(
      [low - step, low, low + step, high - step, high, high + step].map(
        (value) => manualValueProblem(measure, toCanonical(measure, value, unit)) === null,
      ),
    ).toEqual(verdicts);
  });

  it('refuses non-numbers', () => {
    expect(manualValueProblem('HEART_RATE', Number.NaN)).toBe('outOfRange');
    expect(manualValueProblem('TEMPERATURE', Number.POSITIVE_INFINITY, 'F')).toBe('outOfRange');
  });

  it('needs systolic above diastolic by at least 20 (inclusive), both below 300', () => {
    expect(bloodPressureProblem(120, 100)).toBeNull();
    expect(bloodPressureProblem(120.1, 100.1)).toBeNull(); // 19.999999999999986 in floating point
    expect(bloodPressureProblem(119.99, 100)).toBe('pulsePressure');
    expect(bloodPressureProblem(119, 100)).toBe('pulsePressure');
    expect(bloodPressureProblem(299.99, 80)).toBeNull();
    expect(bloodPressureProblem(300, 80)).toBe('outOfRange');
    expect(bloodPressureProblem(320, 300)).toBe('outOfRange');
    expect(bloodPressureProblem(120, 0)).toBe('outOfRange');
  });
});

describe('unit conversion', () => {
  const imperial = {
    unitSystem: 'IMPERIAL',
    thermalUnit: 'FAHRENHEIT',
    glucoseUnit: 'mmol/L',
    uricAcidUnit: 'umol/L',
  } as const;
  it('shows each measure in the tenant’s units', () => {
    expect(displayUnit('TEMPERATURE', imperial)).toBe('F');
    expect(displayUnit('WEIGHT', imperial)).toBe('lbs');
    expect(displayUnit('GLUCOSE', imperial)).toBe('mmol/L');
    expect(displayUnit('HEART_RATE', imperial)).toBe('bpm');
  });
  it.each<[Measure, number, string, number]>([
    ['TEMPERATURE', 98.6, 'F', 37],
    ['WEIGHT', 154.32, 'lbs', 70],
    ['HEIGHT', 70, 'in', 177.8],
    ['GLUCOSE', 5.55, 'mmol/L', 100],
    ['URIC_ACID', 357, 'umol/L', 6],
  ])('%s %d %s = %d canonical, and back', (measure, value, unit, canonical) => {
    expect(toCanonical(measure, value, unit)).toBeCloseTo(canonical, 0);
    expect(fromCanonical(measure, toCanonical(measure, value, unit), unit)).toBeCloseTo(value, 6);
  });
});
