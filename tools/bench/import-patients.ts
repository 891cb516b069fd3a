/**
 * Bulk patient import benchmark: builds 10,000-, 100,000- and 1,000,000-row patient files
 * (exceljs' streaming writer, realistic rows, about 0.5% bad ones, in a child process so that
 * writing them weighs neither on the measured memory nor on the time), imports each through the
 * real engine and the real patient kind into a fresh database, and records rows/s, wall time, the
 * process's peak memory, the CPU time of this process and of the PostgreSQL backends serving it,
 * and the machine's load, in tools/bench/RESULTS.md. Memory should stay flat: the larger runs
 * should peak near the 10k run.
 *
 *   npx tsx tools/bench/import-patients.ts            (TEST_DATABASE_URL, or an embedded PostgreSQL)
 *   BENCH_ROWS=10000,50000 npx tsx tools/bench/import-patients.ts
 */
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { backendCpu, writeResultsSection } from './bench-server.js';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_ROLE_PERMISSIONS } from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { connectDatabase } from '../../apps/server/src/db/database.js';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.js';
import { deriveAppUrl, ensureDatabase, migrate } from '../../apps/server/src/db/migrator.js';
import { healthCenters, importJobs, tenants, users } from '../../apps/server/src/db/schema.js';
import type { AuthContext } from '../../apps/server/src/http/access.js';
import { systemClock } from '../../apps/server/src/lib/clock.js';
import { ImportFiles } from '../../apps/server/src/modules/imports/files.js';
import { IMPORT_KIND_REGISTRY } from '../../apps/server/src/modules/imports/kinds.js';
import { ImportRunner } from '../../apps/server/src/modules/imports/runner.js';
import { startImport } from '../../apps/server/src/modules/imports/service.js';
import { PATIENT_IMPORT_HEADERS } from '../../apps/server/src/modules/patients/import-kind.js';

const SECRETS_KEY = randomBytes(32);
const SIZES = (process.env.BENCH_ROWS ?? '10000,100000,1000000')
  .split(',')
  .map((value) => Number(value.trim()));
const FIRST = [
  'An',
  'Binh',
  'Chi',
  'Dung',
  'Giang',
  'Hanh',
  'Khanh',
  'Lan',
  'Minh',
  'Nga',
  'Phuc',
  'Quang',
  'Son',
  'Thao',
  'Tuan',
];
const LAST = ['Nguyen', 'Tran', 'Le', 'Pham', 'Hoang', 'Vu', 'Vo', 'Dang', 'Bui', 'Do'];
const BLOOD = ['O+', 'A+', 'B+', 'AB+', 'O-'];
const DEFAULT_CENTER = 'Bench Center';
const NAMED_CENTER = 'Bench Clinic District 3';

/** One patient row of the template; every 200th row is bad (a name with digits, or a future birthday). */
function patientRow(index: number): (string | number)[] {
  const first = FIRST[index % FIRST.length] ?? 'An';
  const last = LAST[Math.floor(index / FIRST.length) % LAST.length] ?? 'Nguyen';
  const day = String((index % 28) + 1).padStart(2, '0');
  const month = String((index % 12) + 1).padStart(2, '0');
  const year = 1940 + (index % 60);
  const isBad = index % 200 === 7;
  return [
    `BN${String(index + 1).padStart(7, '0')}`,
    isBad && index % 400 === 7 ? `${first}9` : first,
    last,
    isBad && index % 400 !== 7 ? `01/01/2099` : `${day}/${month}/${year}`,
    index % 2 === 0 ? 'MALE' : 'FEMALE',
    `09${String(10_000_000 + index).slice(-8)}`,
    `patient${index + 1}@example.com`,
    150 + (index % 40),
    45 + (index % 50),
    BLOOD[index % BLOOD.length] ?? 'O+',
    `${(index % 300) + 1} Le Loi, District ${(index % 12) + 1}, Ho Chi Minh City`,
    // Half the rows name a health center (found by name), the others take the upload's default.
    index % 2 === 0 ? '' : NAMED_CENTER,
    '',
  ];
}

