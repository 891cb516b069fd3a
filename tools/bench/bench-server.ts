/**
 * What the HTTP benchmarks share: the built server started as a user starts it, on a fresh
 * database of the PostgreSQL at TEST_DATABASE_URL (demo tenant seeded, no simulator), a logged-in
 * session, the machine's description and the rewrite of one section of RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/node-flags.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.js');
export const RESULTS_FILE = path.join(here, 'RESULTS.md');

export interface BenchServer {
  baseUrl: string;
  /** Owner (superuser) connection string of the bench database. */
  databaseUrl: string;
  /** The server process's id (its CPU time is read from /proc). */
  pid: number;
  stop: () => Promise<void>;
}

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    console.error(
      'Set TEST_DATABASE_URL to a superuser URL, e.g. postgres://postgres@127.0.0.1:5432/postgres',
    );
    process.exit(2);
  }
  return url;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts apps/server/dist/main.js (with the flags npm start gives node) on a new database `rpm_bench_<name>_<random>`; stop() drops it.
 * `BENCH_DATABASE=<name>` starts it on that existing database instead (one a run kept with
 * BENCH_KEEP_DATABASE=true; the server applies any newer migration) and keeps it.
 */
export async function startBenchServer(
  name: string,
  environment: Record<string, string> = {},
): Promise<BenchServer> {
  if (!existsSync(SERVER_ENTRY)) throw new Error('Build first: npm run build');
  const reused = process.env.BENCH_DATABASE;
  const isReused = reused !== undefined && reused !== '';
  const database = isReused ? reused : `rpm_bench_${name}_${randomBytes(4).toString('hex')}`;
  if (!isReused) await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  const databaseUrl = new URL(adminUrl());
  databaseUrl.pathname = `/${database}`;
  const port = await getPort();
  let output = '';
  // BENCH_SERVER_NODE_ARGS: flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl.toString(),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'rpm-bench-')),
      SECRETS_KEY: benchSecretsKey(database),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      SIMULATOR: 'off',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const baseUrl = `http://127.0.0.1:${String(port)}`;
  // A kept database may get a new migration first (minutes on a large one).
  const startedAt = Date.now();
  const deadline = startedAt + (isReused ? 30 * 60_000 : 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    const isReady = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (isReady) break;
    if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (isReused)
    console.log(`server ready on ${database} after ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  return {
    baseUrl,
    databaseUrl: databaseUrl.toString(),
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      // BENCH_SERVER_OUTPUT: a file to keep the server's output in (e.g. with --trace-gc).
      if (process.env.BENCH_SERVER_OUTPUT) await writeFile(process.env.BENCH_SERVER_OUTPUT, output);
      if (!isReused && process.env.BENCH_KEEP_DATABASE !== 'true')
        await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
    },
  };
}

/**
 * The secrets key of a bench database, derived from its (random) name, so a later run that starts
 * the server again on a kept database (BENCH_DATABASE) opens what the first one sealed. Bench
 * databases are throwaway: the key guards nothing of value.
 */
function benchSecretsKey(database: string): string {
  return createHash('sha256').update(`rpm-bench:${database}`).digest('hex');
}

/** Logs in through the console login and returns the session cookie for later calls. */
export async function loginCookie(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/oauth-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'demo', username, password: 'Demo@2026', grant_type: 'password' }),
  });
  if (!response.ok) throw new Error(`login failed: ${String(response.status)}`);
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('rpm_session='));
  if (session === undefined) throw new Error('no session cookie');
  return session.split(';')[0] ?? '';
}

export async function getJson<T>(baseUrl: string, cookie: string, pathAndQuery: string): Promise<T> {
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    headers: { cookie, accept: 'application/json' },
  });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`GET ${pathAndQuery}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${String(os.cpus().length)} cores (${cpu}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Replaces the section that starts with `heading` (up to the next `## ` heading) in RESULTS.md, or
 * appends it: other benchmarks keep their sections.
 */
export async function writeResultsSection(heading: string, body: string): Promise<void> {
  const current = await readFile(RESULTS_FILE, 'utf8').catch(() => '# Benchmark results\n');
  const start = current.indexOf(heading);
  const section = `${heading}\n\n${body.trim()}\n`;
  if (start === -1) {
    await writeFile(RESULTS_FILE, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  const after = next === -1 ? '' : `\n${current.slice(next + 1)}`;
  await writeFile(RESULTS_FILE, `${current.slice(0, start)}${section}${after}`);
}

/**
 * CPU seconds so far of a process and the processes it started (the server processes of
 * SERVER_PROCESSES), from /proc.
 */
export async function processTreeCpuSeconds(pid: number): Promise<number> {
  let seconds = (await processCpuSeconds(pid)) ?? 0;
  try {
    const children = await readFile(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8');
    for (const child of children.split(' ').filter((text) => text.trim() !== ''))
      seconds += await processTreeCpuSeconds(Number(child));
  } catch {
    // no children listed
  }
  return seconds;
}

/** CPU seconds (user + system) of a process from /proc; undefined where that cannot be read. */
export async function processCpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds so far of each PostgreSQL backend connected to the database (PostgreSQL on this
 * machine: its processes are read from /proc). Empty when they cannot be read.
 */
export async function backendCpu(admin: pg.Client, databaseName: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
    databaseName,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = await processCpuSeconds(pid);
    if (seconds !== undefined) cpu.set(pid, seconds);
  }
  return cpu;
}
