/**
 * Year view and compaction with about 50 million readings: a year of heart rate and SpO2 every
 * minute, HRV every 3 minutes, blood pressure every 20 and temperature every 30 for the 40 demo
 * patients (year-data.ts), then the p50/p95/p99 of a patient's year view and day views through
 * the HTTP fetch API, the bytes per reading on disk, the storage pass that compacts readings older
 * than 7 days into day blocks (the server's own job code, timed), the bytes per compacted reading,
 * and the same views again.
 *
 *   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/year-view.ts
 *
 * BENCH_DAYS (default 365) shortens the stored history for a quick check; BENCH_REQUESTS (default
 * 300) is the number of timed requests per series. Needs about 15 GB of free disk for 365 days.
 */
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { connectDatabase } from '../../apps/server/src/db/database.js';
import { deriveAppUrl } from '../../apps/server/src/db/migrator.js';
import { systemClock } from '../../apps/server/src/lib/clock.js';
import { runStoragePass } from '../../apps/server/src/modules/vitals/storage-job.js';
import { getJson, loginCookie, machineLine, percentile, startBenchServer, writeResultsSection } from './bench-server.js';
import { connect, diskFree, gigabytes, rawReadingsBytes, seedYear, SERIES } from './year-data.js';

const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const DAY_MS = 86_400_000;

