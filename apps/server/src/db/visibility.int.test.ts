import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn } from '../../test/app.js';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../test/factories.js';
import { resolveSession } from '../modules/auth/sessions.js';
import { systemClock } from '../lib/clock.js';
import { scopes } from './schema.js';

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** A tenant with two scopes (north, south), a center in each, a patient and a doctor in each. */
async function organisation() {
  const { database } = testDb;
  const tenant = await createTenant(database);
  const north = uuidv7();
  const south = uuidv7();
  await database.withTenant(tenant.id, (tx) =>
    tx.insert(scopes).values([
      { tenantId: tenant.id, id: north, name: 'North', level: 1 },
      { tenantId: tenant.id, id: south, name: 'South', level: 1 },
    ]),
  );
  const centerA = await createHealthCenter(database, tenant.id, 'Center A');
  const centerB = await createHealthCenter(database, tenant.id, 'Center B');
  await database.withTenant(tenant.id, async (tx) => {
    await tx.execute(sql`UPDATE health_centers SET scope_id = ${north} WHERE id = ${centerA.id}`);
    await tx.execute(sql`UPDATE health_centers SET scope_id = ${south} WHERE id = ${centerB.id}`);
  });
  const patientA = await createPatient(database, tenant.id, { healthCenterId: centerA.id, firstName: 'Anh' });
  const patientB = await createPatient(database, tenant.id, { healthCenterId: centerB.id, firstName: 'Binh' });
  const doctorA = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerA.id });
  const doctorB = await createTenantUser(database, tenant.id, { role: 'DOCTOR', healthCenterId: centerB.id });
  const scopeAdmin = await createTenantUser(database, tenant.id, { role: 'SCOPE_ADMIN', scopeId: north });
  const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN' });
  return { tenant, north, south, centerA, centerB, patientA, patientB, doctorA, doctorB, scopeAdmin, admin };
}

describe('health-center visibility is enforced by the database', () => {
  it('limits reads, updates and deletes to the visible centers, and refuses writes into others', async () => {
    const org = await organisation();
    const { database } = testDb;
    const onlyA = { centerIds: [org.centerA.id] };
    await database.withTenant(org.tenant.id, async (tx) => {
      const patients = await tx.execute<{ id: string }>(sql`SELECT id FROM patients`);
      expect(patients.rows.map((row) => row.id)).toEqual([org.patientA.id]);
      const centers = await tx.execute<{ id: string }>(sql`SELECT id FROM health_centers`);
      expect(centers.rows.map((row) => row.id)).toEqual([org.centerA.id]);
      const staff = await tx.execute<{ id: string }>(sql`SELECT id FROM users`);
      expect(staff.rows.map((row) => row.id)).toEqual([org.doctorA.id]);
      expect((await tx.execute(sql`UPDATE patients SET first_name = 'X' WHERE id = ${org.patientB.id}`)).rowCount).toBe(0);
      expect((await tx.execute(sql`DELETE FROM patients WHERE id = ${org.patientB.id}`)).rowCount).toBe(0);
    }, onlyA);

    const refused = await databaseErrorOf(
      database.withTenant(org.tenant.id, (tx) =>
        tx.execute(sql`INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, health_center_id)
                       VALUES (${org.tenant.id}, gen_random_uuid(), 'V1', 'Eve', 'Moved', ${org.centerB.id})`), onlyA),
    );
    expect(refused.code).toBe('42501');
    const moved = await databaseErrorOf(
      database.withTenant(org.tenant.id, (tx) => tx.execute(sql`UPDATE patients SET health_center_id = ${org.centerB.id} WHERE id = ${org.patientA.id}`), onlyA),
    );
    expect(moved.code).toBe('42501');
    const [stored] = await asOwner<{ first_name: string; health_center_id: string }>(testDb.ownerUrl, 'SELECT first_name, health_center_id FROM patients WHERE id = $1', [org.patientB.id]);
    expect(stored).toEqual({ first_name: 'Binh', health_center_id: org.centerB.id });
  });

  it('sees nothing center-bound with an empty list, and everything without a limit', async () => {
    const org = await organisation();
    const count = (visibility?: { centerIds: string[] }) =>
      testDb.database.withTenant(org.tenant.id, async (tx) => (await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM patients`)).rows[0]?.n, visibility);
    expect(await count({ centerIds: [] })).toBe(0);
    expect(await count()).toBe(2);
  });

  it('reads the caller’s settings once per statement, not once per patient row it checks', async () => {
    const org = await organisation();
    const filtersOf = (visibility?: { centerIds: string[] }) =>
      testDb.database.withTenant(org.tenant.id, async (tx) => {
        const plan = await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN (VERBOSE) SELECT count(*) FROM patients`);
        return plan.rows.map((row) => row['QUERY PLAN']).filter((line) => /^\s*Filter:/.test(line));
      }, visibility);
    for (const visibility of [{ centerIds: [org.centerA.id, org.centerB.id] }, undefined]) {
      const filters = await filtersOf(visibility);
      // The row test names the center column, and compares it with what the settings gave once.
      expect(filters.some((line) => line.includes('health_center_id'))).toBe(true);
      for (const line of filters) {
        expect(line).not.toContain('app.center_ids');
        expect(line).not.toContain('app.subject');
      }
    }
  });
});

describe('a caller’s visibility follows their level', () => {
  it('a center’s doctor sees that center, a scope admin the centers of their scope subtree, an admin everything', async () => {
    const org = await organisation();
    const visibilityOf = async (email: string | null) => (await resolveSession(testDb.database, systemClock, await logIn(app, org.tenant.code, email ?? ''))).visibility;
    expect(await visibilityOf(org.doctorA.email)).toEqual({ centerIds: [org.centerA.id] });
    expect(await visibilityOf(org.doctorB.email)).toEqual({ centerIds: [org.centerB.id] });
    expect(await visibilityOf(org.scopeAdmin.email)).toEqual({ centerIds: [org.centerA.id] });
    expect(await visibilityOf(org.admin.email)).toEqual({ all: true });
  });
});
