/**
 * Year-view benchmark: about 50 million readings stored (a year of heart rate and SpO2 every minute,
 * HRV every 3 minutes, blood pressure every 20 and temperature every 30, for the 40 demo patients),
 * generated inside PostgreSQL with INSERT … SELECT generate_series into the partitioned readings
 * table, rollups built with INSERT … SELECT … GROUP BY; then the p50/p95/p99 of a patient's year
 * view through the HTTP fetch API (GET /health/patients/:id/data?view=year).
 *
 *   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/year-view.ts
 *
 * BENCH_DAYS (default 365) shortens the stored history for a quick check; BENCH_REQUESTS (default
 * 300) is the number of timed requests per series. Needs about 10 GB of free disk for 365 days.
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import {
  getJson,
  loginCookie,
  machineLine,
  percentile,
  startBenchServer,
  writeResultsSection,
} from './bench-server.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);

/** What is stored per patient: measure, sampling step, value as SQL of the time `t`. */
const SERIES = [
  {
    measure: 'HEART_RATE',
    step: '1 minute',
    value: `70 + 12 * sin(extract(epoch FROM t) / 13751.0) + random() * 8`,
  },
  { measure: 'SPO2', step: '1 minute', value: `95 + random() * 4` },
  { measure: 'HRV', step: '3 minutes', value: `40 + random() * 25` },
  { measure: 'SYSTOLIC', step: '20 minutes', value: `110 + random() * 15` },
  { measure: 'DIASTOLIC', step: '20 minutes', value: `68 + random() * 9` },
  { measure: 'TEMPERATURE', step: '30 minutes', value: `36.3 + random() * 0.6` },
] as const;

const diskFree = () => {
  try {
    return execFileSync('df', ['-h', '/'], { encoding: 'utf8' }).trim().split('\n').at(-1) ?? '';
  } catch {
    return 'unknown';
  }
};

/** Runs the tasks on the connections, one task per connection at a time. */
async function runParallel(
  tasks: ((client: pg.Client) => Promise<unknown>)[],
  clients: pg.Client[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let index = next++; index < tasks.length; index = next++) await tasks[index]?.(client);
    }),
  );
}

async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A bulk load: the benchmark does not need each statement flushed to disk before the next.
  await client.query('SET synchronous_commit = off');
  return client;
}

