import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../test/database.js';
import { createPatient, createTenant } from '../../test/factories.js';
import { APP_ROLE } from './migrator.js';
import { CONTROL_PLANE_TABLES } from './tenancy.js';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb.drop();
});

describe('row level security covers the whole data plane', () => {
  it('every table outside the control plane has tenant_id NOT NULL, RLS ENABLE + FORCE and a tenant policy', async () => {
    const tables = await asOwner<{
      table: string;
      rls: boolean;
      forced: boolean;
      tenantColumnNotNull: boolean | null;
      policies: string[] | null;
    }>(
      testDb.ownerUrl,
      `SELECT c.relname AS table, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
              (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS "tenantColumnNotNull",
              (SELECT array_agg(p.qual || ' / ' || coalesce(p.with_check, '')) FROM pg_policies p
                 WHERE p.schemaname = 'public' AND p.tablename = c.relname) AS policies
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    const dataPlane = tables.filter((table) => !(CONTROL_PLANE_TABLES as readonly string[]).includes(table.table));
    expect(dataPlane.length).toBeGreaterThanOrEqual(5);
    const problems = dataPlane.flatMap((table) => {
      const found: string[] = [];
      if (table.tenantColumnNotNull !== true) found.push(`${table.table}: tenant_id missing or nullable`);
      if (!table.rls) found.push(`${table.table}: RLS not enabled`);
      if (!table.forced) found.push(`${table.table}: RLS not forced`);
      const policies = table.policies ?? [];
      if (!policies.some((policy) => /tenant_id = app_current_tenant\(\).* \/ .*tenant_id = app_current_tenant\(\)/.test(policy))) {
        found.push(`${table.table}: no policy comparing tenant_id to app_current_tenant() in USING and WITH CHECK`);
      }
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('lists only tables that exist as control plane, so the allow-list cannot go stale', async () => {
    const names = (
      await asOwner<{ name: string }>(testDb.ownerUrl, `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)
    ).map((row) => row.name);
    for (const table of CONTROL_PLANE_TABLES) expect(names).toContain(table);
  });

  it('the app role owns nothing, cannot bypass RLS, is no superuser and cannot read the migration ledger', async () => {
    const [role] = await asOwner<{ super: boolean; bypass: boolean; owned: number; ledger: boolean }>(
      testDb.ownerUrl,
      `SELECT r.rolsuper AS super, r.rolbypassrls AS bypass,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owned,
              has_table_privilege(r.oid, 'schema_migrations', 'SELECT') AS ledger
         FROM pg_roles r WHERE r.rolname = $1`,
      [APP_ROLE],
    );
    expect(role).toEqual({ super: false, bypass: false, owned: 0, ledger: false });
  });
});

describe('two tenants cannot see each other, even with hand-written SQL', () => {
  it('SELECT, UPDATE, DELETE and INSERT are confined to the tenant set on the transaction', async () => {
    const { database } = testDb;
    const tenantA = await createTenant(database);
    const tenantB = await createTenant(database);
    const patientA = await createPatient(database, tenantA.id, { firstName: 'Alice' });
    const patientB = await createPatient(database, tenantB.id, { firstName: 'Bob' });

    await database.withTenant(tenantA.id, async (tx) => {
      const all = await tx.execute<{ id: string }>(sql`SELECT id FROM patients`);
      expect(all.rows.map((row) => row.id)).toEqual([patientA.id]);

      const byId = await tx.execute(sql`SELECT id FROM patients WHERE id = ${patientB.id}`);
      expect(byId.rows).toEqual([]);

      const joined = await tx.execute(sql`SELECT p.id FROM patients p JOIN tenants t ON t.id = p.tenant_id WHERE t.id = ${tenantB.id}`);
      expect(joined.rows).toEqual([]);

      const updated = await tx.execute(sql`UPDATE patients SET first_name = 'Mallory' WHERE id = ${patientB.id}`);
      expect(updated.rowCount).toBe(0);
      const deleted = await tx.execute(sql`DELETE FROM patients WHERE tenant_id = ${tenantB.id}`);
      expect(deleted.rowCount).toBe(0);
    });

    expect((await databaseErrorOf(
      database.withTenant(tenantA.id, (tx) =>
        tx.execute(sql`INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name)
                       VALUES (${tenantB.id}, gen_random_uuid(), 'X1', 'Eve', 'Intruder')`),
      ),
    )).code).toBe('42501'); // insufficient privilege: row-level security

    expect((await databaseErrorOf(
      database.withTenant(tenantA.id, (tx) =>
        tx.execute(sql`UPDATE patients SET tenant_id = ${tenantB.id} WHERE id = ${patientA.id}`),
      ),
    )).code).toBe('42501'); // insufficient privilege: row-level security

    const stored = await asOwner<{ id: string; first_name: string; tenant_id: string }>(
      testDb.ownerUrl,
      'SELECT id, first_name, tenant_id FROM patients WHERE id = ANY($1) ORDER BY first_name',
      [[patientA.id, patientB.id]],
    );
    expect(stored).toEqual([
      { id: patientA.id, first_name: 'Alice', tenant_id: tenantA.id },
      { id: patientB.id, first_name: 'Bob', tenant_id: tenantB.id },
    ]);
  });

  it('shows no data-plane rows at all when no tenant is set', async () => {
    const { database } = testDb;
    const tenant = await createTenant(database);
    await createPatient(database, tenant.id);
    const rows = await database.system.execute(sql`SELECT count(*)::int AS n FROM patients`);
    expect(rows.rows[0]).toEqual({ n: 0 });
    expect((await databaseErrorOf(
      database.system.execute(sql`INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name)
                                  VALUES (${tenant.id}, gen_random_uuid(), 'X2', 'No', 'Tenant')`),
    )).code).toBe('42501'); // insufficient privilege: row-level security
  });

  it('keeps the tenant setting inside the transaction, so a pooled connection goes back clean', async () => {
    const { database } = testDb;
    const tenant = await createTenant(database);
    const pid = await database.withTenant(tenant.id, async (tx) => {
      const inside = await tx.execute<{ tenant: string; pid: number }>(
        sql`SELECT current_setting('app.tenant_id', true) AS tenant, pg_backend_pid() AS pid`,
      );
      expect(inside.rows[0]?.tenant).toBe(tenant.id);
      return inside.rows[0]?.pid;
    });
    // Take every pooled connection so the one just used is among them.
    const clients = await Promise.all(Array.from({ length: 5 }, () => database.pool.connect()));
    try {
      const settings = await Promise.all(
        clients.map(async (client) => (await client.query<{ tenant: string | null; pid: number }>(
          `SELECT nullif(current_setting('app.tenant_id', true), '') AS tenant, pg_backend_pid() AS pid`,
        )).rows[0]),
      );
      expect(settings.some((row) => row?.pid === pid)).toBe(true);
      expect(settings.every((row) => row?.tenant === null)).toBe(true);
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('refuses a reference from one tenant’s row to another tenant’s row', async () => {
    const { database } = testDb;
    const tenantA = await createTenant(database);
    const tenantB = await createTenant(database);
    const patientB = await createPatient(database, tenantB.id);
    expect((await databaseErrorOf(
      database.withTenant(tenantA.id, (tx) =>
        tx.execute(sql`INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id)
                       VALUES (${tenantA.id}, gen_random_uuid(), 'V19', 'S1', 'AA:BB:CC:DD:EE:01', ${patientB.id})`),
      ),
    )).code).toMatch(/^(23503|42501)$/); // the row policy (the patient is not visible) or the foreign key refuses it
  });
});
