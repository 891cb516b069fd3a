import { describe, expect, it } from 'vitest';
import { createStepDetector } from './step-detector';
import { applyAction, elapsedMs, IDLE } from './tracker';
import { figuresOf, sessionInput } from './use-tracking';

describe('sport session clock', () => {
  it('counts running time only: 60 s, a 30 s pause, 45 s more, then stop', () => {
    let state = applyAction(IDLE, 'start', 1_000);
    expect(elapsedMs(state, 61_000)).toBe(60_000);
    state = applyAction(state, 'pause', 61_000);
    expect(elapsedMs(state, 91_000)).toBe(60_000);
    state = applyAction(state, 'resume', 91_000);
    state = applyAction(state, 'stop', 136_000);
    expect(state.status).toBe('stopped');
    expect(elapsedMs(state, 500_000)).toBe(105_000);
    expect(state.startedAt).toBe(1_000);
  });

  it('ignores actions a state does not allow', () => {
    expect(applyAction(IDLE, 'pause', 5)).toBe(IDLE);
    const running = applyAction(IDLE, 'start', 0);
    expect(applyAction(running, 'start', 10)).toBe(running);
    const stopped = applyAction(running, 'stop', 10);
    expect(applyAction(stopped, 'resume', 20)).toBe(stopped);
  });
});

describe('step detector', () => {
  /** Walking: the magnitude swings ±3 m/s² around gravity, `perSecond` steps a second, sampled every 20 ms. */
  function walk(seconds: number, perSecond: number) {
    const detector = createStepDetector();
    for (let at = 0; at < seconds * 1000; at += 20) {
      const swing = 3 * Math.sin((2 * Math.PI * perSecond * at) / 1000);
      detector.push({ x: 0, y: 0, z: 9.81 + swing }, at);
    }
    return detector.steps;
  }

  it('counts two steps a second for 10 seconds as about 20 steps', () => {
    expect(walk(10, 2)).toBeGreaterThanOrEqual(19);
    expect(walk(10, 2)).toBeLessThanOrEqual(20);
  });

  it('counts nothing when the phone lies still or trembles a little', () => {
    const detector = createStepDetector();
    for (let at = 0; at < 10_000; at += 20) detector.push({ x: 0.1, y: 0.2, z: 9.81 + 0.3 * Math.sin(at) }, at);
    expect(detector.steps).toBe(0);
  });

  it('never counts more than 4 steps a second', () => {
    expect(walk(5, 10)).toBeLessThanOrEqual(20);
  });
});

describe('live figures', () => {
  it('walks 1000 steps at 170 cm in 10 minutes: 705.5 m from steps, pace and calories from 70 kg', () => {
    const figures = figuresOf({ sport: 'WALK', elapsedMs: 600_000, steps: 1000, gpsMeters: 0, hasGps: false, heightCm: 170, weightKg: 70 });
    expect(figures.distanceM).toBeCloseTo(705.5, 6);
    expect(figures.distanceSource).toBe('STEPS');
    expect(figures.paceSecondsPerKm).toBeCloseTo(600 / 0.7055, 3);
    expect(figures.calories).toBeCloseTo(3.5 * 70 * (10 / 60), 6);
  });

  it('prefers GPS distance once there is a fix', () => {
    const figures = figuresOf({ sport: 'RUN', elapsedMs: 300_000, steps: 800, gpsMeters: 1000, hasGps: true, heightCm: 170, weightKg: null });
    expect(figures).toMatchObject({ distanceM: 1000, distanceSource: 'GPS', paceSecondsPerKm: 300, calories: null });
  });

  it('shows no steps or distance for yoga', () => {
    const figures = figuresOf({ sport: 'YOGA', elapsedMs: 60_000, steps: 12, gpsMeters: 0, hasGps: false, heightCm: 170, weightKg: 60 });
    expect(figures).toMatchObject({ steps: null, distanceM: null, paceSecondsPerKm: null });
    expect(figures.calories).toBeCloseTo(2.5, 6);
  });

  it('saves whole seconds, rounded distance and a tempo', () => {
    const state = applyAction(applyAction(IDLE, 'start', Date.parse('2026-06-10T08:00:00Z')), 'stop', Date.parse('2026-06-10T08:10:00Z'));
    const figures = figuresOf({ sport: 'WALK', elapsedMs: elapsedMs(state, 0), steps: 1000, gpsMeters: 0, hasGps: false, heightCm: 170, weightKg: 70 });
    expect(sessionInput('WALK', 'c0ffee00-0000-4000-8000-000000000000', state, figures)).toMatchObject({
      startAt: '2026-06-10T08:00:00.000Z',
      practiceSeconds: 600,
      steps: 1000,
      distanceM: 706,
      distanceSource: 'STEPS',
      tempo: 100,
    });
  });
});
