import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TEST_SECRETS_KEY_HEX } from '../../test/test-config.js';
import { asOwner, urlOfDatabase } from '../../test/database.js';
import { ensureDatabase, findMigrationsDirectory, migrate } from './migrator.js';

const secretsKey = Buffer.from(TEST_SECRETS_KEY_HEX, 'hex');
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `rpm_migrate_${Math.random().toString(16).slice(2, 10)}`;
  await ensureDatabase(inject('adminUrl'), name);
  created.push(name);
  return urlOfDatabase(inject('adminUrl'), name);
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await client.end();
});

describe('migrations', () => {
  it('apply once on an empty database and are a no-op the second time', async () => {
    const url = await freshDatabase();
    const first = await migrate({ ownerUrl: url, secretsKey });
    expect(first.applied).toContain('0001_foundation');
    const second = await migrate({ ownerUrl: url, secretsKey });
    expect(second.applied).toEqual([]);
  });

  it('are applied exactly once when several processes start at the same time', async () => {
    const url = await freshDatabase();
    const results = await Promise.all([1, 2, 3].map(() => migrate({ ownerUrl: url, secretsKey })));
    expect(results.flatMap((result) => result.applied).filter((name) => name === '0001_foundation')).toHaveLength(1);
    const ledger = await asOwner<{ version: string }>(url, 'SELECT version FROM schema_migrations');
    expect(ledger.filter((row) => row.version === '0001')).toHaveLength(1);
  });

  it('stop the start when an applied migration was edited afterwards', async () => {
    const url = await freshDatabase();
    const directory = mkdtempSync(path.join(tmpdir(), 'rpm-migrations-'));
    cpSync(findMigrationsDirectory(), directory, { recursive: true });
    await migrate({ ownerUrl: url, secretsKey, directory });
    const file = path.join(directory, '0001_foundation.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- edited\n`);
    await expect(migrate({ ownerUrl: url, secretsKey, directory })).rejects.toThrow(/0001_foundation was changed after it was applied/);
  });

  it('roll back a failing migration completely and name it', async () => {
    const url = await freshDatabase();
    const directory = mkdtempSync(path.join(tmpdir(), 'rpm-migrations-'));
    cpSync(findMigrationsDirectory(), directory, { recursive: true });
    writeFileSync(path.join(directory, '9999_broken.sql'), 'CREATE TABLE half_done (id int);\nSELECT no_such_function();');
    await expect(migrate({ ownerUrl: url, secretsKey, directory })).rejects.toThrow(/9999_broken failed/);
    const tables = await asOwner(url, `SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
    expect(tables).toEqual([]);
    const ledger = await asOwner<{ version: string }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(ledger.map((row) => row.version)).toContain('0001');
    expect(ledger.map((row) => row.version)).not.toContain('9999');
  });
});
