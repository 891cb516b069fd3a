/**
 * SOS latency benchmark: p50/p99 from an SOS accepted by the HTTP collector (the 200 of
 * POST /collector/readings carrying an SOS_BUTTON event) to the `sos.opened` event at a
 * connected WebSocket client (/ws, as the console connects), while background ingestion load
 * runs through the same collector.
 *
 *   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/sos-latency.ts
 *
 * BENCH_LOAD_CLIENTS (concurrent background posters, default 4), BENCH_BATCH (readings per
 * background batch, about; default 1000), BENCH_ROUNDS (passes over the demo patients, default 1).
 *
 * Each sample raises one patient (a main user: SOS is for main users only). Before each pass over
 * the patients, open SOS cases are closed and SOS patients set back to NORMAL (as the owner), so
 * every sample opens a new case. Negative gaps (the event reached the socket before the HTTP
 * answer was read) count as 0.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { WebSocket } from 'ws';
import { toCollectorBody } from '../simulator/fleet.js';
import {
  BATCH_MINUTES,
  createProfile,
  createRandom,
  generateBatch,
  type SimulatedReading,
} from '../simulator/vitals.js';
import {
  getJson,
  loginCookie,
  machineLine,
  percentile,
  startBenchServer,
  writeResultsSection,
} from './bench-server.js';

const LOAD_CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);

interface LiveEvent {
  id: number;
  type: string;
  patientId: string | null;
}

function loadBodies(patients: { id: string }[]): string[] {
  const size = BATCH_MINUTES * 60_000;
  const windows = Math.max(1, Math.round(BATCH / 23));
  const newest = Math.floor(Date.now() / size) * size - 30 * 24 * 3600_000;
  return patients.map((patient, index) => {
    const profile = createProfile(index + 1);
    const random = createRandom(index);
    const readings: SimulatedReading[] = [];
    for (let window = 0; window < windows; window += 1) {
      readings.push(...generateBatch(profile, random, new Date(newest - (window + 1) * size)).readings);
    }
    return JSON.stringify(
      toCollectorBody({ patientId: patient.id, deviceId: null }, randomUUID(), {
        readings,
        sleep: null,
        ecg: null,
        events: [],
      }),
    );
  });
}

async function main() {
  const server = await startBenchServer('sos');
  const owner = new pg.Client({ connectionString: server.databaseUrl });
  await owner.connect();
  try {
    const cookie = await loginCookie(server.baseUrl, 'admin@demo.example');
    const page = await getJson<{ items: { id: string }[] }>(
      server.baseUrl,
      cookie,
      '/account/patients?page=0&size=100',
    );
    // Main users only (SOS is for main users), found where the demo stores it.
    const mainUsers = (
      await owner
        .query<{ id: string }>(
          `SELECT id FROM patients WHERE id = ANY($1::uuid[]) AND account_kind = 'MAIN'`,
          [page.items.map((item) => item.id)],
        )
        .catch(() => ({
          rows: page.items,
        }))
    ).rows;
    const bodies = loadBodies(page.items);

    // The console's connection.
    const socket = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie }, origin: server.baseUrl });
    const arrivals = new Map<string, number>();
    let waiting: { patientId: string; resolve: () => void } | undefined;
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => {
        socket.send(JSON.stringify({ type: 'resume', after: null }));
      });
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as LiveEvent | { type: 'resumed' };
        if (message.type === 'resumed') resolve();
        // The press opens a case, or joins the one the background readings of the same patient
        // opened a moment before (sos.updated): either way it is the SOS reaching the console.
        if (message.type !== 'sos.opened' && message.type !== 'sos.updated') return;
        if (!('patientId' in message) || message.patientId === null) return;
        if (waiting?.patientId !== message.patientId || arrivals.has(message.patientId)) return;
        arrivals.set(message.patientId, performance.now());
        waiting.resolve();
      });
      socket.once('error', reject);
    });

    // Background load through the collector.
    let isLoading = true;
    let loadReadings = 0;
    let loadBatches = 0;
    const loadStarted = performance.now();
    const perBody = bodies.map((body) => (JSON.parse(body) as { readings: unknown[] }).readings.length);
    const loaders = Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
      for (let index = client; isLoading; index += LOAD_CLIENTS) {
        const at = index % bodies.length;
        const body = (bodies[at] ?? '').replace(/"batchId":"[^"]+"/, `"batchId":"${randomUUID()}"`);
        const response = await fetch(`${server.baseUrl}/collector/readings`, {
          method: 'POST',
          headers: { cookie, origin: server.baseUrl, 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        if (response.ok) {
          loadReadings += perBody[at] ?? 0;
          loadBatches += 1;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const gaps: number[] = [];
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      {
        // A calm start (the demo has patients in SOS already): each sample then opens a new case.
        await owner
          .query(`UPDATE sos_cases SET status = 'CLOSED' WHERE status <> 'CLOSED'`)
          .catch(() => undefined);
        await owner.query(`UPDATE patients SET status = 'NORMAL' WHERE status = 'SOS'`);
        arrivals.clear();
      }
      for (const patient of mainUsers) {
        const arrived = new Promise<void>((resolve) => {
          waiting = { patientId: patient.id, resolve };
        });
        const body = JSON.stringify({
          batchId: randomUUID(),
          patientId: patient.id,
          readings: [],
          events: [
            { type: 'SOS_BUTTON', at: new Date().toISOString(), location: { lat: 10.7769, lng: 106.7009 } },
          ],
        });
        const response = await fetch(`${server.baseUrl}/collector/readings`, {
          method: 'POST',
          headers: { cookie, origin: server.baseUrl, 'content-type': 'application/json' },
          body,
        });
        const accepted = performance.now();
        await response.arrayBuffer();
        if (!response.ok) {
          failures.push(`HTTP ${String(response.status)}`);
          continue;
        }
        const timedOut = await Promise.race([
          arrived.then(() => false),
          new Promise<boolean>((resolve) =>
            setTimeout(() => {
              resolve(true);
            }, 10_000),
          ),
        ]);
        if (timedOut) {
          failures.push(`no SOS event for ${patient.id}`);
          continue;
        }
        gaps.push(Math.max(0, (arrivals.get(patient.id) ?? accepted) - accepted));
      }
    }
    isLoading = false;
    await Promise.all(loaders);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    socket.close();

    const sorted = [...gaps].sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    const p99 = percentile(sorted, 0.99);
    const max = sorted.at(-1) ?? Number.NaN;
    const lines = [
      `Run ${new Date().toISOString()} on ${machineLine()}, PostgreSQL at TEST_DATABASE_URL on the same machine${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}.`,
      '',
      `The built server on a fresh database with the demo tenant; one WebSocket client on /ws (the admin's session, as the console connects). Each sample posts an SOS_BUTTON event for one main-user patient to POST /collector/readings and measures from the HTTP 200 to the patient's SOS event at the socket (\`sos.opened\`, or \`sos.updated\` when the background readings had already opened a case), while ${String(LOAD_CLIENTS)} background clients post ~${String(BATCH)}-reading batches through the same collector.`,
      '',
      '| samples | failed | p50 | p99 | max | background load |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${String(gaps.length)} | ${String(failures.length)} | ${p50.toFixed(1)} ms | ${p99.toFixed(1)} ms | ${max.toFixed(1)} ms | ${Math.round(loadReadings / loadSeconds).toLocaleString('en')} readings/s (${String(loadBatches)} batches) |`,
      '',
      `Target: p99 under 1 s.${failures.length > 0 ? ` Failures: ${[...new Set(failures)].slice(0, 3).join('; ')}.` : ''}`,
    ];
    console.log(lines.join('\n'));
    await writeResultsSection(
      '## SOS to console latency (`npx tsx tools/bench/sos-latency.ts`)',
      lines.join('\n'),
    );
  } finally {
    await owner.end();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
