import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type Database } from '../src/db/database.js';
import { deriveAppUrl } from '../src/db/migrator.js';
import { TEST_SECRETS_KEY_HEX } from './test-config.js';

export interface TestDatabase {
  name: string;
  /** Owner (superuser) URL: for setup and for checking what really is in the tables. */
  ownerUrl: string;
  /** The app role's URL, as the server connects. */
  appUrl: string;
  database: Database;
  drop: () => Promise<void>;
}

export function urlOfDatabase(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database of its own for one test file (a copy of the run's template). The app's
 * pool holds 5 connections unless `maxConnections` says otherwise (a file sending many requests at
 * once).
 */
export async function createTestDatabase(options: { maxConnections?: number } = {}): Promise<TestDatabase> {
  const name = `rpm_test_${randomBytes(6).toString('hex')}`;
  const template = pg.escapeIdentifier(inject('templateDatabase'));
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${template}`);
      break;
    } catch (error) {
      // Two files copying the template at the same instant can collide; try again shortly.
      if (attempt >= 10 || !(error instanceof pg.DatabaseError) || error.code !== '55006') throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  await adminQuery(`GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(name)} TO rpm_app`);
  const ownerUrl = urlOfDatabase(inject('adminUrl'), name);
  const appUrl = deriveAppUrl(ownerUrl, Buffer.from(TEST_SECRETS_KEY_HEX, 'hex'));
  const database = connectDatabase(appUrl, { maxConnections: options.maxConnections ?? 5 });
  return {
    name,
    ownerUrl,
    appUrl,
    database,
    drop: async () => {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}

/** Runs SQL as the owner, bypassing row level security: to see what is really stored. */
export async function asOwner<T extends pg.QueryResultRow>(ownerUrl: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Owner connections kept open, for a file that runs many owner statements (`asOwner` connects for each one). */
export interface OwnerPool {
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function ownerPool(ownerUrl: string, maxConnections = 4): OwnerPool {
  const pool = new pg.Pool({ connectionString: ownerUrl, max: maxConnections });
  // An idle connection ended by the server (the database dropped at the end) is no test's failure.
  pool.on('error', () => undefined);
  return {
    query: async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await pool.query<T>(sql, values)).rows,
    close: () => pool.end(),
  };
}

/** The PostgreSQL error under a failed promise (Drizzle wraps the driver's error as `cause`). */
export async function databaseErrorOf(promise: Promise<unknown>): Promise<pg.DatabaseError> {
  try {
    await promise;
  } catch (error) {
    let current: unknown = error;
    while (current instanceof Error) {
      if (current instanceof pg.DatabaseError) return current;
      current = current.cause;
    }
    throw error;
  }
  throw new Error('expected the statement to fail, but it succeeded');
}