async function main() {
  const diskBefore = diskFree();
  console.log(`disk before: ${diskBefore}`);
  const server = await startBenchServer('yearview');
  try {
    const clients = [await connect(server.databaseUrl), await connect(server.databaseUrl)];
    const [owner] = clients;
    if (owner === undefined) throw new Error('no connection');
    const tenantId =
      (await owner.query<{ id: string }>(`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]?.id ?? '';
    const patients = Number(
      (await owner.query<{ count: string }>('SELECT count(*) FROM patients WHERE tenant_id = $1', [tenantId]))
        .rows[0]?.count,
    );
    const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    const start = new Date(end.getTime() - DAYS * 86_400_000);
    await owner.query(`SELECT ensure_readings_partitions($1::date, $2)`, [
      start.toISOString().slice(0, 10),
      Math.ceil(DAYS / 30) + 2,
    ]);

    // Month slices × measures, two connections at a time.
    const slices: { from: Date; to: Date }[] = [];
    for (let from = start; from < end;) {
      const to = new Date(Math.min(end.getTime(), from.getTime() + 30 * 86_400_000));
      slices.push({ from, to });
      from = to;
    }
    const loadStarted = performance.now();
    await runParallel(
      slices.flatMap((slice) =>
        SERIES.map((series) => async (client: pg.Client) => {
          const result = await client.query(
            `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source)
             SELECT p.tenant_id, p.id, $2, t, ${series.value}, 'WIRELESS_DEVICE'
               FROM patients p
              CROSS JOIN generate_series($3::timestamptz, $4::timestamptz - interval '1 second', $5::interval) AS t
              WHERE p.tenant_id = $1
             ON CONFLICT DO NOTHING`,
            [tenantId, series.measure, slice.from.toISOString(), slice.to.toISOString(), series.step],
          );
          return result.rowCount ?? 0;
        }),
      ),
      clients,
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const stored = Number(
      (await owner.query<{ count: string }>('SELECT count(*) FROM readings')).rows[0]?.count,
    );
    console.log(`stored ${stored.toLocaleString('en')} readings in ${loadSeconds.toFixed(0)} s`);

    // Rollups from scratch: hourly per month slice (two at a time), daily from hourly.
    const rollupStarted = performance.now();
    await owner.query('TRUNCATE readings_hourly, readings_daily');
    await runParallel(
      slices.map((slice) => async (client: pg.Client) => {
        await client.query(
          `INSERT INTO readings_hourly (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
           SELECT tenant_id, patient_id, measure, date_trunc('hour', measured_at, 'UTC'), count(*), sum(value), min(value), max(value),
                  (array_agg(value ORDER BY measured_at DESC))[1], max(measured_at)
             FROM readings
            WHERE measured_at >= $1 AND measured_at < $2
            GROUP BY tenant_id, patient_id, measure, date_trunc('hour', measured_at, 'UTC')`,
          [slice.from.toISOString(), slice.to.toISOString()],
        );
      }),
      clients,
    );
    await owner.query(
      `INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
       SELECT tenant_id, patient_id, measure, date_trunc('day', bucket_start, 'UTC'), sum(count), sum(sum), min(min), max(max),
              (array_agg(last_value ORDER BY last_at DESC))[1], max(last_at)
         FROM readings_hourly
        GROUP BY tenant_id, patient_id, measure, date_trunc('day', bucket_start, 'UTC')`,
    );
    await owner.query('VACUUM ANALYZE readings_hourly');
    await owner.query('VACUUM ANALYZE readings_daily');
    await owner.query('ANALYZE readings');
    const rollupSeconds = (performance.now() - rollupStarted) / 1000;
    const sizes = (
      await owner.query<{ readings: string; rollups: string }>(
        `SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'readings'::regclass) AS readings,
                pg_total_relation_size('readings_hourly') + pg_total_relation_size('readings_daily') AS rollups`,
      )
    ).rows[0];
    const gigabytes = (bytes: string | undefined) => (Number(bytes ?? 0) / 1024 ** 3).toFixed(1);
    console.log(
      `rollups in ${rollupSeconds.toFixed(0)} s; readings ${gigabytes(sizes?.readings)} GB, rollups ${gigabytes(sizes?.rollups)} GB`,
    );
    await Promise.all(clients.map((client) => client.end()));

    // The year view through HTTP, as the console asks for it.
    const cookie = await loginCookie(server.baseUrl, 'admin@demo.example');
    const page = await getJson<{ items: { id: string }[] }>(
      server.baseUrl,
      cookie,
      '/account/patients?page=0&size=100',
    );
    const to = new Date();
    const from = new Date(to.getTime() - 365 * 86_400_000);
    const yearView = (patientId: string, measure: string) =>
      `/health/patients/${patientId}/data?${new URLSearchParams({ measure, view: 'year', from: from.toISOString(), to: to.toISOString() }).toString()}`;
    const time = async (pathAndQuery: string) => {
      const started = performance.now();
      const series = await getJson<{ points: unknown[] }>(server.baseUrl, cookie, pathAndQuery);
      return { milliseconds: performance.now() - started, points: series.points.length };
    };
    const onePatient = page.items[0]?.id ?? '';
    for (let index = 0; index < 20; index += 1) await time(yearView(onePatient, 'HEART_RATE'));
    const single: number[] = [];
    let points = 0;
    for (let index = 0; index < REQUESTS; index += 1) {
      const result = await time(yearView(onePatient, 'HEART_RATE'));
      single.push(result.milliseconds);
      points = result.points;
    }
    const mixed: number[] = [];
    for (let index = 0; index < REQUESTS; index += 1) {
      const patient = page.items[index % page.items.length]?.id ?? onePatient;
      const measure = SERIES[index % SERIES.length]?.measure ?? 'HEART_RATE';
      mixed.push((await time(yearView(patient, measure))).milliseconds);
    }
    single.sort((a, b) => a - b);
    mixed.sort((a, b) => a - b);
    const figures = (values: number[]) =>
      `${percentile(values, 0.5).toFixed(1)} ms | ${percentile(values, 0.95).toFixed(1)} ms | ${percentile(values, 0.99).toFixed(1)} ms`;
    console.log(`one patient's heart-rate year (${String(points)} points): p50/p95/p99 ${figures(single)}`);
    console.log(`mixed patients and measures: p50/p95/p99 ${figures(mixed)}`);
    const p95 = percentile(single, 0.95);

    await writeResultsSection(
      '## Year view with 50 million readings (`npx tsx tools/bench/year-view.ts`)',
      [
        `Run ${new Date().toISOString()} on ${machineLine()}, PostgreSQL at TEST_DATABASE_URL on the same machine${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}. Disk before: \`${diskBefore}\`.`,
        '',
        `Stored: ${stored.toLocaleString('en')} readings over ${String(DAYS)} days for ${String(patients)} patients (heart rate and SpO2 every minute, HRV every 3 minutes, systolic and diastolic every 20, temperature every 30), generated in PostgreSQL with INSERT … SELECT generate_series into the monthly partitions in ${loadSeconds.toFixed(0)} s; hourly rollups (per month, INSERT … SELECT … GROUP BY) and daily rollups (from the hourly ones) built in ${rollupSeconds.toFixed(0)} s. Size on disk: readings ${gigabytes(sizes?.readings)} GB with their primary-key indexes, rollups ${gigabytes(sizes?.rollups)} GB.`,
        '',
        `Timed: ${String(REQUESTS)} sequential requests after 20 warm-up ones, each GET /health/patients/:id/data?view=year over the last 365 days through HTTP (session cookie, access check, tenant transaction with center visibility, unit conversion, JSON envelope), measured at the client.`,
        '',
        '| request | p50 | p95 | p99 |',
        '|---|---:|---:|---:|',
        `| one patient's heart rate, ${String(points)} daily points | ${figures(single)} |`,
        `| ${String(page.items.length)} patients × 6 measures in turn | ${figures(mixed)} |`,
        '',
        `Target: p95 under 20 ms — ${p95 < 20 ? 'met' : 'NOT met'} in this run (${p95.toFixed(1)} ms). The year view reads the daily rollups (≤ 366 rows by the rollup primary key), so its cost does not grow with the raw readings stored.`,
      ].join('\n'),
    );
    console.log('written tools/bench/RESULTS.md');
  } finally {
    await server.stop();
    console.log(`disk after: ${diskFree()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