/**
 * Writes the file in a child process (this script again, with BENCH_WRITE_FILE): exceljs' writer
 * streams to disk, but what it allocates would otherwise stay in this process's heap and count in
 * the memory of the runs measured after it.
 */
async function writeFileApart(file: string, rows: number): Promise<number> {
  const child = fork(process.argv[1] ?? '', [], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_WRITE_FILE: file, BENCH_WRITE_ROWS: String(rows) },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`writing ${file} failed (${String(code)})`);
  return (await stat(file)).size;
}

async function writePatientFile(file: string, rows: number): Promise<number> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = writer.addWorksheet('Patients');
  sheet.addRow([...PATIENT_IMPORT_HEADERS]).commit();
  for (let index = 0; index < rows; index++) sheet.addRow(patientRow(index)).commit();
  sheet.commit();
  await writer.commit();
  return (await stat(file)).size;
}

interface Run {
  rows: number;
  fileBytes: number;
  seconds: number;
  rowsPerSecond: number;
  stored: number;
  failed: number;
  status: string;
  peakRssMb: number;
  baselineRssMb: number;
  /** CPU seconds of this process (reading, checks, building the inserts) during the run. */
  nodeCpuSeconds: number;
  /** CPU seconds of the PostgreSQL backends of the benchmark's connections, when they can be read. */
  postgresCpuSeconds: number | null;
  /** One-minute load average of the machine when the run started and when it ended. */
  loadBefore: number;
  loadAfter: number;
}

