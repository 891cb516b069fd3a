import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('migration 0042 (medical records)', () => {
  it('makes each file stored before it a record of its own, dated in the patient’s zone', async () => {
    const url = await freshDatabase();
    const directory = mkdtempSync(path.join(tmpdir(), 'rpm-migrations-'));
    cpSync(findMigrationsDirectory(), directory, { recursive: true });
    const later = readdirSync(directory).filter((name) => name >= '0042' && name.endsWith('.sql'));
    for (const name of later) rmSync(path.join(directory, name));
    await migrate({ ownerUrl: url, secretsKey, directory });
    const [tenantId, userId, patientId, fileId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await asOwner(url, `INSERT INTO tenants (id, code, name) VALUES ($1, 'mig42', 'Migration 42')`, [tenantId]);
    await asOwner(
      url,
      `INSERT INTO users (tenant_id, id, email, first_name, last_name, role, time_zone) VALUES ($1, $2, 'p42@test.example', 'Pat', 'Ient', 'PATIENT', 'Asia/Ho_Chi_Minh')`,
      [tenantId, userId],
    );
    await asOwner(url, `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, user_id) VALUES ($1, $2, 'P42', 'Pat', 'Ient', $3)`, [
      tenantId,
      patientId,
      userId,
    ]);
    // 20:00 UTC on 5 January is 03:00 on 6 January in Ho Chi Minh City.
    await asOwner(
      url,
      `INSERT INTO patient_files (tenant_id, id, patient_id, name, content_type, size_bytes, storage_key, uploaded_by, uploaded_at) VALUES ($1, $2, $3, 'scan.pdf', 'application/pdf', 10, 'k', $4, '2026-01-05T20:00:00Z')`,
      [tenantId, fileId, patientId, userId],
    );
    await migrate({ ownerUrl: url, secretsKey });
    const records = await asOwner<Record<string, unknown>>(
      url,
      `SELECT r.title, r.record_type, r.examined_on::text AS examined_on, r.created_by, f.record_id
         FROM medical_records r JOIN patient_files f ON f.record_id = r.id WHERE f.id = $1`,
      [fileId],
    );
    expect(records).toEqual([
      { title: 'scan.pdf', record_type: 'OTHER', examined_on: '2026-01-06', created_by: userId, record_id: fileId },
    ]);
  });
});
