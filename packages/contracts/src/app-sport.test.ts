import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asianRiskNote,
  bmiBand,
  bodyMassIndex,
  caloriesBurned,
  distanceFromSteps,
  metersBetween,
  paceSecondsPerKm,
  speedKmhOf,
  SPORT_METS,
  strideCmFor,
  tempoOf,
  weightGoalProgress,
} from './app-sport.js';
import { SPORT_TYPES } from './health.js';

describe('calories: MET × kg × hours', () => {
  it('gives 8.3 × 70 × 0.5 = 290.5 kcal for half an hour of running at 70 kg', () => {
    expect(caloriesBurned('RUN', 70, 1800)).toBeCloseTo(290.5, 6);
  });

  it('has a MET value for each of the ten sports, walking less than running', () => {
    expect(Object.keys(SPORT_METS).sort()).toEqual([...SPORT_TYPES].sort());
    expect(SPORT_METS.WALK).toBeLessThan(SPORT_METS.RUN);
    expect(caloriesBurned('YOGA', 60, 3600)).toBeCloseTo(150, 6);
  });

  it('is unknown without a weight, and zero for no time', () => {
    expect(caloriesBurned('WALK', null, 600)).toBeNull();
    expect(caloriesBurned('WALK', 0, 600)).toBeNull();
    expect(caloriesBurned('WALK', 70, 0)).toBe(0);
  });

  it('grows with time and weight', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SPORT_TYPES), fc.integer({ min: 30, max: 200 }), fc.integer({ min: 1, max: 20_000 }), (sport, kg, seconds) => {
        const base = caloriesBurned(sport, kg, seconds) ?? -1;
        expect(base).toBeGreaterThan(0);
        expect(caloriesBurned(sport, kg + 1, seconds) ?? 0).toBeGreaterThan(base);
        expect(caloriesBurned(sport, kg, seconds + 60) ?? 0).toBeGreaterThan(base);
      }),
    );
  });
});

describe('stride, distance, pace, speed, tempo', () => {
  it('estimates the stride from height: 0.415 walking, 0.65 running', () => {
    expect(strideCmFor('WALK', 170)).toBeCloseTo(70.55, 6);
    expect(strideCmFor('RUN', 170)).toBeCloseTo(110.5, 6);
    expect(strideCmFor('WALK', null)).toBeNull();
  });

  it('takes steps × stride as the distance', () => {
    expect(distanceFromSteps(1000, 70)).toBe(700);
    expect(distanceFromSteps(0, 70)).toBe(0);
    expect(distanceFromSteps(1000, null)).toBeNull();
  });

  it('gives 6 min/km and 10 km/h for 1 km in 6 minutes', () => {
    expect(paceSecondsPerKm(360, 1000)).toBe(360);
    expect(speedKmhOf(360, 1000)).toBeCloseTo(10, 6);
  });

  it('shows no pace for a few metres', () => {
    expect(paceSecondsPerKm(60, 9)).toBeNull();
    expect(paceSecondsPerKm(60, null)).toBeNull();
  });

  it('counts steps per minute', () => {
    expect(tempoOf(300, 120)).toBe(150);
    expect(tempoOf(null, 120)).toBeNull();
  });

  it('measures about 111 km per degree of latitude', () => {
    expect(metersBetween({ lat: 10, lng: 106 }, { lat: 11, lng: 106 })).toBeCloseTo(111_195, -2);
    expect(metersBetween({ lat: 10, lng: 106 }, { lat: 10, lng: 106 })).toBe(0);
  });
});

describe('body mass index and WHO bands', () => {
  it('is kg / m²', () => {
    expect(bodyMassIndex(70, 175)).toBeCloseTo(22.857, 3);
    expect(bodyMassIndex(70, null)).toBeNull();
    expect(bodyMassIndex(null, 175)).toBeNull();
  });

  it('places each WHO cut-off in the band above it', () => {
    expect(bmiBand(18.49)).toBe('NORMAL'); // shown as 18.5
    expect(bmiBand(18.44)).toBe('UNDERWEIGHT');
    expect(bmiBand(24.9)).toBe('NORMAL');
    expect(bmiBand(25)).toBe('OVERWEIGHT');
    expect(bmiBand(29.9)).toBe('OVERWEIGHT');
    expect(bmiBand(30)).toBe('OBESE_I');
    expect(bmiBand(35)).toBe('OBESE_II');
    expect(bmiBand(40)).toBe('OBESE_III');
  });

  it('adds the Asian action points inside the normal and overweight bands only', () => {
    expect(asianRiskNote(22.9)).toBeNull();
    expect(asianRiskNote(23)).toBe('INCREASED');
    expect(asianRiskNote(24.9)).toBe('INCREASED');
    expect(asianRiskNote(25)).toBeNull();
    expect(asianRiskNote(27.5)).toBe('HIGH');
    expect(asianRiskNote(30)).toBeNull();
  });
});

describe('progress to a weight goal', () => {
  it('is halfway after losing half the way', () => {
    expect(weightGoalProgress({ startKg: 80, currentKg: 75, goalKg: 70 })).toEqual({ fraction: 0.5, remainingKg: 5, isReached: false });
  });

  it('works for gaining weight too', () => {
    expect(weightGoalProgress({ startKg: 50, currentKg: 53, goalKg: 56 })).toEqual({ fraction: 0.5, remainingKg: 3, isReached: false });
  });

  it('is reached at or past the goal, and never below zero', () => {
    expect(weightGoalProgress({ startKg: 80, currentKg: 69, goalKg: 70 })).toEqual({ fraction: 1, remainingKg: 0, isReached: true });
    expect(weightGoalProgress({ startKg: 80, currentKg: 82, goalKg: 70 }).fraction).toBe(0);
    expect(weightGoalProgress({ startKg: 70, currentKg: 70, goalKg: 70 }).isReached).toBe(true);
  });

  it('stays between 0 and 1', () => {
    fc.assert(
      fc.property(fc.double({ min: 2, max: 699, noNaN: true }), fc.double({ min: 2, max: 699, noNaN: true }), fc.double({ min: 2, max: 699, noNaN: true }), (startKg, currentKg, goalKg) => {
        const { fraction, remainingKg } = weightGoalProgress({ startKg, currentKg, goalKg });
        expect(fraction).toBeGreaterThanOrEqual(0);
        expect(fraction).toBeLessThanOrEqual(1);
        expect(remainingKg).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
