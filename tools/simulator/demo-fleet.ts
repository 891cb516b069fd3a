/**
 * The small fleet `npm start` runs against the demo tenant so the console is alive: ten of the
 * demo doctor's patients, six days of history sent at once, then the last day replayed at 60× (one
 * batch per patient every 15 seconds) until the clock reaches the real time, with abnormal episodes
 * (tachycardia, hypoxia, raised blood pressure: mostly at risk, rarely SOS), falls and SOS presses.
 * It posts through the HTTP collector API like any device; it stops with the process. A simulated
 * duty operator works the SOS cases (operator.ts), as a clinic would.
 */
import { startFleet, type RunningFleet } from './fleet.js';
import { startDutyOperator, type RunningDutyOperator } from './operator.js';

export const DEMO_FLEET = {
  tenant: 'demo',
  username: 'doctor@demo.example',
  password: 'Demo@2026',
  patients: 10,
  speed: 60,
  historyHours: 6 * 24,
  replayHours: 24,
  // Per 15-minute window and patient. An abnormal event starts an episode when the watch has none:
  // AT_RISK for one to four hours (76 %), HIGH_RISK for 30 to 90 minutes (20 %), an SOS window
  // (4 %) — vitals.ts drawEpisode. About 1.7 episodes per patient and day, so one or two of the
  // ten patients are in one at a time; a fall or an SOS press about once per replayed day.
  eventRates: { tachycardia: 0.007, hypoxia: 0.005, hypertensiveCrisis: 0.006, fall: 0.0002, sos: 0.0003 },
} as const;

/**
 * The simulated duty operator: a main-center operator account of its own (seeded with the demo
 * tenant), so a person logged in as operator@demo.example keeps their console session.
 */
export const DEMO_DUTY_OPERATOR = {
  tenant: 'demo',
  username: 'duty-operator@demo.example',
  password: 'Demo@2026',
  app: 'console',
  closeAfterMinutes: [3, 8],
  newestOpenMinutes: 20,
  pollSeconds: 20,
} as const;

/** Starts the demo fleet (and the duty operator unless `operator` is false) against the server on `port`; failures are logged, never thrown. */
export function startDemoFleet(
  port: number,
  log: (message: string) => void,
  options: { operator: boolean } = { operator: true },
): void {
  let fleet: RunningFleet | undefined;
  let operator: RunningDutyOperator | undefined;
  let isStopping = false;
  const stop = () => {
    isStopping = true;
    operator?.stop();
    void fleet?.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const url = `http://127.0.0.1:${String(port)}`;
  startFleet({
    ...DEMO_FLEET,
    eventRates: { ...DEMO_FLEET.eventRates },
    url,
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
  if (!options.operator) return;
  startDutyOperator({
    ...DEMO_DUTY_OPERATOR,
    closeAfterMinutes: [...DEMO_DUTY_OPERATOR.closeAfterMinutes],
    url,
    seed: 2,
    log: (message) => {
      if (!isStopping) log(`simulated duty operator: ${message}`);
    },
  })
    .then((started) => {
      operator = started;
      if (isStopping) started.stop();
      else
        log(
          `simulated duty operator: working the demo tenant's SOS cases as ${DEMO_DUTY_OPERATOR.username} (SIMULATOR_OPERATOR=off stops it)`,
        );
    })
    .catch((error: unknown) => {
      log(`simulated duty operator: not started: ${error instanceof Error ? error.message : String(error)}`);
    });
}
