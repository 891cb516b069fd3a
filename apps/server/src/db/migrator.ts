import { createHash, createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { installJobQueueSchema } from '../modules/jobs/schema.js';
import type { Queryable } from './connection-guard.js';

/** The login role requests run as: owns no table, cannot bypass row level security. */
export const APP_ROLE = 'rpm_app';

const MIGRATION_LOCK_ID = 727_001;

export function findMigrationsDirectory(): string {
  // Source (src/db) and bundle (dist) sit at different depths below apps/server.
  for (const candidate of ['../../migrations', '../migrations', './migrations']) {
    const directory = path.resolve(import.meta.dirname, candidate);
    if (existsSync(path.join(directory, '0001_foundation.sql'))) return directory;
  }
  throw new Error(`migrations directory not found near ${import.meta.dirname}`);
}

interface MigrationFile {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

function readMigrations(directory: string): MigrationFile[] {
  return readdirSync(directory)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(directory, file), 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

/** The app role's password is derived from the secrets key, so nothing else has to be stored. */
export function appRolePassword(secretsKey: Buffer): string {
  return createHmac('sha256', secretsKey).update('database-app-role').digest('hex');
}

/** The URL the application connects with: the owner URL with the app role's credentials. */
export function deriveAppUrl(ownerUrl: string, secretsKey: Buffer): string {
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = appRolePassword(secretsKey);
  return url.toString();
}

const isRace = (error: unknown) =>
  error instanceof pg.DatabaseError && (error.code === '23505' || error.code === '42710');
// Two databases of one cluster changing the (cluster-wide) role at once: PostgreSQL answers
// "tuple concurrently updated". Advisory locks are per database, so they cannot prevent it.
const isConcurrentRoleUpdate = (error: unknown) =>
  error instanceof pg.DatabaseError && error.code === 'XX000' && error.message.includes('concurrently');

async function withRoleRetry(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (!isConcurrentRoleUpdate(error) || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150 * (attempt + 1)));
    }
  }
}

/**
 * Makes sure the app role exists with the right attributes. Roles are cluster-wide and several
 * databases (tests, dedicated tenants) may ensure it at once, so a lost race is retried.
 */
async function ensureAppRole(client: pg.Client, options: { secretsKey: Buffer; appUser?: string }) {
  for (let attempt = 0; ; attempt++) {
    try {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
      if (exists.rowCount === 0) {
        await client.query(`CREATE ROLE ${APP_ROLE} NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`);
      }
      break;
    } catch (error) {
      if (!isRace(error) || attempt > 3) throw error;
    }
  }
  if (options.appUser === undefined) {
    const password = appRolePassword(options.secretsKey).replaceAll("'", "''");
    await withRoleRetry(() => client.query(`ALTER ROLE ${APP_ROLE} WITH LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '${password}'`));
  } else if (options.appUser !== APP_ROLE) {
    // An operator-provided login role gets its table rights through membership of rpm_app.
    const appUser = options.appUser;
    await withRoleRetry(() => client.query(`GRANT ${APP_ROLE} TO ${pg.escapeIdentifier(appUser)}`));
  }
  const database = (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]?.name ?? '';
  await withRoleRetry(() => client.query(`GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(database)} TO ${APP_ROLE}`));
  await client.query(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}`);
}

export interface MigrateOptions {
  ownerUrl: string;
  secretsKey: Buffer;
  /** Login user of DATABASE_APP_URL when the operator manages the app role themselves. */
  appUser?: string;
  /** Defaults to the checked-in migrations; tests point it elsewhere. */
  directory?: string;
  log?: (message: string) => void;
  /**
   * Run on every connection migrate() makes, before anything is done there (a DEDICATED tenant's
   * target checks); a rejection stops the migration with nothing applied.
   */
  checkConnection?: (connection: Queryable) => Promise<void>;
}

/**
 * Applies the checked-in SQL migrations in order, each in its own transaction, under an advisory
 * lock so that several processes starting at once apply each migration exactly once. A migration
 * that was edited after being applied stops the start with a clear error.
 */
export async function migrate(options: MigrateOptions): Promise<{ applied: string[] }> {
  const client = new pg.Client({ connectionString: options.ownerUrl });
  // A server that drops the connection later must not crash the process.
  client.on('error', () => undefined);
  await client.connect();
  if (options.checkConnection !== undefined) {
    try {
      await options.checkConnection(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await ensureAppRole(client, options);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`REVOKE ALL ON schema_migrations FROM ${APP_ROLE}`);
    const done = new Map(
      (await client.query<{ version: string; checksum: string }>('SELECT version, checksum FROM schema_migrations')).rows.map(
        (row) => [row.version, row.checksum],
      ),
    );
    for (const migration of readMigrations(options.directory ?? findMigrationsDirectory())) {
      const checksum = done.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`migration ${migration.version}_${migration.name} was changed after it was applied`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          migration.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(`${migration.version}_${migration.name}`);
      options.log?.(`applied migration ${migration.version}_${migration.name}`);
    }
    // The job queue's own schema (graphile-worker), after ours: migration 0015 refers to it.
    await installJobQueueSchema(options.ownerUrl, { checkConnection: options.checkConnection });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
  return { applied };
}

/** Creates a database on the server of `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } catch (error) {
    if (!isRace(error)) throw error;
  } finally {
    await client.end();
  }
}
