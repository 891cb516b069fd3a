/**
 * A real primary and its streaming replica for one test file, made with the machine's PostgreSQL
 * binaries (Debian's, under /usr/lib/postgresql/<version>/bin): initdb a throwaway primary in a
 * temporary directory, pg_basebackup -R from it, start both on free loopback ports. Seconds, not
 * minutes.
 *
 * Why not a replica of the test server itself: the machine's server (127.0.0.1:5432) admits no
 * replication connections (its pg_hba.conf has no `replication` line), and a test must not change
 * that server's configuration. A throwaway primary has its own pg_hba.conf.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import pg from 'pg';

const run = promisify(execFile);

/**
 * The newest PostgreSQL binaries of the machine that include pg_basebackup, or why a replica
 * cannot be made here (no such binaries; running as root without the `postgres` user to run them).
 */
export function postgresBinaries(): { bin: string } | { problem: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const bin = versions.map((version) => path.join(root, version, 'bin')).find((candidate) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((tool) => existsSync(path.join(candidate, tool))));
  if (bin === undefined) return { problem: 'no PostgreSQL binaries with initdb, pg_ctl and pg_basebackup under /usr/lib/postgresql/<version>/bin' };
  if (process.getuid?.() === 0 && !readFileSync('/etc/passwd', 'utf8').split('\n').some((line) => line.startsWith('postgres:'))) {
    return { problem: 'running as root, and no postgres user to run PostgreSQL as' };
  }
  return { bin };
}

export interface StreamingReplica {
  primaryPort: number;
  replicaPort: number;
  /** Superuser URL of a database on the primary / on the replica. */
  primaryUrl: (database?: string) => string;
  replicaUrl: (database?: string) => string;
  /** Runs one statement as the superuser on the primary or the replica. */
  onPrimary: (statement: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
  onReplica: (statement: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
  /** Waits until the replica has replayed everything the primary has flushed. */
  waitForReplay: () => Promise<void>;
  stop: () => Promise<void>;
}

async function query(url: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Starts the pair. As root, the servers run as the `postgres` user (PostgreSQL refuses root), so
 * the directory is handed to it.
 */
export async function startStreamingReplica(bin: string): Promise<StreamingReplica> {
  const directory = await mkdtemp(path.join(tmpdir(), 'rpm-replica-'));
  const isRoot = process.getuid?.() === 0;
  const asServerUser = async (tool: string, args: string[]) =>
    isRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  if (isRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(directory, Number(stdout.trim()), Number(group.trim()));
  }
  const [primaryPort, replicaPort] = [await getPort(), await getPort()];
  const primaryDir = path.join(directory, 'primary');
  const replicaDir = path.join(directory, 'replica');
  const options = (port: number) => `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const started: string[] = [];
  const stop = async () => {
    for (const dataDir of started.splice(0).reverse()) await asServerUser('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await asServerUser('initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
    // Its own pg_hba.conf: trust on loopback, replication included.
    await appendFile(path.join(primaryDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    await asServerUser('pg_ctl', ['-D', primaryDir, '-o', options(primaryPort), '-l', path.join(directory, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    await asServerUser('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast']);
    await asServerUser('pg_ctl', ['-D', replicaDir, '-o', `${options(replicaPort)} -c hot_standby=on`, '-l', path.join(directory, 'replica.log'), '-w', 'start']);
    started.push(replicaDir);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = (port: number, database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const onPrimary = (statement: string, values?: unknown[]) => query(url(primaryPort), statement, values);
  const onReplica = (statement: string, values?: unknown[]) => query(url(replicaPort), statement, values);
  return {
    primaryPort,
    replicaPort,
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    onPrimary,
    onReplica,
    waitForReplay: async () => {
      const [target] = await onPrimary('SELECT pg_current_wal_flush_lsn()::text AS lsn');
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const [state] = await onReplica('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target?.lsn]);
        if (state?.done === true) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the replica did not catch up within 10 s');
    },
    stop,
  };
}
