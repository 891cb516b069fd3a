import {
  caloriesBurned,
  DISTANCE_SPORTS,
  distanceFromSteps,
  metersBetween,
  paceSecondsPerKm,
  speedKmhOf,
  STEP_SPORTS,
  strideCmFor,
  tempoOf,
  type GeoPoint,
  type SportSessionInput,
  type SportType,
} from '@rpm/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createStepDetector, type StepDetector } from './step-detector';
import { applyAction, elapsedMs, IDLE, type TrackerAction, type TrackerState } from './tracker';
import { newBatchId } from '../../lib/batch-id';

/** GPS fixes less accurate than this (metres) are skipped: they would add distance by drifting. */
const MAX_GPS_ACCURACY_M = 30;

export interface LiveFigures {
  elapsedMs: number;
  steps: number | null;
  distanceM: number | null;
  distanceSource: 'GPS' | 'STEPS' | null;
  paceSecondsPerKm: number | null;
  speedKmh: number | null;
  calories: number | null;
  strideCm: number | null;
}

/** The figures of a session so far: steps, distance (GPS when it has any, else steps × stride), pace, calories. */
export function figuresOf(input: {
  sport: SportType;
  elapsedMs: number;
  steps: number;
  gpsMeters: number;
  hasGps: boolean;
  heightCm: number | null;
  weightKg: number | null;
}): LiveFigures {
  const countsSteps = STEP_SPORTS.includes(input.sport);
  const hasDistance = DISTANCE_SPORTS.includes(input.sport);
  const strideCm = countsSteps ? strideCmFor(input.sport, input.heightCm) : null;
  const fromSteps = countsSteps ? distanceFromSteps(input.steps, strideCm) : null;
  const distanceM = !hasDistance ? null : input.hasGps ? input.gpsMeters : fromSteps;
  const seconds = input.elapsedMs / 1000;
  return {
    elapsedMs: input.elapsedMs,
    steps: countsSteps ? input.steps : null,
    distanceM,
    distanceSource: distanceM === null ? null : input.hasGps ? 'GPS' : 'STEPS',
    paceSecondsPerKm: paceSecondsPerKm(seconds, distanceM),
    speedKmh: distanceM === null ? null : speedKmhOf(seconds, distanceM),
    calories: caloriesBurned(input.sport, input.weightKg, seconds),
    strideCm,
  };
}

/** What is saved for a stopped session. */
export function sessionInput(sport: SportType, clientId: string, state: TrackerState, figures: LiveFigures): SportSessionInput {
  const seconds = Math.max(1, Math.round(figures.elapsedMs / 1000));
  return {
    clientId,
    sport,
    startAt: new Date(state.startedAt ?? Date.now()).toISOString(),
    practiceSeconds: seconds,
    steps: figures.steps,
    distanceM: figures.distanceM === null ? null : Math.round(figures.distanceM),
    distanceSource: figures.distanceSource,
    strideCm: figures.strideCm === null ? null : Math.round(figures.strideCm * 10) / 10,
    tempo: tempoOf(figures.steps, seconds),
    speedKmh: figures.speedKmh,
    calories: figures.calories === null ? null : Math.round(figures.calories * 10) / 10,
  };
}

/**
 * A live session: the clock (ticking every second while running), steps from the accelerometer and
 * distance from the phone's positions when the person allows them. Paused time, steps and
 * movement do not count.
 */
export function useTracking(sport: SportType, body: { heightCm: number | null; weightKg: number | null }) {
  const [state, setState] = useState<TrackerState>(IDLE);
  const [now, setNow] = useState(() => Date.now());
  const [steps, setSteps] = useState(0);
  const [gps, setGps] = useState({ meters: 0, hasFix: false });
  const [clientId] = useState(() => newBatchId());
  const detector = useRef<StepDetector>(createStepDetector());
  const lastPoint = useRef<GeoPoint | null>(null);
  const isRunning = state.status === 'running';

  useEffect(() => {
    if (!isRunning) return undefined;
    const timer = window.setInterval(() => {
      setNow(Date.now());
    }, 1000);
    const onMotion = (event: DeviceMotionEvent) => {
      const acceleration = event.accelerationIncludingGravity;
      if (acceleration === null) return;
      const sample = { x: acceleration.x ?? 0, y: acceleration.y ?? 0, z: acceleration.z ?? 0 };
      if (detector.current.push(sample, Date.now())) setSteps(detector.current.steps);
    };
    window.addEventListener('devicemotion', onMotion);
    let watchId: number | undefined;
    if ('geolocation' in navigator) {
      watchId = navigator.geolocation.watchPosition(
        (position) => {
          if (position.coords.accuracy > MAX_GPS_ACCURACY_M) return;
          const point = { lat: position.coords.latitude, lng: position.coords.longitude };
          const previous = lastPoint.current;
          lastPoint.current = point;
          setGps((current) => ({ meters: current.meters + (previous === null ? 0 : metersBetween(previous, point)), hasFix: true }));
        },
        () => undefined,
        { enableHighAccuracy: true },
      );
    }
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('devicemotion', onMotion);
      if (watchId !== undefined) navigator.geolocation.clearWatch(watchId);
      // A pause breaks the track: the way between pause and resume is not counted.
      lastPoint.current = null;
    };
  }, [isRunning]);

  const act = useCallback((action: TrackerAction) => {
    const at = Date.now();
    setNow(at);
    setState((current) => applyAction(current, action, at));
  }, []);

  const figures = figuresOf({
    sport,
    elapsedMs: elapsedMs(state, now),
    steps,
    gpsMeters: gps.meters,
    hasGps: gps.hasFix,
    heightCm: body.heightCm,
    weightKg: body.weightKg,
  });
  return { state, figures, act, input: () => sessionInput(sport, clientId, state, figures) };
}
