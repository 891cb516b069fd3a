import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';

/**
 * The spec's §7 calls the product serves at their own paths, prefix by prefix, compared with the
 * routes the server registers.
 */

/** Spec §7 "Notifications" (the notification prefix) and the collector's notification calls. */
const NOTIFICATION_CALLS = [
  'GET /notification/log/force',
  'GET /notification/status/force',
  'GET /notification/notification/inbox',
  'GET /notification/getUnreadCount',
  'GET /notification/push/key',
  'POST /notification/push/subscribe',
  'POST /notification/push/unsubscribe',
  'POST /collector/notification/readAll',
  'POST /collector/notification/read',
  'POST /collector/notification/send',
];

/** Spec §7 "Payment config" (the auth prefix). */
const PAYMENT_CONFIG_CALLS = [
  'POST /auth/sadmin/payment-config/verify-partner-auth',
  'POST /auth/sadmin/payment-config/verify-payment-method',
  'GET /auth/sadmin/payment-config/partner-verify-status',
  'GET /auth/sadmin/payment-config/payment-method-information',
];

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

it('serves every spec §7 notification call at its path', () => {
  const served = new Set(app.apiRoutes.map((route) => `${route.method} ${route.url}`));
  expect(NOTIFICATION_CALLS.filter((call) => !served.has(call))).toEqual([]);
});

it('serves every spec §7 payment-config call at its path', () => {
  const served = new Set(app.apiRoutes.map((route) => `${route.method} ${route.url}`));
  expect(PAYMENT_CONFIG_CALLS.filter((call) => !served.has(call))).toEqual([]);
});
