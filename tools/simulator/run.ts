/**
 * Simulated wearables posting through the collector API.
 *
 *   npx tsx tools/simulator/run.ts --url http://localhost:8080 --tenant demo --patients 10 --speed 60 \
 *     --events sos:0.01,fall:0.005
 *
 * Options (all optional): --username/--password (default the demo doctor, logged in as the doctor
 * app so a console session of the same account stays), --app console|patient|doctor, --history
 * hours sent at once (default 72), --replay hours the clock starts in the past (default 6),
 * --seed, --inject event[,event] (sent at once for the first patient), --duration seconds.
 */
import { parseArgs } from 'node:util';
import { startFleet } from './fleet.js';
import { parseEventRates, SIMULATED_EVENTS, type SimulatedEvent } from '@rpm/vitals-sim';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    tenant: { type: 'string', default: 'demo' },
    username: { type: 'string', default: 'doctor@demo.example' },
    password: { type: 'string', default: 'Demo@2026' },
    app: { type: 'string', default: 'doctor' },
    patients: { type: 'string', default: '10' },
    speed: { type: 'string', default: '60' },
    events: { type: 'string', default: '' },
    history: { type: 'string', default: '72' },
    replay: { type: 'string', default: '6' },
    seed: { type: 'string', default: '1' },
    inject: { type: 'string', default: '' },
    duration: { type: 'string', default: '0' },
  },
});

function positive(name: string, text: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    console.error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number (got "${text}")`);
    process.exit(2);
  }
  return value;
}

if (!['console', 'patient', 'doctor'].includes(values.app)) {
  console.error('--app must be console, patient or doctor');
  process.exit(2);
}
const injected = values.inject.split(',').filter((name) => name !== '');
for (const name of injected) {
  if (!(SIMULATED_EVENTS as readonly string[]).includes(name)) {
    console.error(`--inject: unknown event "${name}" (known: ${SIMULATED_EVENTS.join(', ')})`);
    process.exit(2);
  }
}
let eventRates;
try {
  eventRates = parseEventRates(values.events);
} catch (error) {
  console.error(`--events: ${(error as Error).message}`);
  process.exit(2);
}

const fleet = await startFleet({
  url: values.url,
  tenant: values.tenant,
  username: values.username,
  password: values.password,
  app: values.app as 'console' | 'patient' | 'doctor',
  patients: Math.floor(positive('patients', values.patients)),
  speed: positive('speed', values.speed),
  eventRates,
  historyHours: positive('history', values.history, true),
  replayHours: positive('replay', values.replay, true),
  seed: Math.floor(positive('seed', values.seed, true)),
  log: (message) => {
    console.log(`${new Date().toISOString()} ${message}`);
  },
});
console.log(
  `simulating ${String(fleet.watches.length)} watches: ${fleet.watches.map((watch) => watch.patientCode).join(', ')}`,
);
for (const event of injected) fleet.injectEvent(event as SimulatedEvent);

const report = setInterval(() => {
  const { batchesSent, readingsSent, retries, eventsSent } = fleet.stats;
  console.log(
    `batches ${String(batchesSent)}, readings ${String(readingsSent)}, retries ${String(retries)}, events ${JSON.stringify(eventsSent)}`,
  );
}, 10_000);

const stop = async () => {
  clearInterval(report);
  await fleet.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
const duration = positive('duration', values.duration, true);
if (duration > 0) setTimeout(() => void stop(), duration * 1000);
