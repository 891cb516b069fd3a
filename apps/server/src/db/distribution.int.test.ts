import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { CONTROL_PLANE_TABLES } from './tenancy.js';

/**
 * The precondition for distributing the data plane by tenant (docs/scale-out.md: Citus with
 * tenant_id as the distribution column): every data-plane table's primary key and every unique
 * constraint or unique index includes tenant_id, so uniqueness can be enforced within one shard.
 */
let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

describe('distribution by tenant', () => {
  it('every primary key and unique index of the data plane includes tenant_id', async () => {
    const indexes = await asOwner<{ table: string; index: string; primary: boolean; columns: string[] | null; expression: string | null }>(
      testDb.ownerUrl,
      `SELECT t.relname AS table, i.relname AS index, x.indisprimary AS primary,
              (SELECT array_agg(a.attname ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = ANY (x.indkey)) AS columns,
              pg_get_expr(x.indexprs, x.indrelid) AS expression
         FROM pg_index x
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = 'public' AND (x.indisunique OR x.indisprimary) AND t.relkind IN ('r', 'p') AND NOT t.relispartition`,
    );
    const dataPlane = indexes.filter((row) => !(CONTROL_PLANE_TABLES as readonly string[]).includes(row.table));
    expect(new Set(dataPlane.map((row) => row.table)).size).toBeGreaterThanOrEqual(50);
    const missing = dataPlane.filter((row) => !(row.columns ?? []).includes('tenant_id')).map((row) => `${row.table}.${row.index}`);
    expect(missing).toEqual([]);
    // Every data-plane table has a primary key to distribute by.
    const tables = await asOwner<{ table: string; primary: boolean }>(
      testDb.ownerUrl,
      `SELECT c.relname AS table, EXISTS (SELECT 1 FROM pg_index x WHERE x.indrelid = c.oid AND x.indisprimary) AS primary
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    expect(tables.filter((row) => !(CONTROL_PLANE_TABLES as readonly string[]).includes(row.table) && !row.primary).map((row) => row.table)).toEqual([]);
  });
});
