/**
 * Ingestion benchmark: sustained readings/s through the HTTP collector (POST /collector/readings,
 * thresholds evaluated and rollups maintained in the transaction of each batch), next to
 * PostgreSQL's own COPY rate for the same rows into the same readings table, in the same run.
 *
 *   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/ingest.ts
 *
 * BENCH_READINGS (default 400000), BENCH_CLIENTS (concurrent HTTP clients, default 4),
 * BENCH_BATCH (readings per batch, about; default 1000), BENCH_WARM_UP_ROUNDS (rounds of one batch a
 * patient posted before the clock starts; default 3: about a dozen requests for each of the
 * server's ten pooled connections, which prepares their statements), BENCH_SERVERS (the server's
 * SERVER_PROCESSES, default 1).
 *
 * The built server runs as its own process on a fresh database with the demo tenant; the admin
 * (whole tenant) posts for the 40 demo patients. Bodies are built and serialised before the clock
 * starts, so the figure is the server's, not the load generator's. Then the readings table is
 * emptied and the very same rows are loaded with COPY … FROM STDIN (text format, sent over the
 * pg client's own copy-in protocol messages), once in one stream and once in as many streams as
 * there are cores.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { toCollectorBody } from '../simulator/fleet.js';
import {
  BATCH_MINUTES,
  createProfile,
  createRandom,
  generateBatch,
  type SimulatedReading,
} from '../simulator/vitals.js';
import {
  backendCpu,
  getJson,
  loginCookie,
  machineLine,
  percentile,
  processTreeCpuSeconds,
  startBenchServer,
  writeResultsSection,
} from './bench-server.js';

const TOTAL = Number(process.env.BENCH_READINGS ?? 400_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
/** Rounds of warm-up batches (one a patient) posted before the clock starts. */
const WARM_UP_ROUNDS = Number(process.env.BENCH_WARM_UP_ROUNDS ?? 3);
/** Server processes (the product's SERVER_PROCESSES: one port, connections dealt to them in turn). */
const SERVERS = Number(process.env.BENCH_SERVERS ?? 1);

interface PreparedBatch {
  patientId: string;
  body: string;
  readings: number;
  rows: string[];
}

/** COPY … FROM STDIN through pg's protocol messages (what pg-copy-streams does, without the package). */
class CopyIn {
  private settle!: { resolve: (rows: number) => void; reject: (error: Error) => void };
  readonly done = new Promise<number>((resolve, reject) => {
    this.settle = { resolve, reject };
  });
  private rowCount = 0;
  private failure: Error | null = null;
  constructor(
    private readonly text: string,
    private readonly chunks: readonly Buffer[],
  ) {}
  submit(connection: { query: (text: string) => void }) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: { sendCopyFromChunk: (chunk: Buffer) => void; endCopyFrom: () => void }) {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }
  handleCommandComplete(message: { text: string }) {
    this.rowCount = Number(message.text.split(' ').at(-1));
  }
  handleError(error: Error) {
    this.failure = error;
  }
  handleReadyForQuery() {
    if (this.failure === null) this.settle.resolve(this.rowCount);
    else this.settle.reject(this.failure);
  }
}

