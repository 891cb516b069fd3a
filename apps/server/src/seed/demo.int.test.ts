import { ROLE_CODES } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, seedDemo } from './demo.js';

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

it('creates the demo tenant once, with scopes, centers, patients, devices and a login per role', async () => {
  const first = await seedDemo(testDb.database);
  expect(first.created).toBe(true);
  expect(first.logins.map((login) => login.role).sort()).toEqual([...ROLE_CODES].sort());

  const counts = async () =>
    (
      await asOwner<Record<string, number>>(
        testDb.ownerUrl,
        `SELECT (SELECT count(*)::int FROM scopes) AS scopes, (SELECT count(*)::int FROM health_centers) AS centers,
              (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM patients) AS patients,
              (SELECT count(*)::int FROM devices) AS devices, (SELECT count(DISTINCT level)::int FROM scopes) AS levels,
              (SELECT count(DISTINCT status)::int FROM patients) AS statuses`,
      )
    )[0];
  const afterFirst = await counts();
  expect(afterFirst).toMatchObject({
    scopes: 5,
    centers: 3,
    patients: 40,
    devices: 40,
    levels: 3,
    statuses: 4,
  });

  expect((await seedDemo(testDb.database)).created).toBe(false);
  expect(await counts()).toEqual(afterFirst);
});

it('every printed demo login works with the printed password', async () => {
  const { logins } = await seedDemo(testDb.database);
  for (const login of logins) {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: {
        tenant: DEMO_TENANT_CODE,
        username: login.username,
        password: DEMO_PASSWORD,
        grant_type: 'password',
      },
    });
    expect(response.json(), login.username).toMatchObject({ resultCode: 200, data: { role: login.role } });
  }
});
