import { DEFAULT_ROLE_PERMISSIONS, PLATFORM_ROLES, ROLE_PLACEMENT, TENANT_ROLES, type RoleCode } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../test/app.js';
import { inPool } from '../../test/concurrency.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createHealthCenter, createPlatformUser, createTenant, createTenantUser } from '../../test/factories.js';
import { platformStaffTenants, scopes } from '../db/schema.js';
import { accessGrants } from './access.js';

/** Requests in flight at once, within the app's connections. */
const CONCURRENT_CALLS = 8;

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase({ maxConnections: CONCURRENT_CALLS + 1 });
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

type Method = NonNullable<InjectOptions['method']>;

/**
 * QUALITY "role × scope × center matrix": for every API route guarded by a permission and every
 * role, placed where that role works, the server's decision (403 permission denied, or not) must
 * be exactly what the permission catalogue and the route's whole-tenant rule say. Routes are read
 * from the app itself, so new routes are covered automatically.
 */
it('decides every permission-guarded route exactly as the permission catalogue says, for every role', async () => {
  const tenant = await createTenant(testDb.database);
  const center = await createHealthCenter(testDb.database, tenant.id);
  const scopeId = uuidv7();
  await testDb.database.withTenant(tenant.id, (tx) => tx.insert(scopes).values({ tenantId: tenant.id, id: scopeId, name: 'Region', level: 1 }));
  const sessions = new Map<RoleCode, string>();
  for (const role of TENANT_ROLES) {
    // Each role placed where it works (contracts ROLE_PLACEMENT): a center, a scope, or the tenant.
    const placement = ROLE_PLACEMENT[role];
    const user = await createTenantUser(testDb.database, tenant.id, {
      role,
      ...(placement === 'center' ? { healthCenterId: center.id } : placement === 'scope' ? { scopeId } : {}),
    });
    sessions.set(role, await logIn(app, tenant.code, user.email ?? ''));
  }
  for (const role of PLATFORM_ROLES) {
    const user = await createPlatformUser(testDb.database, { role });
    if (role === 'SYSTEM_ADMIN') await testDb.database.system.insert(platformStaffTenants).values({ userId: user.id, tenantId: tenant.id });
    sessions.set(role, await logIn(app, tenant.code, user.email ?? ''));
  }
  const guarded = app.apiRoutes.filter((route) => route.access !== 'public' && route.access !== 'session');
  expect(guarded.length).toBeGreaterThan(5);

  const mismatches: string[] = [];
  for (const route of guarded) {
    // Path parameters get a well-formed id of nothing: a refused call must be refused before lookup.
    const url = route.url.replace(/:[A-Za-z]+/g, '01890000-0000-7000-8000-000000000000');
    // The roles' calls of one route address nothing that exists: they go at once, a few at a time.
    await inPool([...sessions], CONCURRENT_CALLS, async ([role, token]) => {
      const response = await app.inject({
        method: route.method as Method,
        url,
        ...withSession(token),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const isDenied = response.statusCode === 403 && response.json<{ code?: string }>().code === 'auth.permissionDenied';
      const placement = ROLE_PLACEMENT[role];
      const seesWholeTenant = placement === 'platform' || placement === 'tenant' || placement === 'tenantOrCenter';
      const shouldDeny = !accessGrants(route.access, DEFAULT_ROLE_PERMISSIONS[role]) || (route.wholeTenant && !seesWholeTenant);
      if (isDenied !== shouldDeny) {
        mismatches.push(`${role} ${route.method} ${route.url} (${String(route.access)}): got ${response.statusCode} ${response.body.slice(0, 80)}`);
      }
    });
  }
  expect(mismatches).toEqual([]);
  // Every route times every role: about 12 s on a quiet machine, several times that on a busy one.
}, 300_000);

it('has no unguarded route besides the ones meant to be public', () => {
  const publicRoutes = app.apiRoutes.filter((route) => route.access === 'public').map((route) => `${route.method} ${route.url}`);
  // Each public call is one a person makes before they have a session, or an SMS or voice
  // gateway's report, proven by its signature or its secret address (messaging/gateways), or a
  // payment provider's callback or the sandbox payment page, proven by signature or signed token (payments).
  for (const route of publicRoutes) {
    expect(route, route).toMatch(/oauth|otp|refresh-token|register|verif|forgot-password|\/auth\/unlock|\/tenant\/by-(code|host)|tenant-request|\/logo|email-register|^(POST|GET) \/collector\/gateway\/(twilio|esms)\/:key\/(sms|call)$|^GET \/collector\/payments\/vnpay\/:key\/(ipn|return)$|^POST \/collector\/payments\/stripe\/:key\/webhook$|^(GET|POST) \/collector\/payments\/sandbox\/:token$/);
  }
});
