/**
 * Counts steps from the phone's accelerometer (DeviceMotionEvent accelerationIncludingGravity):
 * a step is a rise of the acceleration's magnitude above gravity + RISE after it fell below
 * gravity − FALL, at least MIN_STEP_MS after the previous step (no one takes more than 4 steps a
 * second). The magnitude is smoothed first so hand tremor does not count. Pure: feed it samples.
 */
const GRAVITY = 9.81;
const RISE = 1.5;
const FALL = 0.5;
const MIN_STEP_MS = 250;
/** Weight of a new sample in the smoothed magnitude. */
const SMOOTHING = 0.5;

export interface StepDetector {
  /** One sample (m/s² on three axes, at a time in ms); true when it completed a step. */
  push(sample: { x: number; y: number; z: number }, atMs: number): boolean;
  readonly steps: number;
}

export function createStepDetector(): StepDetector {
  let smoothed = GRAVITY;
  let isArmed = false;
  let lastStepAt = Number.NEGATIVE_INFINITY;
  let steps = 0;
  return {
    push(sample, atMs) {
      const magnitude = Math.hypot(sample.x, sample.y, sample.z);
      if (!Number.isFinite(magnitude)) return false;
      smoothed = smoothed + SMOOTHING * (magnitude - smoothed);
      if (smoothed < GRAVITY - FALL) isArmed = true;
      if (isArmed && smoothed > GRAVITY + RISE && atMs - lastStepAt >= MIN_STEP_MS) {
        isArmed = false;
        lastStepAt = atMs;
        steps += 1;
        return true;
      }
      return false;
    },
    get steps() {
      return steps;
    },
  };
}
