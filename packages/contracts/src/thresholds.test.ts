import { describe, expect, it } from 'vitest';
import {
  ALERT_LEVELS,
  defaultThresholds,
  levelOf,
  maxHeartRate,
  THRESHOLD_METRICS,
  thresholdProblems,
  worseStatus,
  type ThresholdMetric,
  type VitalStatus,
} from './thresholds.js';

const defaults = defaultThresholds(70);

/**
 * Every reference range of spec §9 (and the completed clinical cut-offs), at its boundaries: the
 * boundary value itself stays at the milder level, one step beyond it reaches the next.
 */
const CASES: [ThresholdMetric, number, VitalStatus][] = [
  // SpO2: alert below 92; normal 94–100.
  ['SPO2', 100, 'NORMAL'],
  ['SPO2', 94, 'NORMAL'],
  ['SPO2', 93.9, 'AT_RISK'],
  ['SPO2', 92, 'AT_RISK'],
  ['SPO2', 91.9, 'HIGH_RISK'],
  ['SPO2', 88, 'HIGH_RISK'],
  ['SPO2', 87.9, 'SOS'],
  // Blood pressure stages: < 120 / < 80 normal; stage 1 130–139 / 80–89; stage 2; crisis.
  ['SYSTOLIC', 119, 'NORMAL'],
  ['SYSTOLIC', 129, 'NORMAL'],
  ['SYSTOLIC', 130, 'AT_RISK'],
  ['SYSTOLIC', 139, 'AT_RISK'],
  ['SYSTOLIC', 140, 'HIGH_RISK'],
  ['SYSTOLIC', 180, 'HIGH_RISK'],
  ['SYSTOLIC', 181, 'SOS'],
  ['SYSTOLIC', 90, 'NORMAL'],
  ['SYSTOLIC', 89, 'AT_RISK'],
  ['SYSTOLIC', 79, 'HIGH_RISK'],
  ['SYSTOLIC', 69, 'SOS'],
  ['DIASTOLIC', 79, 'NORMAL'],
  ['DIASTOLIC', 80, 'AT_RISK'],
  ['DIASTOLIC', 89, 'AT_RISK'],
  ['DIASTOLIC', 90, 'HIGH_RISK'],
  ['DIASTOLIC', 120, 'HIGH_RISK'],
  ['DIASTOLIC', 121, 'SOS'],
  ['DIASTOLIC', 60, 'NORMAL'],
  ['DIASTOLIC', 59, 'AT_RISK'],
  ['DIASTOLIC', 49, 'HIGH_RISK'],
  ['DIASTOLIC', 39, 'SOS'],
  // Heart rate: SOS above the age's maximum (70 years: 205.8 − 47.95 = 157.85, kept as 157.9).
  ['HEART_RATE', 50, 'NORMAL'],
  ['HEART_RATE', 100, 'NORMAL'],
  ['HEART_RATE', 101, 'AT_RISK'],
  ['HEART_RATE', 49, 'AT_RISK'],
  ['HEART_RATE', 121, 'HIGH_RISK'],
  ['HEART_RATE', 39, 'HIGH_RISK'],
  ['HEART_RATE', 157.9, 'HIGH_RISK'],
  ['HEART_RATE', 158, 'SOS'],
  ['HEART_RATE', 29, 'SOS'],
  ['HRV', 20, 'NORMAL'],
  ['HRV', 19, 'AT_RISK'],
  ['HRV', 14, 'HIGH_RISK'],
  ['HRV', 1, 'HIGH_RISK'],
  ['TEMPERATURE', 36.6, 'NORMAL'],
  ['TEMPERATURE', 37.5, 'NORMAL'],
  ['TEMPERATURE', 37.6, 'AT_RISK'],
  ['TEMPERATURE', 38.6, 'HIGH_RISK'],
  ['TEMPERATURE', 40.1, 'SOS'],
  ['TEMPERATURE', 35.4, 'AT_RISK'],
  ['TEMPERATURE', 34.9, 'HIGH_RISK'],
  ['TEMPERATURE', 33.9, 'SOS'],
  ['GLUCOSE', 70, 'NORMAL'],
  ['GLUCOSE', 180, 'NORMAL'],
  ['GLUCOSE', 181, 'AT_RISK'],
  ['GLUCOSE', 69, 'AT_RISK'],
  ['GLUCOSE', 251, 'HIGH_RISK'],
  ['GLUCOSE', 53, 'HIGH_RISK'],
  ['GLUCOSE', 301, 'SOS'],
  ['GLUCOSE', 39, 'SOS'],
];

describe('status of a reading against the default thresholds', () => {
  it.each(CASES)('%s %d → %s', (metric, value, expected) => {
    expect(levelOf(metric, value, defaults)).toBe(expected);
  });
});

describe('thresholds', () => {
  it('computes the maximum heart rate of spec §9', () => {
    expect(maxHeartRate(70)).toBe(157.9);
    expect(maxHeartRate(20)).toBe(192.1);
  });

  it('never puts the SOS heart-rate ceiling under the high-risk band for the very old', () => {
    expect(defaultThresholds(120).HEART_RATE.SOS.upper).toBe(130);
    expect(thresholdProblems(defaultThresholds(120))).toEqual([]);
  });

  it('default sets are consistent for every age', () => {
    for (const age of [18, 40, 65, 90, null]) expect(thresholdProblems(defaultThresholds(age))).toEqual([]);
  });

  it('finds bands that do not nest, inverted bounds and implausible values', () => {
    const broken = defaultThresholds(40);
    broken.SPO2.HIGH_RISK.lower = 95; // above the at-risk lower bound
    broken.TEMPERATURE.AT_RISK = { lower: 38, upper: 37 };
    broken.HEART_RATE.SOS.upper = 900;
    expect(thresholdProblems(broken).sort()).toEqual([
      'HEART_RATE.SOS.upper',
      'SPO2.HIGH_RISK.lower',
      'TEMPERATURE.AT_RISK.upper',
    ]);
  });

  it('a custom threshold moves the boundary (a doctor raises the SpO2 at-risk line to 96)', () => {
    const custom = defaultThresholds(40);
    custom.SPO2.AT_RISK.lower = 96;
    expect(levelOf('SPO2', 95, custom)).toBe('AT_RISK');
    expect(levelOf('SPO2', 95, defaultThresholds(40))).toBe('NORMAL');
  });

  it('takes the worse of two statuses', () => {
    expect(worseStatus('AT_RISK', 'SOS')).toBe('SOS');
    expect(worseStatus('HIGH_RISK', 'NORMAL')).toBe('HIGH_RISK');
    expect(worseStatus('NORMAL', 'NORMAL')).toBe('NORMAL');
  });

  it('covers every metric and level', () => {
    for (const metric of THRESHOLD_METRICS)
      for (const level of ALERT_LEVELS) expect(defaults[metric][level]).toBeDefined();
  });
});
