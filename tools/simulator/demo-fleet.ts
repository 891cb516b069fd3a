/**
 * The small fleet `npm start` runs against the demo tenant so the console is alive: ten of the
 * demo doctor's patients, six days of history sent at once, then the last day replayed at 60× (one
 * batch per patient every 15 seconds) until the clock reaches the real time, with rare events
 * (tachycardia, hypoxia, hypertensive crisis, fall, SOS button). It posts through the HTTP
 * collector API like any device; it stops with the process.
 */
import { startFleet, type RunningFleet } from './fleet.js';

export const DEMO_FLEET = {
  tenant: 'demo',
  username: 'doctor@demo.example',
  password: 'Demo@2026',
  patients: 10,
  speed: 60,
  historyHours: 6 * 24,
  replayHours: 24,
  // Per 15-minute window and patient. A replayed day of ten patients then brings about two
  // abnormal episodes and one fall or SOS press at most: in the demo nobody works the SOS cases,
  // and an open case holds its patient in SOS (docs/status-lifecycle.md), so higher rates turn
  // the whole dashboard red within the first half hour.
  eventRates: { tachycardia: 0.001, hypoxia: 0.0008, hypertensiveCrisis: 0.0005, fall: 0.0002, sos: 0.0003 },
} as const;

/** Starts the demo fleet against the server on `port`; failures are logged, never thrown. */
export function startDemoFleet(port: number, log: (message: string) => void): void {
  let fleet: RunningFleet | undefined;
  let isStopping = false;
  const stop = () => {
    isStopping = true;
    void fleet?.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  startFleet({
    ...DEMO_FLEET,
    eventRates: { ...DEMO_FLEET.eventRates },
    url: `http://127.0.0.1:${String(port)}`,
    app: 'doctor',
    seed: 1,
    log: (message) => {
      if (!isStopping) log(`simulator: ${message}`);
    },
  })
    .then((started) => {
      fleet = started;
      if (isStopping) void started.stop();
      else
        log(
          `simulator: ${String(started.watches.length)} simulated watches posting to the demo tenant (SIMULATOR=off stops them)`,
        );
    })
    .catch((error: unknown) => {
      log(`simulator: not started: ${error instanceof Error ? error.message : String(error)}`);
    });
}
