import type { ReadingInput, UnitPreferences } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { checkReading, type CheckContext } from './ingest-input.js';

const now = new Date('2026-06-01T12:00:00Z');
const celsius: UnitPreferences = { unitSystem: 'METRIC', thermalUnit: 'CELSIUS', glucoseUnit: 'mg/dL', uricAcidUnit: 'umol/L' };
const imperial: UnitPreferences = { unitSystem: 'IMPERIAL', thermalUnit: 'FAHRENHEIT', glucoseUnit: 'mmol/L', uricAcidUnit: 'umol/L' };
const context: CheckContext = {
  now,
  deviceUnits: celsius,
  enteredUnits: imperial,
  accountSince: new Date('2026-05-01T00:00:00Z'),
  deviceSince: new Date('2026-05-20T00:00:00Z'),
  lateHorizonMinutes: 120,
};
const input = (measure: ReadingInput['measure'], value: number, minutesAgo: number, source: ReadingInput['source']): ReadingInput => ({
  measure,
  value,
  measuredAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  source,
});

describe('checkReading', () => {
  it('reads manual and photo values in the entering user’s units, device values in the tenant’s', () => {
    expect(checkReading(input('TEMPERATURE', 98.6, 1, 'MANUAL'), 0, context).rows?.[0]?.value).toBeCloseTo(37, 9);
    expect(checkReading(input('TEMPERATURE', 98.6, 1, 'PHOTO_OCR'), 0, context).rows?.[0]?.value).toBeCloseTo(37, 9);
    expect(checkReading(input('TEMPERATURE', 37, 1, 'WIRELESS_DEVICE'), 0, context).rows?.[0]?.value).toBe(37);
    // 98.6 °C from a device is implausible; 113 °F typed is on the §5 bound (45 °C).
    expect(checkReading(input('TEMPERATURE', 98.6, 1, 'WIRELESS_DEVICE'), 0, context).problem?.code).toBe('health.valueOutOfRange');
    expect(checkReading(input('TEMPERATURE', 113, 1, 'MANUAL'), 0, context).problem?.code).toBe('health.valueOutOfRange');
    expect(checkReading(input('TEMPERATURE', 112.9, 1, 'MANUAL'), 0, context).problem).toBeNull();
  });

  it('holds manual measures §5 does not list to what a device could report', () => {
    expect(checkReading(input('HRV', -5, 1, 'MANUAL'), 0, context).problem?.code).toBe('health.valueOutOfRange');
    expect(checkReading(input('URIC_ACID', -1, 1, 'MANUAL'), 0, context).problem?.code).toBe('health.valueOutOfRange');
  });

  it('flags late rows and refuses impossible dates, a device’s items also before its binding', () => {
    expect(checkReading(input('HEART_RATE', 70, 120, 'WIRELESS_DEVICE'), 0, context).rows?.[0]?.late).toBe(false);
    expect(checkReading(input('HEART_RATE', 70, 121, 'WIRELESS_DEVICE'), 0, context).rows?.[0]?.late).toBe(true);
    const beforeBinding = 15 * 24 * 60; // 2026-05-17: after the account, before the binding
    expect(checkReading(input('HEART_RATE', 70, beforeBinding, 'WIRELESS_DEVICE'), 0, context).problem?.code).toBe('health.beforeMonitoring');
    expect(checkReading(input('HEART_RATE', 70, beforeBinding, 'MANUAL'), 0, context).rows?.[0]?.late).toBe(true);
    expect(checkReading(input('HEART_RATE', 70, 40 * 24 * 60, 'MANUAL'), 0, context).problem?.code).toBe('health.beforeMonitoring');
    expect(checkReading({ ...input('HEART_RATE', 70, 0, 'MANUAL'), measuredAt: '1900-01-01T00:00:00Z' }, 0, context).problem?.code).toBe('health.tooOld');
  });
});
