import { describe, expect, it } from 'vitest';
import {
  bloodPressureProblem,
  displayUnit,
  fromCanonical,
  manualValueProblem,
  toCanonical,
  type Measure,
} from './vitals.js';

describe('manual entry rules of spec §5, at the boundaries', () => {
  it.each<[Measure, number, boolean]>([
    ['SPO2', 88, true],
    ['SPO2', 87.9, false],
    ['SPO2', 100, true],
    ['SPO2', 100.1, false],
    ['GLUCOSE', 299.9, true],
    ['GLUCOSE', 300, false],
    ['GLUCOSE', 0, false],
    ['HEART_RATE', 30, false],
    ['HEART_RATE', 31, true],
    ['HEART_RATE', 299, true],
    ['HEART_RATE', 300, false],
    ['WEIGHT', 1, false],
    ['WEIGHT', 1.1, true],
    ['WEIGHT', 699.9, true],
    ['WEIGHT', 700, false],
    ['TEMPERATURE', 30, false],
    ['TEMPERATURE', 30.1, true],
    ['TEMPERATURE', 44.9, true],
    ['TEMPERATURE', 45, false],
    ['SYSTOLIC', 300, false],
    ['DIASTOLIC', 299, true],
    ['STEPS', -1, false],
    ['STEPS', 0, true],
  ])('%s %d accepted: %s', (measure, value, accepted) => {
    expect(manualValueProblem(measure, value) === null).toBe(accepted);
  });

  it('refuses non-numbers', () => {
    expect(manualValueProblem('HEART_RATE', Number.NaN)).toBe('outOfRange');
  });

  it('needs systolic above diastolic by at least 20', () => {
    expect(bloodPressureProblem(120, 100)).toBeNull();
    expect(bloodPressureProblem(119, 100)).toBe('pulsePressure');
    expect(bloodPressureProblem(300, 80)).toBe('outOfRange');
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