async function copyRows(databaseUrl: string, rows: readonly string[], streams: number): Promise<number> {
  const parts = Array.from({ length: streams }, (_, index) =>
    rows.filter((_, row) => row % streams === index),
  );
  const clients = await Promise.all(
    parts.map(async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  // 64 KB chunks, as a streaming COPY would send them.
  const chunked = parts.map((part) => {
    const chunks: Buffer[] = [];
    let current: string[] = [];
    let size = 0;
    for (const row of part) {
      current.push(row);
      size += row.length;
      if (size > 65_536) {
        chunks.push(Buffer.from(current.join('')));
        current = [];
        size = 0;
      }
    }
    if (current.length > 0) chunks.push(Buffer.from(current.join('')));
    return chunks;
  });
  const started = performance.now();
  const counts = await Promise.all(
    clients.map((client, index) => {
      const copy = new CopyIn(
        'COPY readings (tenant_id, patient_id, measure, measured_at, value, source, batch_id) FROM STDIN',
        chunked[index] ?? [],
      );
      void client.query(copy as unknown as pg.QueryConfig);
      return copy.done;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.end()));
  const copied = counts.reduce((sum, count) => sum + count, 0);
  if (copied !== rows.length) throw new Error(`COPY stored ${String(copied)} of ${String(rows.length)} rows`);
  return seconds;
}

/** Kept-alive connections for the load generator, one per client. */
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/**
 * A POST through node:http with a kept-alive connection: the load generator shares the machine's
 * cores with the server and PostgreSQL, and fetch (undici) cost it about twice the CPU per request.
 */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Batches of `wanted` readings in all, round by round over the patients (each round one batch a
 * patient, further back in time than the one before), starting at round `firstRound`.
 */
function prepare(
  patients: { id: string }[],
  tenantId: string,
  wanted: number,
  firstRound = 0,
): PreparedBatch[] {
  const windowsPerBatch = Math.max(1, Math.round(BATCH / 23));
  const batches: PreparedBatch[] = [];
  const size = BATCH_MINUTES * 60_000;
  const newest = Math.floor(Date.now() / size) * size - size;
  let total = 0;
  for (let round = firstRound; total < wanted; round += 1) {
    for (const [index, patient] of patients.entries()) {
      if (total >= wanted) break;
      const profile = createProfile(index + 1);
      const random = createRandom(round * 1000 + index);
      const windows = Array.from({ length: windowsPerBatch }, (_, window) => {
        const start = newest - (round * windowsPerBatch + window + 1) * size;
        // Readings only: the figure is readings/s, as in the COPY it is compared with.
        return { ...generateBatch(profile, random, new Date(start)), sleep: null, ecg: null };
      });
      const readings: SimulatedReading[] = windows.flatMap((window) => window.readings);
      const batchId = randomUUID();
      const body = toCollectorBody({ patientId: patient.id, deviceId: null }, batchId, windows);
      // The rows as the readings table stores them (blood pressure: two rows), for COPY.
      const rows = readings.map(
        (reading) =>
          `${tenantId}\t${patient.id}\t${reading.measure}\t${reading.measuredAt.toISOString()}\t${String(reading.value)}\tWIRELESS_DEVICE\t${batchId}\n`,
      );
      batches.push({ patientId: patient.id, body: JSON.stringify(body), readings: readings.length, rows });
      total += readings.length;
    }
  }
  return batches;
}

async function main() {
  // BENCH_SERVERS > 1: the product's own SERVER_PROCESSES, its processes sharing the port.
  const server = await startBenchServer('ingest', SERVERS > 1 ? { SERVER_PROCESSES: String(SERVERS) } : {});
  try {
    const cpuOfServers = () => processTreeCpuSeconds(server.pid);
    const cookie = await loginCookie(server.baseUrl, 'admin@demo.example');
    const page = await getJson<{ items: { id: string }[] }>(
      server.baseUrl,
      cookie,
      '/account/patients?page=0&size=100',
    );
    const owner = new pg.Client({ connectionString: server.databaseUrl });
    await owner.connect();
    const tenant = await owner.query<{ id: string }>(`SELECT id FROM tenants WHERE code = 'demo'`);
    const tenantId = tenant.rows[0]?.id ?? '';
    // The batches span about 4.5 days back: with the longest late-data horizon (7 days) every
    // reading is judged by the status engine, as a current reading is, so the run measures that work.
    await owner.query(
      `UPDATE tenant_settings SET value = '10080' WHERE tenant_id = $1 AND key = 'LATE_DATA_HORIZON_MINUTES'`,
      [tenantId],
    );
    const batches = prepare(page.items, tenantId, TOTAL);
    // Warm-up: WARM_UP_ROUNDS more rounds of batches (older readings), posted before the clock starts, so the
    // figure is the server's sustained rate, not its first seconds (compiling its code, preparing
    // each connection's statements).
    const warmUp = prepare(
      page.items,
      tenantId,
      WARM_UP_ROUNDS * page.items.length * BATCH,
      Math.ceil(batches.length / page.items.length),
    );
    const readings = batches.reduce((sum, batch) => sum + batch.readings, 0);
    console.log(
      `${String(batches.length)} batches, ${readings.toLocaleString('en')} readings, ${String(page.items.length)} patients, ${String(CLIENTS)} clients; ${String(warmUp.length)} warm-up batches first`,
    );

    /** CLIENTS workers post the next batch until none is left: what was accepted, each batch's latency. */
    const postAll = async (list: readonly PreparedBatch[]) => {
      const latencies: number[] = [];
      let next = 0;
      let accepted = 0;
      const worker = async () => {
        for (let index = next++; index < list.length; index = next++) {
          const batch = list[index];
          if (batch === undefined) break;
          const sent = performance.now();
          const response = await post(`${server.baseUrl}/collector/readings`, batch.body, {
            cookie,
            origin: server.baseUrl,
            'content-type': 'application/json',
            accept: 'application/json',
          });
          const envelope = JSON.parse(response.body) as {
            data?: { accepted: number; rejected: number };
            code?: string;
          };
          latencies.push(performance.now() - sent);
          if (response.status !== 200 || envelope.data === undefined)
            throw new Error(`batch failed: ${String(response.status)} ${envelope.code ?? ''}`);
          if (envelope.data.rejected > 0)
            throw new Error(`${String(envelope.data.rejected)} readings rejected`);
          accepted += envelope.data.accepted;
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, worker));
      return { accepted, latencies };
    };
    await postAll(warmUp);

    // The demo data and the warm-up have readings of their own: the run's are those added to them.
    const stored = async () => {
      const { rows } = await owner.query<{ count: string; hourly: string | null }>(
        'SELECT (SELECT count(*) FROM readings) AS count, (SELECT sum(count) FROM readings_hourly) AS hourly',
      );
      return { rows: Number(rows[0]?.count ?? 0), hourly: Number(rows[0]?.hourly ?? 0) };
    };
    const before = await stored();
    // As before each COPY below: the run starts after a checkpoint, not into one.
    await owner.query('CHECKPOINT');
    const databaseName = new URL(server.databaseUrl).pathname.slice(1);
    const serverCpuBefore = await cpuOfServers();
    const postgresCpuBefore = await backendCpu(owner, databaseName);
    const clientCpuBefore = process.cpuUsage();
    // BENCH_STATEMENT_LOG=true: PostgreSQL logs every statement of the HTTP run with its duration
    // (its server log; a profiling aid, the figures are not comparable then).
    const statementLog = process.env.BENCH_STATEMENT_LOG === 'true';
    const setStatementLog = async (value: string) => {
      await owner.query(`ALTER SYSTEM SET log_min_duration_statement = ${value}`);
      await owner.query('SELECT pg_reload_conf()');
    };
    if (statementLog) await setStatementLog('0');
    const started = performance.now();
    let timed: Awaited<ReturnType<typeof postAll>>;
    try {
      timed = await postAll(batches);
    } finally {
      // The machine's PostgreSQL keeps the setting: it is reset however the run ends.
      if (statementLog) await setStatementLog('-1');
    }
    const httpSeconds = (performance.now() - started) / 1000;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const cpu = {
      server: (await cpuOfServers()) - serverCpuBefore,
      postgres: [...(await backendCpu(owner, databaseName))].reduce(
        (sum, [pid, seconds]) => sum + seconds - (postgresCpuBefore.get(pid) ?? 0),
        0,
      ),
      client: (clientCpu.user + clientCpu.system) / 1e6,
    };
    const perBatch = (seconds: number) => `${((seconds * 1000) / batches.length).toFixed(1)} ms`;
    console.log(
      `CPU per batch: server ${perBatch(cpu.server)}, PostgreSQL ${perBatch(cpu.postgres)}, load generator ${perBatch(cpu.client)}`,
    );
    const after = await stored();
    const added = { rows: after.rows - before.rows, hourly: after.hourly - before.hourly };
    // A blood-pressure pair is one accepted item and two stored rows.
    console.log(
      `HTTP: ${httpSeconds.toFixed(1)} s, ${Math.round(readings / httpSeconds).toLocaleString('en')} readings/s (accepted items ${String(timed.accepted)}, rows ${String(added.rows)}, hourly rollup count ${String(added.hourly)})`,
    );
    if (added.rows !== readings)
      throw new Error(`stored ${String(added.rows)} rows, expected ${String(readings)}`);
    const latencies = [...timed.latencies].sort((a, b) => a - b);

    // COPY of the same rows into the same (emptied) table: one stream, then one per core.
    const rows = batches.flatMap((batch) => batch.rows);
    await owner.query('TRUNCATE readings');
    await owner.query('CHECKPOINT');
    const copyOne = await copyRows(server.databaseUrl, rows, 1);
    await owner.query('TRUNCATE readings');
    await owner.query('CHECKPOINT');
    const streams = os.cpus().length;
    const copyParallel = await copyRows(server.databaseUrl, rows, streams);
    await owner.end();

    const httpRate = readings / httpSeconds;
    const copyOneRate = rows.length / copyOne;
    const copyParallelRate = rows.length / copyParallel;
    console.log(
      `COPY 1 stream: ${copyOne.toFixed(1)} s, ${Math.round(copyOneRate).toLocaleString('en')} rows/s; ${String(streams)} streams: ${copyParallel.toFixed(1)} s, ${Math.round(copyParallelRate).toLocaleString('en')} rows/s`,
    );
    const rate = (value: number) => Math.round(value).toLocaleString('en');
    await writeResultsSection(
      '## Vitals ingestion through the HTTP collector vs COPY (`npx tsx tools/bench/ingest.ts`)',
      [
        `Run ${new Date().toISOString()} on ${machineLine()}, PostgreSQL at TEST_DATABASE_URL on the same machine (server, PostgreSQL and load generator share the cores)${process.env.BENCH_NOTE === undefined ? '' : `; ${process.env.BENCH_NOTE}`}.`,
        '',
        `${readings.toLocaleString('en')} readings (realistic simulated vitals: heart rate, SpO2, blood pressure, temperature, HRV, respiration, steps) for ${String(page.items.length)} patients in ${String(batches.length)} batches of about ${String(BATCH)}, posted by ${String(CLIENTS)} concurrent HTTP clients to the built server (production mode; ${SERVERS === 1 ? 'one process' : `SERVER_PROCESSES=${String(SERVERS)}, its processes sharing the port`}), after ${String(warmUp.length)} warm-up batches of older readings (not timed) and a checkpoint. Each batch is validated, converted, stored with its hourly and daily rollups by one call of \`ingest_readings\` (the server sums the quarter hours; migration 0064) and evaluated against the patient's thresholds, in one transaction. The COPY baseline loads the very same rows (text format, COPY … FROM STDIN over the pg client's copy-in messages) into the same partitioned readings table after emptying it: no validation, no rollups, no thresholds.`,
        '',
        '| path | time | readings/s | vs COPY (1 stream) |',
        '|---|---:|---:|---:|',
        `| HTTP collector, ${SERVERS === 1 ? 'one server process' : `${String(SERVERS)} server processes`}, ${String(CLIENTS)} clients | ${httpSeconds.toFixed(1)} s | ${rate(httpRate)} | ${(httpRate / copyOneRate).toFixed(2)}× |`,
        `| COPY, 1 stream | ${copyOne.toFixed(1)} s | ${rate(copyOneRate)} | 1.00× |`,
        `| COPY, ${String(streams)} streams | ${copyParallel.toFixed(1)} s | ${rate(copyParallelRate)} | ${(copyParallelRate / copyOneRate).toFixed(2)}× |`,
        '',
        `CPU per batch during the HTTP run (from /proc; the PostgreSQL backends are those of the database, the load generator this process): server ${perBatch(cpu.server)}, PostgreSQL ${perBatch(cpu.postgres)}, load generator ${perBatch(cpu.client)}; ${((cpu.server + cpu.postgres + cpu.client) / httpSeconds).toFixed(2)} of ${String(os.cpus().length)} cores busy with these.`,
        '',
        `Batch latency through HTTP: p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms. Targets: at least 50,000 readings/s on 2 cores — ${httpRate >= 50_000 ? 'met' : 'NOT met'} in this run; at least 0.4× single-stream COPY — ${httpRate / copyOneRate >= 0.4 ? 'met' : 'NOT met'} in this run.`,
      ].join('\n'),
    );
    console.log('written tools/bench/RESULTS.md');
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
