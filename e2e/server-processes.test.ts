import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/harness.js';

// SERVER_PROCESSES=2: one supervising process, two serving on one port (node:cluster).
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SERVER_PROCESSES: '2', LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await server.stop();
});

/** The processes the supervising one started (with DATABASE_URL given, no embedded database). */
function serverProcesses(): number[] {
  try {
    const pid = String(server.pid());
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((text) => text.trim() !== '')
      .map(Number);
  } catch {
    return []; // the process is gone
  }
}

async function waitFor(check: () => boolean, what: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}\n${server.output()}`);
}

/** Requests each process counted, from the summaries it logs (every minute, and when it stops). */
function requestsByProcess(): Map<number, number> {
  const counted = new Map<number, number>();
  for (const line of server.output().split('\n')) {
    const match = /"pid":(\d+).*"summary":\{"requests":(\d+)/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    counted.set(Number(match[1]), (counted.get(Number(match[1])) ?? 0) + Number(match[2]));
  }
  return counted;
}

describe('several server processes (SERVER_PROCESSES)', () => {
  it('migrates and seeds once, then runs the processes on the one port', async () => {
    await waitFor(() => server.output().includes('2 server processes listening'), 'both processes');
    expect(server.output().split('Demo logins (tenant "demo"').length - 1).toBe(1);
    expect(server.output().split('Console:  http://localhost:').length - 1).toBe(1);
    expect(serverProcesses()).toHaveLength(2);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'up' } });
  });

  it('starts a server process again when one dies, and keeps serving meanwhile', async () => {
    const [victim, survivor] = serverProcesses();
    if (victim === undefined || survivor === undefined) throw new Error('two processes expected');
    process.kill(victim, 'SIGKILL');
    // Once the supervising process has seen it die, the other process takes every connection.
    await waitFor(
      () => /server process \d stopped: starting it again/.test(server.output()),
      'the death noticed',
    );
    const ready = await fetch(`${server.baseUrl}/readyz`, {
      headers: { connection: 'close' },
      signal: AbortSignal.timeout(10_000),
    });
    expect(ready.status).toBe(200);
    await waitFor(() => {
      const now = serverProcesses();
      return now.length === 2 && !now.includes(victim) && now.includes(survivor);
    }, 'the replacement process');
    await waitFor(
      () => server.output().split('Server listening at').length - 1 >= 3,
      'the replacement listening',
    );
  });

  it('deals connections to every process, and stops them all on SIGTERM with exit code 0', async () => {
    const workers = serverProcesses();
    // A new connection a request: connections are dealt to the processes in turn.
    for (let request = 0; request < 8; request += 1) {
      const ready = await fetch(`${server.baseUrl}/readyz`, {
        headers: { connection: 'close' },
        signal: AbortSignal.timeout(10_000),
      });
      expect(ready.status).toBe(200);
    }
    expect(await server.stop()).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    // Each process logs what it served as it stops.
    const counted = requestsByProcess();
    for (const pid of workers)
      expect(counted.get(pid) ?? 0, `requests served by ${String(pid)}`).toBeGreaterThan(0);
  });
});
