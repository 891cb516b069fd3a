import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createTenant, createTenantUser } from '../../test/factories.js';
import { DEMO_TENANT_CODE, seedDemo } from '../seed/demo.js';

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

type Method = NonNullable<InjectOptions['method']>;

/**
 * QUALITY "every ID-bearing route replayed with another tenant's token: 0 succeed". The demo
 * tenant is seeded in full; then an admin of another tenant calls every route that takes an id
 * with every real id of the demo tenant (scopes, centers, users, patients, devices, roles). No
 * call may succeed, and nothing of the demo tenant may change. Routes come from the app itself.
 */
it('lets no call of another tenant’s admin reach the demo tenant’s objects by id', async () => {
  await seedDemo(testDb.database);
  const [demo] = await asOwner<{ id: string }>(testDb.ownerUrl, 'SELECT id FROM tenants WHERE code = $1', [
    DEMO_TENANT_CODE,
  ]);
  const demoId = demo?.id ?? '';
  const admin = (
    await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `SELECT id FROM users WHERE tenant_id = $1 AND role = 'ADMIN'`,
      [demoId],
    )
  )[0];
  const adminToken = await logIn(app, DEMO_TENANT_CODE, 'admin@demo.example', 'Demo@2026');
  const role = await app.inject({
    method: 'POST',
    url: '/account/role',
    payload: { name: 'Night desk', baseRole: 'OPERATOR', permissions: ['dashboard.view'] },
    ...withSession(adminToken),
  });
  expect(role.statusCode).toBe(200);

  // A handful of real ids of every kind of object the tenant holds (every table with an id), so
  // each route meets the kinds of object it serves and all the others.
  const tables = (
    await asOwner<{ table: string }>(
      testDb.ownerUrl,
      `SELECT c.table_name AS table FROM information_schema.columns c
         JOIN information_schema.columns t ON t.table_name = c.table_name AND t.column_name = 'tenant_id' AND t.table_schema = 'public'
        WHERE c.table_schema = 'public' AND c.column_name = 'id' AND c.data_type = 'uuid' ORDER BY 1`,
    )
  ).map((row) => row.table);
  const ids: string[] = [];
  for (const table of tables) {
    const rows = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `SELECT id::text FROM ${table} WHERE tenant_id = $1 ORDER BY id LIMIT 4`,
      [demoId],
    );
    ids.push(...rows.map((row) => row.id));
  }
  expect(tables).toEqual(
    expect.arrayContaining(['patients', 'devices', 'users', 'health_centers', 'scopes', 'roles']),
  );
  expect(ids.length).toBeGreaterThan(30);
  const before = await asOwner(
    testDb.ownerUrl,
    "SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM (SELECT * FROM users WHERE tenant_id = $1) t",
    [demoId],
  );

  const other = await createTenant(testDb.database);
  const intruder = await createTenantUser(testDb.database, other.id, { role: 'ADMIN' });
  const token = await logIn(app, other.code, intruder.email ?? '');
  // Tenant records themselves are the platform's to address (super admin calls); every other
  // route that takes an id must answer the intruder with a refusal.
  const idRoutes = app.apiRoutes.filter(
    (route) =>
      /:[A-Za-z]+/.test(route.url) && route.access !== 'public' && !route.url.includes('/sadmin/tenant'),
  );
  expect(idRoutes.length).toBeGreaterThan(15);

  const successes: string[] = [];
  const samples = [...new Set([admin?.id ?? '', ...ids])];
  for (const route of idRoutes) {
    for (const id of samples) {
      const response = await app.inject({
        method: route.method as Method,
        url: route.url.replace(/:[A-Za-z]+/g, id),
        ...withSession(token),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (response.statusCode < 300)
        successes.push(`${route.method} ${route.url} with ${id}: ${response.statusCode}`);
    }
  }
  expect(successes).toEqual([]);

  // Control: the demo tenant's own admin reaches the same objects through the same GET routes, so
  // the ids above really address what those routes serve.
  let ownSuccesses = 0;
  for (const route of idRoutes.filter((candidate) => candidate.method === 'GET')) {
    for (const id of samples) {
      const response = await app.inject({
        url: route.url.replace(/:[A-Za-z]+/g, id),
        ...withSession(adminToken),
      });
      if (response.statusCode < 300) ownSuccesses++;
    }
  }
  expect(ownSuccesses).toBeGreaterThanOrEqual(8);
  const after = await asOwner(
    testDb.ownerUrl,
    "SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM (SELECT * FROM users WHERE tenant_id = $1) t",
    [demoId],
  );
  expect(after).toEqual(before);
}, 300_000);
