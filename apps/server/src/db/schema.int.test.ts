import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { MEASURE_CODES } from '@rpm/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import * as schema from './schema.js';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

it('the Drizzle schema matches the tables the migrations create (names, types, nullability)', async () => {
  const columns = await asOwner<{ table: string; column: string; type: string; nullable: string }>(
    testDb.ownerUrl,
    `SELECT table_name AS table, column_name AS column, udt_name AS type, is_nullable AS nullable
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
        -- Partitions (monthly readings) repeat their parent's columns; the parent is the table.
        AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)
        -- Views (all_readings) are read with SQL, not declared.
        AND table_name NOT IN (SELECT table_name FROM information_schema.views WHERE table_schema = 'public')`,
  );
  const inDatabase = new Map(columns.map((column) => [`${column.table}.${column.column}`, column]));
  const declared = new Set<string>();
  const problems: string[] = [];
  const tables: PgTable[] = Object.values(schema).filter((value) => is(value, PgTable));
  for (const table of tables) {
    for (const column of Object.values(getTableColumns(table))) {
      const key = `${getTableName(table)}.${column.name}`;
      declared.add(key);
      const actual = inDatabase.get(key);
      if (!actual) {
        problems.push(`${key}: declared in schema.ts but missing in the database`);
        continue;
      }
      const type = column
        .getSQLType()
        .replace('timestamp with time zone', 'timestamptz')
        .replace('double precision', 'float8')
        .replace(/\(.*\)$/, '')
        .replace(/^(\w+)\[\]$/, '_$1');
      const aliases: Record<string, string> = {
        smallint: 'int2',
        integer: 'int4',
        bigint: 'int8',
        boolean: 'bool',
        _smallint: '_int2',
        _integer: '_int4',
        _bigint: '_int8',
        _boolean: '_bool',
      };
      const expectedType = aliases[type] ?? type;
      if (actual.type !== expectedType)
        problems.push(`${key}: schema.ts says ${expectedType}, database has ${actual.type}`);
      if ((actual.nullable === 'NO') !== column.notNull) problems.push(`${key}: nullability differs`);
    }
  }
  for (const key of inDatabase.keys())
    if (!declared.has(key)) problems.push(`${key}: in the database but not in schema.ts`);
  expect(problems).toEqual([]);
});

it('the measures the readings table accepts are the contracts’ measure codes (migration 0066)', async () => {
  const [constraint] = await asOwner<{ definition: string }>(
    testDb.ownerUrl,
    `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = 'readings'::regclass AND conname = 'readings_measure_check'`,
  );
  const accepted = [...(constraint?.definition ?? '').matchAll(/'([A-Z0-9_]+)'::text/g)].map((match) => match[1]);
  expect(accepted.sort()).toEqual([...MEASURE_CODES].sort());
  // And it is enforced: a measure outside the list is refused, one in it stored.
  const insert = (measure: string) =>
    asOwner(
      testDb.ownerUrl,
      `INSERT INTO readings (tenant_id, patient_id, measure, measured_at, value, source)
       VALUES (gen_random_uuid(), gen_random_uuid(), $1, now(), 1, 'MANUAL')`,
      [measure],
    );
  await expect(insert('PULSE')).rejects.toThrow(/readings_measure_check/);
  await expect(insert('HEART_RATE')).resolves.toEqual([]);
});
