import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createTenant } from '../../test/factories.js';
import type { CenterVisibility, TenantTransaction } from './database.js';
import { PREPARE_AFTER_USES } from './preparing-client.js';
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
    // The transaction settings are sent with parameters, and are prepared like any statement.
    expect(statements.some((row) => row.statement.includes("set_config('app.tenant_id'"))).toBe(true);
  });
});