const figures = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${percentile(sorted, 0.5).toFixed(1)} ms | ${percentile(sorted, 0.95).toFixed(1)} ms | ${percentile(sorted, 0.99).toFixed(1)} ms`;
};
const p95 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.95);

async function main() {
  const diskBefore = diskFree();
  console.log(`disk before: ${diskBefore}`);
  const secretsKey = randomBytes(32);
  // The storage pass is run (and timed) by the benchmark, not by the server's hourly job.
  const server = await startBenchServer('yearview', { JOBS_ENABLED: 'false', SECRETS_KEY: secretsKey.toString('hex') });
  try {
    const clients = [await connect(server.databaseUrl), await connect(server.databaseUrl)];
    const data = await seedYear(clients, DAYS);
    // The storage pass below takes many minutes: the seeding connections are not kept idle meanwhile.
    await Promise.all(clients.map((client) => client.end()));
    console.log(`stored ${data.stored.toLocaleString('en')} readings in ${data.loadSeconds.toFixed(0)} s; rollups in ${data.rollupSeconds.toFixed(0)} s`);
    const rawBytesPerReading = data.readingsBytes / data.stored;
    console.log(`readings ${gigabytes(data.readingsBytes)} GB: ${rawBytesPerReading.toFixed(1)} bytes a reading`);

    // Views through HTTP, as the console asks for them.
    let cookie = await loginCookie(server.baseUrl, 'admin@demo.example');
    const page = await getJson<{ items: { id: string }[] }>(server.baseUrl, cookie, '/account/patients?page=0&size=100');
    const onePatient = page.items[0]?.id ?? '';
    const view = (patientId: string, measure: string, kind: 'day' | 'year', from: Date, to: Date) =>
      `/health/patients/${patientId}/data?${new URLSearchParams({ measure, view: kind, from: from.toISOString(), to: to.toISOString() }).toString()}`;
    const time = async (pathAndQuery: string) => {
      const started = performance.now();
      const series = await getJson<{ points: unknown[] }>(server.baseUrl, cookie, pathAndQuery);
      return { milliseconds: performance.now() - started, points: series.points.length };
    };
    const yearTo = new Date();
    const yearFrom = new Date(yearTo.getTime() - 365 * DAY_MS);
    /** A UTC day `daysAgo` before the last stored hour, as a day view asks for it. */
    const dayOf = (daysAgo: number) => {
      const from = new Date(Math.floor(data.end.getTime() / DAY_MS - daysAgo) * DAY_MS);
      return { from, to: new Date(from.getTime() + DAY_MS) };
    };
    const hotDay = dayOf(2);
    const coldDays = [30, 60, 120, 200, 300].filter((days) => days < DAYS - 1).map(dayOf);
    const series = async (label: string, paths: () => string) => {
      for (let index = 0; index < 20; index += 1) await time(paths());
      const timings: number[] = [];
      let points = 0;
      for (let index = 0; index < REQUESTS; index += 1) {
        const result = await time(paths());
        timings.push(result.milliseconds);
        points = result.points;
      }
      console.log(`${label} (${String(points)} points): p50/p95/p99 ${figures(timings)}`);
      return { timings, points };
    };
    let turn = 0;
    const rotating = (kind: 'day' | 'year', days: { from: Date; to: Date }[]) => () => {
      turn += 1;
      const patient = page.items[turn % page.items.length]?.id ?? onePatient;
      const measure = SERIES[turn % SERIES.length]?.measure ?? 'HEART_RATE';
      const day = days[turn % days.length] ?? hotDay;
      return kind === 'year' ? view(patient, measure, 'year', yearFrom, yearTo) : view(patient, measure, 'day', day.from, day.to);
    };
    const measureAll = async (when: string) => ({
      year: await series(`${when}: one patient's heart-rate year`, () => view(onePatient, 'HEART_RATE', 'year', yearFrom, yearTo)),
      yearMixed: await series(`${when}: year views, patients and measures in turn`, rotating('year', [])),
      hotDay: await series(`${when}: heart-rate day view 2 days ago`, () => view(onePatient, 'HEART_RATE', 'day', hotDay.from, hotDay.to)),
      coldDay: await series(`${when}: heart-rate day view 30 days ago`, () => view(onePatient, 'HEART_RATE', 'day', coldDays[0]?.from ?? hotDay.from, coldDays[0]?.to ?? hotDay.to)),
      coldMixed: await series(`${when}: day views 30–300 days ago, patients and measures in turn`, rotating('day', coldDays)),
    });
    const before = await measureAll('raw');

    // The storage pass: the server's own job code on the app role's connection.
    const database = connectDatabase(deriveAppUrl(server.databaseUrl, secretsKey), { maxConnections: 4 });
    const compactStarted = performance.now();
    const totals = await runStoragePass(database, systemClock, pino({ level: 'warn' }));
    const compactSeconds = (performance.now() - compactStarted) / 1000;
    await database.close();
    const owner = await connect(server.databaseUrl);
    const blocks = (
      await owner.query<{ bytes: string; readings: string; rows: string; toast: string }>(
        `SELECT pg_total_relation_size('reading_blocks')::text AS bytes, coalesce(sum(count), 0)::text AS readings, count(*)::text AS rows,
                pg_total_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'reading_blocks'))::text AS toast
           FROM reading_blocks`,
      )
    ).rows[0];
    const blockBytes = Number(blocks?.bytes ?? 0);
    const compactedReadings = Number(blocks?.readings ?? 0);
    await owner.query('VACUUM ANALYZE readings');
    await owner.query('ANALYZE reading_blocks');
    const rawLeft = Number((await owner.query<{ count: string }>('SELECT count(*) FROM readings')).rows[0]?.count);
    const rawBytesAfter = await rawReadingsBytes(owner);
    const compactBytesPerReading = blockBytes / compactedReadings;
    console.log(
      `storage pass in ${compactSeconds.toFixed(0)} s: ${totals.compacted.toLocaleString('en')} readings moved, ${String(totals.partitions)} partitions emptied; ` +
        `blocks ${gigabytes(blockBytes)} GB for ${compactedReadings.toLocaleString('en')} readings: ${compactBytesPerReading.toFixed(2)} bytes a reading`,
    );
    await owner.end();
    // The session has been idle through the pass (longer than the idle timeout): sign in again.
    cookie = await loginCookie(server.baseUrl, 'admin@demo.example');
    const after = await measureAll('compacted');

    const row = (label: string, raw: number[], compacted: number[]) => `| ${label} | ${figures(raw)} | ${figures(compacted)} |`;
    await writeResultsSection(
      '## Year view and compaction with 50 million readings (`npx tsx tools/bench/year-view.ts`)',
      [
        `Run ${new Date().toISOString()} on ${machineLine()}, PostgreSQL at TEST_DATABASE_URL on the same machine${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}. Disk before: \`${diskBefore}\`.`,
        '',
        `Stored: ${data.stored.toLocaleString('en')} readings over ${String(DAYS)} days for ${String(data.patients)} patients (heart rate and SpO2 every minute, HRV every 3 minutes, systolic and diastolic every 20, temperature every 30; values as watches report them: whole beats, percent, ms and mmHg, temperature to 0.1 °C), generated in PostgreSQL with INSERT … SELECT generate_series into the monthly partitions in ${data.loadSeconds.toFixed(0)} s; hourly and daily rollups built in ${data.rollupSeconds.toFixed(0)} s (${gigabytes(data.rollupBytes)} GB).`,
        '',
        '**Bytes per reading** (table, indexes and TOAST, `pg_total_relation_size`):',
        '',
        '| form | readings | on disk | bytes a reading |',
        '|---|---:|---:|---:|',
        `| raw rows (monthly partitions of \`readings\`) | ${data.stored.toLocaleString('en')} | ${gigabytes(data.readingsBytes)} GB | ${rawBytesPerReading.toFixed(1)} |`,
        `| compact day blocks (\`reading_blocks\`) | ${compactedReadings.toLocaleString('en')} | ${gigabytes(blockBytes)} GB | ${compactBytesPerReading.toFixed(2)} |`,
        '',
        `The storage pass (\`runStoragePass\`, the hourly job's code, on the app role's connection) moved ${totals.compacted.toLocaleString('en')} readings older than 7 days into ${Number(blocks?.rows ?? 0).toLocaleString('en')} day blocks in ${compactSeconds.toFixed(0)} s, one patient-month per transaction, and truncated ${String(totals.partitions)} emptied month partitions. Left raw: ${rawLeft.toLocaleString('en')} readings of the last days, ${gigabytes(rawBytesAfter)} GB with the space of the moved rows of the current month (reused by later inserts after VACUUM). Goal: at most 24 bytes a compacted reading — ${compactBytesPerReading <= 24 ? 'met' : 'NOT met'}; ${(rawBytesPerReading / compactBytesPerReading).toFixed(0)}× smaller.`,
        '',
        `**Latency**, through HTTP (session cookie, access check, tenant transaction with center visibility, unit conversion, JSON envelope), measured at the client: ${String(REQUESTS)} sequential requests after 20 warm-up ones per row, before the storage pass (raw) and after it (compacted).`,
        '',
        '| request | raw p50 | p95 | p99 | compacted p50 | p95 | p99 |',
        '|---|---:|---:|---:|---:|---:|---:|',
        row(`one patient's heart-rate year (${String(after.year.points)} daily points)`, before.year.timings, after.year.timings),
        row(`year views, ${String(page.items.length)} patients × 6 measures in turn`, before.yearMixed.timings, after.yearMixed.timings),
        row(`heart-rate day view 2 days ago (${String(after.hotDay.points)} points, raw in both)`, before.hotDay.timings, after.hotDay.timings),
        row(`heart-rate day view 30 days ago (${String(after.coldDay.points)} points)`, before.coldDay.timings, after.coldDay.timings),
        row('day views 30–300 days ago, patients and measures in turn', before.coldMixed.timings, after.coldMixed.timings),
        '',
        `Targets: year view p95 under 20 ms — ${p95(after.year.timings) < 20 ? 'met' : 'NOT met'} after compaction (${p95(after.year.timings).toFixed(1)} ms; it reads the daily rollups, ≤ 366 rows); compacted day view p95 under 30 ms — ${p95(after.coldDay.timings) < 30 ? 'met' : 'NOT met'} (${p95(after.coldDay.timings).toFixed(1)} ms; it decodes the two UTC-day blocks the local day touches).`,
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
