import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import { TEST_SECRETS_KEY_HEX } from '../../apps/server/test/test-config.js';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/node-flags.js';
// Brings the typing of what the global setup provides (adminUrl, templateDatabase).
import type {} from '../../apps/server/test/global-setup.js';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_TENANT_CODE = 'demo';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.js');
const CONSOLE_INDEX = path.join(ROOT, 'apps/console/dist/index.html');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface RunningServer {
  baseUrl: string;
  /** The server's own database, as the superuser: for checking what was stored. */
  databaseUrl: string;
  /** Everything the server printed, for assertions and for failure reports. */
  output: () => string;
  /** The server's process id (the supervising one when SERVER_PROCESSES runs several). */
  pid: () => number;
  /** SIGTERM, wait for the exit (SIGKILL after 15 s), drop the database; resolves to the exit code. */
  stop: () => Promise<number | null>;
  /** kill -9: the process dies at once, mid-request, with no shutdown work. */
  crash: () => Promise<void>;
  /** Starts the server again on the same database, data directory and port; resolves when ready. */
  restart: () => Promise<void>;
}

/**
 * Starts the built server as a user would (node, with the flags npm start gives it, running
 * apps/server/dist/main.js) on a free port, against
 * a new empty database on the test PostgreSQL server: it migrates and seeds the demo tenant.
 */
export async function startServer(environment: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_ENTRY) || !existsSync(CONSOLE_INDEX)) {
    throw new Error('The product is not built: run "npm run build" first (npm test does it).');
  }
  const database = `rpm_e2e_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  const databaseUrl = new URL(inject('adminUrl'));
  databaseUrl.pathname = `/${database}`;
  const port = await getPort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rpm-e2e-'));
  let output = '';
  let child: ChildProcess;
  let exited: Promise<number | null>;
  const baseUrl = `http://127.0.0.1:${port}`;

  /** Spawns the server (same database, data directory and port every time) and waits until it is ready. */
  const launch = async () => {
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl.toString(),
        DATA_DIR: dataDir,
        // The app role is cluster-wide and its password derives from this key: share the tests' key.
        SECRETS_KEY: TEST_SECRETS_KEY_HEX,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'true',
        // Tests drive the collector themselves: no simulated fleet adding readings and alerts.
        SIMULATOR: 'off',
        // The address browsers reach the server at: where payment providers send payers back.
        PUBLIC_URL: baseUrl,
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const running = child;
    running.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    running.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise<number | null>((resolve) =>
      running.once('exit', (code) => {
        resolve(code);
      }),
    );

    const deadline = Date.now() + 60_000;
    for (;;) {
      if (running.exitCode !== null) throw new Error(`server exited with ${running.exitCode}:\n${output}`);
      try {
        const response = await fetch(`${baseUrl}/readyz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not become ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  await launch();

  return {
    baseUrl,
    databaseUrl: databaseUrl.toString(),
    output: () => output,
    pid: () => child.pid ?? 0,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    restart: launch,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
      return exited;
    },
  };
}

/** Debian's Chromium, headless, with the flags this closed network needs (and any a test adds). */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

export const SCREENSHOT_DIR = path.join(ROOT, '.tmp/screenshots');
