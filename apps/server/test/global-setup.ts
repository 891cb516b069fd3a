import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { ensureDatabase, migrate } from '../src/db/migrator.js';
import { TEST_SECRETS_KEY_HEX } from './test-config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL server. */
    adminUrl: string;
    /** A migrated database that test files copy (CREATE DATABASE … TEMPLATE). */
    templateDatabase: string;
  }
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * One PostgreSQL server per test run: TEST_DATABASE_URL when set (any PostgreSQL 15+), else an
 * embedded one. Migrations run once into a template database; each test file gets its own copy.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    // A directory of its own per run: several runs (or projects) may be going at once.
    const directory = mkdtempSync(path.join(tmpdir(), `rpm-test-pg-${project.name}-`));
    // PostgreSQL runs as its own user, which must be able to enter the directory.
    chmodSync(directory, 0o755);
    const embedded = await startEmbeddedPostgres({ directory: path.join(directory, 'data'), port: await getPort() });
    adminUrl = embedded.adminUrl;
    stopEmbedded = async () => {
      await embedded.stop();
      rmSync(directory, { recursive: true, force: true });
    };
  }
  const templateDatabase = `rpm_tpl_${project.name}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, templateDatabase);
  await migrate({ ownerUrl: databaseUrl(adminUrl, templateDatabase), secretsKey: Buffer.from(TEST_SECRETS_KEY_HEX, 'hex') });
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(templateDatabase)} WITH (FORCE)`);
    await client.end();
    await stopEmbedded?.();
  };
}
