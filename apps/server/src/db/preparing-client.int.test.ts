import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createTenant } from '../../test/factories.js';
import type { CenterVisibility, TenantTransaction } from './database.js';
import { PREPARE_AFTER_USES, PreparingClient } from './preparing-client.js';
import { patients } from './schema.js';

// One connection: every transaction below runs on the same backend, so they share its prepared
// statements and their plans.
let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase({ maxConnections: 1 });
});
afterAll(async () => {
  await testDb.drop();
});

const LAST_NAME = 'Prepared';
const patientsNamed = (tx: TenantTransaction) =>
  tx.select({ id: patients.id }).from(patients).where(eq(patients.lastName, LAST_NAME)).orderBy(patients.id);

describe('statements prepared per connection', () => {
  it('keep row level security: one prepared statement, run under a generic plan for two tenants and narrowed visibility, returns each caller only their rows', async () => {
    const { database } = testDb;
    const [first, second] = [await createTenant(database), await createTenant(database)];
    const north = await createHealthCenter(database, first.id);
    const south = await createHealthCenter(database, first.id);
    const firstNorth = await createPatient(database, first.id, { lastName: LAST_NAME, healthCenterId: north.id });
    const firstSouth = await createPatient(database, first.id, { lastName: LAST_NAME, healthCenterId: south.id });
    const secondOnly = await createPatient(database, second.id, { lastName: LAST_NAME });
    // The plan chosen must not matter: the one plan kept for every caller is the generic one.
    await database.pool.query('SET plan_cache_mode = force_generic_plan');

    const seen = (tenantId: string, visibility?: CenterVisibility) =>
      database.withTenant(tenantId, async (tx) => (await patientsNamed(tx)).map((row) => row.id), visibility);
    for (let round = 0; round < PREPARE_AFTER_USES + 3; round += 1) {
      expect(await seen(first.id)).toEqual([firstNorth.id, firstSouth.id].sort());
      expect(await seen(second.id)).toEqual([secondOnly.id]);
      expect(await seen(first.id, { centerIds: [south.id] })).toEqual([firstSouth.id]);
      expect(await seen(first.id, { centerIds: [] })).toEqual([]);
    }

    const statements = await database.withTenant(first.id, async (tx) => {
      const result = await tx.execute<{ name: string; statement: string; generic_plans: number }>(
        sql`SELECT name, statement, generic_plans::int FROM pg_prepared_statements`,
      );
      return result.rows;
    });
    const prepared = statements.find((row) => row.statement.includes('"last_name" = $1'));
    expect(prepared?.name).toMatch(/^rpm_\d+$/);
    expect(prepared?.generic_plans).toBeGreaterThan(0);
    // The transaction settings go out with the BEGIN, in one simple query: never prepared.
    expect(statements.some((row) => row.statement.includes("set_config('app.tenant_id'"))).toBe(false);
  });
});

describe('the BEGIN of a transaction', () => {
  /** PreparingClient.query forwards pg's overloads untyped: the promise form, typed. */
  const ask = <R extends pg.QueryResultRow = Record<string, unknown>>(client: PreparingClient, config: string | pg.QueryConfig) =>
    client.query(config) as Promise<pg.QueryResult<R>>;
  /** What the client really sends, in order: each text, and whether it went with parameters. */
  async function sending<T>(work: (client: PreparingClient) => Promise<T>) {
    const client = new PreparingClient({ connectionString: testDb.ownerUrl });
    await client.connect();
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const result = await work(client);
      const sent = spy.mock.calls.map(([config, values]) => {
        const text = typeof config === 'string' ? config : (config as { text: string }).text;
        const parameters = Array.isArray(values) ? values : (config as { values?: unknown[] }).values;
        return { text, parameters: parameters?.length ?? 0 };
      });
      return { result, sent };
    } finally {
      spy.mockRestore();
      await client.end();
    }
  }

  it('goes out in one text with a first statement without parameters, and the two run in one transaction', async () => {
    const { result, sent } = await sending(async (client) => {
      await ask(client, { text: 'begin', values: [] });
      const settings = await ask(client, { text: "SELECT set_config('app.probe', 'held', true) AS value, now() AS started", values: [] });
      await ask(client, 'SELECT pg_sleep(0.02)');
      const later = await ask<{ value: string; started: Date }>(client, { text: "SELECT current_setting('app.probe', true) AS value, now() AS started, $1::int AS one", values: [1] });
      await ask(client, { text: 'commit', values: [] });
      const after = await ask<{ value: string | null }>(client, "SELECT nullif(current_setting('app.probe', true), '') AS value");
      return { settings: settings.rows[0] as { value: string; started: Date }, later: later.rows[0], after: after.rows[0] };
    });
    // The answer is the statement's own, not the BEGIN's.
    expect(result.settings.value).toBe('held');
    // One transaction: its start time did not move, and the setting lived until its end.
    expect(result.later?.started.getTime()).toBe(result.settings.started.getTime());
    expect(result.later?.value).toBe('held');
    expect(result.after?.value).toBeNull();
    expect(sent.map((call) => call.text)).toEqual([
      "begin; SELECT set_config('app.probe', 'held', true) AS value, now() AS started",
      'SELECT pg_sleep(0.02)',
      "SELECT current_setting('app.probe', true) AS value, now() AS started, $1::int AS one",
      'commit',
      "SELECT nullif(current_setting('app.probe', true), '') AS value",
    ]);
  });

  it('goes first, on its own, before a first statement with parameters; a rollback undoes both', async () => {
    const { result, sent } = await sending(async (client) => {
      await ask(client, 'CREATE TEMP TABLE held_probe (n int)');
      await ask(client, { text: 'begin', values: [] });
      await ask(client, { text: 'INSERT INTO held_probe VALUES ($1)', values: [7] });
      await ask(client, { text: 'rollback', values: [] });
      return (await ask<{ n: number }>(client, 'SELECT count(*)::int AS n FROM held_probe')).rows[0]?.n;
    });
    expect(result).toBe(0);
    expect(sent.map((call) => call.text)).toEqual([
      'CREATE TEMP TABLE held_probe (n int)',
      'begin',
      'INSERT INTO held_probe VALUES ($1)',
      'rollback',
      'SELECT count(*)::int AS n FROM held_probe',
    ]);
  });

  it('is not sent at all for a transaction that runs nothing, nor is its end', async () => {
    const { result, sent } = await sending(async (client) => {
      await ask(client, { text: 'begin read only', values: [] });
      const ended = await ask(client, { text: 'commit', values: [] });
      // Not in a transaction now: a statement that may not run in one still runs.
      await ask(client, 'VACUUM (ANALYZE) pg_catalog.pg_am');
      return ended.command;
    });
    expect(result).toBe('COMMIT');
    expect(sent.map((call) => call.text)).toEqual(['VACUUM (ANALYZE) pg_catalog.pg_am']);
  });

  it('holds for the whole of Database.withTenant: its settings and statements in one transaction', async () => {
    const { database } = testDb;
    const tenant = await createTenant(database);
    const seen = await database.withTenant(tenant.id, async (tx) => {
      const first = await tx.execute<{ tenant: string; started: string }>(sql`SELECT current_setting('app.tenant_id') AS tenant, now()::text AS started`);
      await tx.execute(sql`SELECT pg_sleep(0.02)`);
      const second = await tx.execute<{ started: string }>(sql`SELECT now()::text AS started`);
      return { tenant: first.rows[0]?.tenant, same: first.rows[0]?.started === second.rows[0]?.started };
    });
    expect(seen).toEqual({ tenant: tenant.id, same: true });
  });
});
