import { defaultThresholds } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { displayBound, thresholdUnitsOf, toCanonicalSet, toDisplaySet } from './threshold-units';

const FAHRENHEIT_MMOL = thresholdUnitsOf({ THERMAL_UNIT: 'F', BLOOD_GLUCOSE_UNIT: 'mmol/L' });

describe('threshold units', () => {
  it('follows the tenant settings for temperature and glucose, canonical units otherwise', () => {
    expect(thresholdUnitsOf({})).toMatchObject({ TEMPERATURE: 'C', GLUCOSE: 'mg/dL', HEART_RATE: 'bpm' });
    expect(FAHRENHEIT_MMOL).toMatchObject({ TEMPERATURE: 'F', GLUCOSE: 'mmol/L', SYSTOLIC: 'mmHg' });
  });

  it('shows canonical bounds in °F and mmol/L at the boundaries', () => {
    expect(displayBound('TEMPERATURE', 37.5, 'F')).toBe(99.5);
    expect(displayBound('TEMPERATURE', 38, 'F')).toBe(100.4);
    expect(displayBound('TEMPERATURE', 35, 'F')).toBe(95);
    expect(displayBound('TEMPERATURE', 0, 'F')).toBe(32);
    expect(displayBound('GLUCOSE', 70, 'mmol/L')).toBe(3.89);
    expect(displayBound('GLUCOSE', 180.16, 'mmol/L')).toBe(10);
    expect(displayBound('GLUCOSE', 70, 'mg/dL')).toBe(70);
    expect(displayBound('HEART_RATE', 120, 'bpm')).toBe(120);
    expect(displayBound('TEMPERATURE', null, 'F')).toBeNull();
  });

  it('saves an untouched set exactly as it was stored', () => {
    const stored = defaultThresholds(60);
    const shown = toDisplaySet(stored, FAHRENHEIT_MMOL);
    expect(toCanonicalSet(shown, stored, FAHRENHEIT_MMOL)).toEqual(stored);
  });

  it('converts entered bounds to canonical units, and they show again as entered after reloading', () => {
    const stored = defaultThresholds(60);
    const entered = toDisplaySet(stored, FAHRENHEIT_MMOL);
    entered.TEMPERATURE.AT_RISK.upper = 100.4;
    entered.TEMPERATURE.SOS.upper = 104.9;
    entered.GLUCOSE.AT_RISK.lower = 3.9;
    entered.GLUCOSE.SOS.upper = 13.88;
    entered.HEART_RATE.AT_RISK.upper = 101;
    const saved = toCanonicalSet(entered, stored, FAHRENHEIT_MMOL);
    expect(saved.TEMPERATURE.AT_RISK.upper).toBe(38);
    expect(saved.GLUCOSE.AT_RISK.lower).toBeCloseTo(70.26, 2);
    expect(saved.HEART_RATE.AT_RISK.upper).toBe(101);
    // Reloading shows exactly what was entered, and saving that again changes nothing.
    const reloaded = toDisplaySet(saved, FAHRENHEIT_MMOL);
    expect(reloaded).toEqual(entered);
    expect(toCanonicalSet(reloaded, saved, FAHRENHEIT_MMOL)).toEqual(saved);
  });

  it('clears a bound emptied in the form', () => {
    const stored = defaultThresholds(60);
    const entered = toDisplaySet(stored, FAHRENHEIT_MMOL);
    entered.TEMPERATURE.AT_RISK.upper = null;
    expect(toCanonicalSet(entered, stored, FAHRENHEIT_MMOL).TEMPERATURE.AT_RISK.upper).toBeNull();
  });
});
