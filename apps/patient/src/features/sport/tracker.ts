/**
 * A sport session's clock as data: start, pause, resume and stop, and the time practised (paused
 * time does not count). Pure; the tracking screen keeps one and asks it for the elapsed time.
 */
export type TrackerStatus = 'idle' | 'running' | 'paused' | 'stopped';

export interface TrackerState {
  status: TrackerStatus;
  /** When the session started (ms since the epoch), null before. */
  startedAt: number | null;
  /** When the current running stretch began, null unless running. */
  runningSince: number | null;
  /** Time practised in the stretches already ended. */
  accumulatedMs: number;
}

export const IDLE: TrackerState = { status: 'idle', startedAt: null, runningSince: null, accumulatedMs: 0 };

export type TrackerAction = 'start' | 'pause' | 'resume' | 'stop';

/** Which actions each state allows (anything else leaves the state as it is). */
export const ALLOWED_ACTIONS: Record<TrackerStatus, readonly TrackerAction[]> = {
  idle: ['start'],
  running: ['pause', 'stop'],
  paused: ['resume', 'stop'],
  stopped: [],
};

export function elapsedMs(state: TrackerState, now: number): number {
  const running = state.runningSince === null ? 0 : Math.max(0, now - state.runningSince);
  return state.accumulatedMs + running;
}

export function applyAction(state: TrackerState, action: TrackerAction, now: number): TrackerState {
  if (!ALLOWED_ACTIONS[state.status].includes(action)) return state;
  switch (action) {
    case 'start':
      return { status: 'running', startedAt: now, runningSince: now, accumulatedMs: 0 };
    case 'resume':
      return { ...state, status: 'running', runningSince: now };
    case 'pause':
      return { ...state, status: 'paused', runningSince: null, accumulatedMs: elapsedMs(state, now) };
    case 'stop':
      return { ...state, status: 'stopped', runningSince: null, accumulatedMs: elapsedMs(state, now) };
  }
}
