import {
  defaultThresholds,
  levelOf,
  THRESHOLD_METRICS,
  worseStatus,
  type ThresholdMetric,
  type VitalStatus,
} from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import {
  BATCH_MINUTES,
  createProfile,
  createRandom,
  drawEpisode,
  drawEvents,
  EPISODE_SEVERITIES,
  EPISODE_WINDOWS,
  generateBatch,
  generateEcg,
  localHour,
  parseEventRates,
  type SimulatedBatch,
  type SimulatedReading,
} from './vitals.js';

const profile = { ...createProfile(7), utcOffsetMinutes: 0 };

/** A whole simulated day of batches starting at UTC midnight (local = UTC for this profile). */
function simulateDay(seed: number, day = '2026-03-02'): SimulatedBatch[] {
  const random = createRandom(seed);
  const start = Date.parse(`${day}T00:00:00Z`);
  return Array.from({ length: (24 * 60) / BATCH_MINUTES }, (_, index) =>
    generateBatch(profile, random, new Date(start + index * BATCH_MINUTES * 60_000)),
  );
}

const valuesOf = (batches: SimulatedBatch[], measure: SimulatedReading['measure']) =>
  batches.flatMap((batch) => batch.readings.filter((reading) => reading.measure === measure));

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe('vitals generator', () => {
  it('is deterministic for a seed', () => {
    expect(simulateDay(1)).toEqual(simulateDay(1));
    expect(simulateDay(1)).not.toEqual(simulateDay(2));
  });

  it('covers exactly 15 minutes per batch with one heart rate a minute', () => {
    const [batch] = simulateDay(3);
    const heartRates = batch?.readings.filter((reading) => reading.measure === 'HEART_RATE') ?? [];
    expect(heartRates).toHaveLength(15);
    const times = batch?.readings.map((reading) => reading.measuredAt.getTime()) ?? [];
    const start = Date.parse('2026-03-02T00:00:00Z');
    expect(Math.min(...times)).toBe(start);
    expect(Math.max(...times)).toBeLessThan(start + BATCH_MINUTES * 60_000);
  });

  it('keeps every value in its realistic range without events', () => {
    const batches = [1, 2, 3, 4].flatMap((seed) => simulateDay(seed));
    for (const reading of valuesOf(batches, 'HEART_RATE')) expect(reading.value).toBeGreaterThanOrEqual(45);
    for (const reading of valuesOf(batches, 'HEART_RATE')) expect(reading.value).toBeLessThanOrEqual(125);
    for (const reading of valuesOf(batches, 'SPO2')) {
      expect(reading.value).toBeGreaterThanOrEqual(94);
      expect(reading.value).toBeLessThanOrEqual(99);
    }
    const systolic = valuesOf(batches, 'SYSTOLIC');
    const diastolic = valuesOf(batches, 'DIASTOLIC');
    systolic.forEach((reading, index) => {
      expect(reading.value).toBeGreaterThanOrEqual(90);
      expect(reading.value).toBeLessThanOrEqual(139);
      expect(reading.value - (diastolic[index]?.value ?? Infinity)).toBeGreaterThanOrEqual(20);
    });
    for (const reading of valuesOf(batches, 'TEMPERATURE')) {
      expect(reading.value).toBeGreaterThanOrEqual(35.8);
      expect(reading.value).toBeLessThanOrEqual(37.4);
    }
  });

  it('dips SpO2 below 95 only in the night window 00:00-07:00', () => {
    const spo2 = valuesOf(
      [1, 2, 3].flatMap((seed) => simulateDay(seed)),
      'SPO2',
    );
    const dips = spo2.filter((reading) => reading.value < 95.5);
    expect(dips.length).toBeGreaterThan(10);
    for (const dip of dips) expect(localHour(dip.measuredAt, profile)).toBeLessThan(7);
    const day = spo2.filter((reading) => localHour(reading.measuredAt, profile) >= 7);
    expect(Math.min(...day.map((reading) => reading.value))).toBeGreaterThanOrEqual(96);
  });

  it('gives heart rate a daily rhythm: lower at night, activity peaks by day', () => {
    const heartRates = valuesOf(simulateDay(5), 'HEART_RATE');
    const at = (from: number, to: number) =>
      mean(
        heartRates
          .filter((reading) => {
            const hour = localHour(reading.measuredAt, profile);
            return hour >= from && hour < to;
          })
          .map((reading) => reading.value),
      );
    const night = at(1, 5);
    const afternoon = at(14.5, 16);
    const eveningPeak = at(17.5, 18.5);
    expect(night).toBeLessThan(profile.restingHeartRate - 3);
    expect(afternoon).toBeGreaterThan(night + 6);
    expect(eveningPeak).toBeGreaterThan(afternoon + 10);
  });

  it('counts steps only while awake and reports the sleep once, at 07:00', () => {
    const batches = simulateDay(6);
    for (const reading of valuesOf(batches, 'STEPS').filter(
      (step) => localHour(step.measuredAt, profile) < 6.5,
    ))
      expect(reading.value).toBe(0);
    const sleeps = batches.flatMap((batch) => (batch.sleep === null ? [] : [batch.sleep]));
    expect(sleeps).toHaveLength(1);
    const [sleep] = sleeps;
    if (sleep === undefined) throw new Error('no sleep');
    expect(sleep.end.toISOString()).toBe('2026-03-02T07:00:00.000Z');
    const hours = (sleep.end.getTime() - sleep.start.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThanOrEqual(7);
    expect(hours).toBeLessThanOrEqual(8);
    // Stages are contiguous and cover the night.
    expect(sleep.stages[0]?.start).toEqual(sleep.start);
    expect(sleep.stages.at(-1)?.end).toEqual(sleep.end);
    sleep.stages.slice(1).forEach((stage, index) => {
      expect(stage.start).toEqual(sleep.stages[index]?.end);
    });
    const minutesOf = (kind: string) =>
      sleep.stages
        .filter((stage) => stage.stage === kind)
        .reduce((sum, stage) => sum + (stage.end.getTime() - stage.start.getTime()) / 60_000, 0);
    expect(minutesOf('DEEP')).toBeGreaterThan(30);
    expect(minutesOf('REM')).toBeGreaterThan(60);
  });

  it('keeps a healthy day NORMAL against the default thresholds (no false alerts)', () => {
    const thresholds = defaultThresholds(40);
    const batches = [1, 2, 3, 4, 5, 6].flatMap((seed) => simulateDay(seed));
    const levels = batches.flatMap((batch) =>
      batch.readings
        .filter((reading) => (THRESHOLD_METRICS as readonly string[]).includes(reading.measure))
        .map(
          (reading) =>
            `${reading.measure} ${String(reading.value)} ${levelOf(reading.measure as ThresholdMetric, reading.value, thresholds)}`,
        ),
    );
    expect(levels.length).toBeGreaterThan(1000);
    expect(levels.filter((line) => !line.endsWith('NORMAL'))).toEqual([]);
  });

  it('records one ECG a day with a plausible trace and measures', () => {
    const ecgs = simulateDay(8).flatMap((batch) => (batch.ecg === null ? [] : [batch.ecg]));
    expect(ecgs).toHaveLength(1);
    const ecg = generateEcg(createRandom(3), new Date('2026-03-02T09:00:00Z'), 72);
    expect(ecg.samples).toHaveLength(30 * 250);
    expect(Math.max(...ecg.samples)).toBeGreaterThan(0.9);
    expect(Math.abs(ecg.averageHeartRate - 72)).toBeLessThanOrEqual(3);
    expect(ecg.qt).toBeGreaterThanOrEqual(350);
    expect(ecg.qt).toBeLessThanOrEqual(440);
  });

  it('applies injected events', () => {
    const random = createRandom(9);
    const start = new Date('2026-03-02T10:00:00Z');
    const batch = generateBatch(profile, random, start, [
      'tachycardia',
      'hypoxia',
      'hypertensiveCrisis',
      'fall',
      'sos',
    ]);
    for (const reading of batch.readings.filter((item) => item.measure === 'HEART_RATE'))
      expect(reading.value).toBeGreaterThanOrEqual(150);
    for (const reading of batch.readings.filter((item) => item.measure === 'SPO2'))
      expect(reading.value).toBeLessThan(88);
    expect(batch.readings.find((item) => item.measure === 'SYSTOLIC')?.value).toBeGreaterThan(180);
    expect(batch.readings.find((item) => item.measure === 'DIASTOLIC')?.value).toBeGreaterThan(120);
    expect(batch.events.map((event) => event.kind)).toEqual(['fall', 'sos']);
  });

  it('gives an abnormal episode values at its severity for the patient’s age, never the next level', () => {
    const measuresOf = {
      tachycardia: ['HEART_RATE'],
      hypoxia: ['SPO2'],
      hypertensiveCrisis: ['SYSTOLIC', 'DIASTOLIC'],
    } as const;
    // The demo doctor's patients are 23 to 86 years old; the heart-rate SOS line falls with age.
    for (const ageYears of [23, 44, 65, 86]) {
      const aged = { ...profile, ageYears };
      const thresholds = defaultThresholds(ageYears);
      for (const severity of EPISODE_SEVERITIES) {
        for (const [event, measures] of Object.entries(measuresOf)) {
          for (const seed of [1, 2, 3, 4, 5]) {
            // Day and night windows: the episode's values do not depend on the rhythm.
            for (const start of ['2026-03-02T03:00:00Z', '2026-03-02T18:00:00Z']) {
              const batch = generateBatch(
                aged,
                createRandom(seed),
                new Date(start),
                [event as 'hypoxia'],
                severity,
              );
              const levels = batch.readings
                .filter((reading) => (measures as readonly string[]).includes(reading.measure))
                .map((reading) => levelOf(reading.measure as ThresholdMetric, reading.value, thresholds));
              const worst = levels.reduce<VitalStatus>((level, next) => worseStatus(level, next), 'NORMAL');
              expect(worst, `${event} ${severity} at ${String(ageYears)}`).toBe(severity);
              // Every heart rate and SpO2 of the window is at the severity, not only the worst one.
              if (event !== 'hypertensiveCrisis') expect(new Set(levels)).toEqual(new Set([severity]));
            }
          }
        }
      }
    }
  });

  it('draws mostly mild episodes: about three in four at risk, one in five high risk, rarely SOS', () => {
    const random = createRandom(13);
    const episodes = Array.from({ length: 10_000 }, () => drawEpisode(random));
    const share = (severity: string) =>
      episodes.filter((episode) => episode.severity === severity).length / 10_000;
    expect(share('AT_RISK')).toBeGreaterThan(0.72);
    expect(share('AT_RISK')).toBeLessThan(0.8);
    expect(share('HIGH_RISK')).toBeGreaterThan(0.17);
    expect(share('HIGH_RISK')).toBeLessThan(0.23);
    expect(share('SOS')).toBeGreaterThan(0.025);
    expect(share('SOS')).toBeLessThan(0.055);
    for (const episode of episodes) {
      const [fewest, most] = EPISODE_WINDOWS[episode.severity];
      expect(episode.windows).toBeGreaterThanOrEqual(fewest);
      expect(episode.windows).toBeLessThanOrEqual(most);
    }
    expect(EPISODE_WINDOWS.SOS).toEqual([1, 1]);
  });

  it('parses event rates and draws them by probability', () => {
    expect(parseEventRates('sos:0.01, fall:0.005')).toEqual({ sos: 0.01, fall: 0.005 });
    expect(() => parseEventRates('meteor:0.1')).toThrow(/unknown event/);
    expect(() => parseEventRates('sos:2')).toThrow(/between 0 and 1/);
    const random = createRandom(11);
    const draws = Array.from({ length: 2000 }, () => drawEvents(random, { sos: 0.1 }));
    const count = draws.filter((events) => events.includes('sos')).length;
    expect(count).toBeGreaterThan(140);
    expect(count).toBeLessThan(260);
    expect(draws.flat().every((event) => event === 'sos')).toBe(true);
  });
});