async function main() {
  const writeOnly = process.env.BENCH_WRITE_FILE;
  if (writeOnly !== undefined) {
    await writePatientFile(writeOnly, Number(process.env.BENCH_WRITE_ROWS));
    return;
  }
  let adminUrl = process.env.TEST_DATABASE_URL;
  const work = await mkdtemp(path.join(os.tmpdir(), 'rpm-bench-'));
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (adminUrl === undefined) {
    const embedded = await startEmbeddedPostgres({
      directory: path.join(work, 'pg'),
      port: 54_000 + Math.floor(Math.random() * 1000),
    });
    adminUrl = embedded.adminUrl;
    stopEmbedded = () => embedded.stop();
  }
  const databaseName = `rpm_bench_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, databaseName);
  const ownerUrl = new URL(adminUrl);
  ownerUrl.pathname = `/${databaseName}`;
  await migrate({ ownerUrl: ownerUrl.toString(), secretsKey: SECRETS_KEY });
  const database = connectDatabase(deriveAppUrl(ownerUrl.toString(), SECRETS_KEY), { maxConnections: 4 });
  const files = new ImportFiles(path.join(work, 'imports'));
  const runner = new ImportRunner({
    database,
    clock: systemClock,
    files,
    log: {
      error: (details, message) => {
        console.error(message, details);
      },
      warn: () => undefined,
    },
  });
  const runs: Run[] = [];
  // Every file is written before any import, so that writing does not weigh on the measured runs.
  const fileSizes = new Map<number, number>();
  for (const rows of SIZES) {
    process.stdout.write(`writing ${rows.toLocaleString()} rows… `);
    const size = await writeFileApart(path.join(work, `patients-${String(rows)}.xlsx`), rows);
    fileSizes.set(rows, size);
    console.log(`${(size / 1024 / 1024).toFixed(1)} MB`);
  }
  const admin = new pg.Client({ connectionString: ownerUrl.toString() });
  await admin.connect();
  try {
    for (const rows of SIZES) {
      // A fresh tenant per run: nothing of an earlier run is in the way (duplicates, index size).
      const tenantId = uuidv7();
      await database.system
        .insert(tenants)
        .values({ id: tenantId, code: `bench-${randomBytes(3).toString('hex')}`, name: `Bench ${tenantId}` });
      const userId = uuidv7();
      await database.withTenant(tenantId, (tx) =>
        tx.insert(users).values({
          tenantId,
          id: userId,
          email: 'bench@example.com',
          firstName: 'Bench',
          lastName: 'Admin',
          role: 'ADMIN',
        }),
      );
      const defaultCenterId = uuidv7();
      await database.withTenant(tenantId, (tx) =>
        tx.insert(healthCenters).values([
          { tenantId, id: defaultCenterId, name: DEFAULT_CENTER },
          { tenantId, id: uuidv7(), name: NAMED_CENTER },
        ]),
      );
      const auth: AuthContext = {
        sessionId: uuidv7(),
        familyId: uuidv7(),
        userId,
        accountTenantId: tenantId,
        tenantId,
        role: 'ADMIN',
        fullName: 'Bench Admin',
        accessExpiresAt: new Date(Date.now() + 3_600_000),
        sessionExpiresAt: new Date(Date.now() + 3_600_000),
        permissions: new Set(DEFAULT_ROLE_PERMISSIONS.ADMIN),
        unitChoices: { unitSystem: null, thermalUnit: null, bloodGlucoseUnit: null, uricAcidUnit: null },
        levelId: null,
        scopeId: null,
        centerId: null,
        visibility: { all: true },
      };
      const file = path.join(work, `patients-${rows}.xlsx`);
      const fileBytes = fileSizes.get(rows) ?? 0;
      global.gc?.();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 100);
      const loadBefore = os.loadavg()[0] ?? 0;
      const postgresBefore = await backendCpu(admin, databaseName);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const job = await startImport(
        { database, clock: systemClock, files, kinds: IMPORT_KIND_REGISTRY, runner },
        {
          auth,
          audit: {
            actorUserId: userId,
            actorTenantId: tenantId,
            ip: null,
            userAgent: 'bench',
            requestId: null,
          },
          language: 'en',
        },
        'PATIENT',
        () =>
          Promise.resolve({
            fileName: `patients-${rows}.xlsx`,
            stream: createReadStream(file),
            isTruncated: () => false,
          }),
        { defaultHealthCenterId: defaultCenterId },
      );
      await runner.settled(job.id);
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const postgresAfter = await backendCpu(admin, databaseName);
      const loadAfter = os.loadavg()[0] ?? 0;
      clearInterval(sampler);
      // A backend that connected during the run counts from zero; the pool keeps them across runs.
      const postgresCpuSeconds =
        postgresAfter.size === 0
          ? null
          : [...postgresAfter].reduce((sum, [pid, now]) => sum + now - (postgresBefore.get(pid) ?? 0), 0);
      peak = Math.max(peak, process.memoryUsage().rss);
      const [result] = await database.withTenant(tenantId, (tx) =>
        tx.select().from(importJobs).where(eq(importJobs.id, job.id)),
      );
      // Every stored patient is found by search once the import has ended (its terms written at the end).
      const [searchable] = await database.withTenant(tenantId, async (tx) =>
        (await tx.execute<{ patients: string }>(sql`SELECT count(DISTINCT patient_id) AS patients FROM patient_search_terms`)).rows,
      );
      if (Number(searchable?.patients) !== (result?.rowsStored ?? 0))
        throw new Error(`${String(searchable?.patients)} patients have search terms, ${String(result?.rowsStored)} were stored`);
      const run: Run = {
        rows,
        fileBytes,
        seconds,
        rowsPerSecond: rows / seconds,
        stored: result?.rowsStored ?? 0,
        failed: result?.rowsFailed ?? 0,
        status: result?.status ?? 'unknown',
        peakRssMb: peak / 1024 / 1024,
        baselineRssMb: baseline / 1024 / 1024,
        nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
        postgresCpuSeconds,
        loadBefore,
        loadAfter,
      };
      runs.push(run);
      console.log(
        `${rows.toLocaleString()} rows: ${run.status}, ${seconds.toFixed(1)} s, ${Math.round(run.rowsPerSecond).toLocaleString()} rows/s, stored ${String(run.stored)}, failed ${String(run.failed)}, peak RSS ${run.peakRssMb.toFixed(0)} MB (before ${run.baselineRssMb.toFixed(0)} MB), CPU node ${run.nodeCpuSeconds.toFixed(1)} s, PostgreSQL ${run.postgresCpuSeconds?.toFixed(1) ?? '?'} s, load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
      );
    }
  } finally {
    await runner.stop();
    await database.close();
    await admin.end();
    const server = new pg.Client({ connectionString: adminUrl });
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(databaseName)} WITH (FORCE)`);
    await server.end();
    await stopEmbedded?.();
    await rm(work, { recursive: true, force: true });
  }
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  // Only this benchmark's section is replaced; the others keep theirs.
  await writeResultsSection(
    IMPORT_HEADING,
    report(
      runs,
      maxRssMb,
      process.env.TEST_DATABASE_URL === undefined ? 'embedded PostgreSQL' : 'PostgreSQL at TEST_DATABASE_URL',
    ),
  );
  console.log(`process maxRSS ${maxRssMb.toFixed(0)} MB; written tools/bench/RESULTS.md`);
}

const IMPORT_HEADING = '## Bulk patient import (`npx tsx tools/bench/import-patients.ts`)';

function report(runs: Run[], maxRssMb: number, databaseLabel: string): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const perRow = (seconds: number | null, rows: number) =>
    seconds === null ? '?' : `${((seconds / rows) * 1e6).toFixed(0)} µs`;
  const lines = [
    `Run ${new Date().toISOString()} on ${String(os.cpus().length)} cores (${cpu}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ${os.platform()} ${os.release()}, ${databaseLabel} on the same machine${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}.`,
    '',
    'Each run: a fresh tenant with two health centers, a file written by exceljs’ streaming writer in a child process (inline strings; 1 in 200 rows bad: a name with a digit or a birthday in the future; half the rows name a health center, the others take the default chosen with the upload), streamed from disk into the real upload path and imported through the real engine (zip checks, header check, streaming parse, batches of 1,000, error file) and the real patient kind, with the app role and row level security. Time is from the upload to the job’s end; RSS is the whole process sampled every 100 ms; CPU is this process’s (reading, checks, building the inserts) and that of the PostgreSQL backends serving its connections (from /proc), per row; load is the machine’s one-minute load average when the run started and ended (2 cores: above 2, other work was competing for them).',
    '',
    '| rows | file | status | wall time | rows/s | stored | refused | peak RSS | RSS before | CPU node / row | CPU PostgreSQL / row | load |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (run) =>
        `| ${run.rows.toLocaleString('en')} | ${(run.fileBytes / 1024 / 1024).toFixed(1)} MB | ${run.status} | ${run.seconds.toFixed(1)} s | ${Math.round(run.rowsPerSecond).toLocaleString('en')} | ${run.stored.toLocaleString('en')} | ${run.failed.toLocaleString('en')} | ${run.peakRssMb.toFixed(0)} MB | ${run.baselineRssMb.toFixed(0)} MB | ${perRow(run.nodeCpuSeconds, run.rows)} | ${perRow(run.postgresCpuSeconds, run.rows)} | ${run.loadBefore.toFixed(2)} → ${run.loadAfter.toFixed(2)} |`,
    ),
    '',
    `Process maxRSS (process.resourceUsage): ${maxRssMb.toFixed(0)} MB.`,
    '',
  ];
  // Each size against the one before: a short run ends before the heap has grown to its working
  // size (V8 collects the old generation only once it has grown), a longer one does not grow past it.
  for (const [index, large] of runs.entries()) {
    const small = runs[index - 1];
    if (small === undefined) continue;
    const growth = large.peakRssMb - small.peakRssMb;
    const ratio = large.peakRssMb / small.peakRssMb;
    const times = large.rows / small.rows;
    lines.push(
      `Memory: the ${large.rows.toLocaleString('en')}-row run peaked at ${large.peakRssMb.toFixed(0)} MB against ${small.peakRssMb.toFixed(0)} MB for ${small.rows.toLocaleString('en')} rows (×${ratio.toFixed(2)} for ${times.toLocaleString('en')}× the rows, ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB): ${ratio < 1.5 ? 'flat' : 'NOT flat'}.`,
      '',
    );
  }
  const million = runs.find((run) => run.rows === 1_000_000);
  if (million !== undefined)
    lines.push(
      `1 M-row import time and peak RSS: ${million.seconds.toFixed(1)} s (${Math.round(million.rowsPerSecond).toLocaleString('en')} rows/s, goal under 120 s), ${million.peakRssMb.toFixed(0)} MB, with the load average at ${million.loadBefore.toFixed(2)} → ${million.loadAfter.toFixed(2)}.`,
      '',
    );
  return `${lines.join('\n')}\n`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
