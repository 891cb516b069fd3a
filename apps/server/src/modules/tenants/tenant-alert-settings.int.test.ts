import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { findPlatformTenant } from './store.js';
import { dataOf, errorOf, staffSession, tenantSession } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let home: { id: string; code: string };
let superAdmin: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  home = await createTenant(testDb.database);
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', home.code)).token;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const url = (tenantId: string) => `/manage/sadmin/tenant/${tenantId}/alert-settings`;
const get = (tenantId: string, token = superAdmin) => app.inject({ url: url(tenantId), ...withSession(token) });
const put = (tenantId: string, payload: unknown, token = superAdmin) =>
  app.inject({ method: 'PUT', url: url(tenantId), payload: payload as object, ...withSession(token) });
const storedSettle = async (tenantId: string) =>
  (await asOwner<{ status_settle_minutes: number }>(testDb.ownerUrl, 'SELECT status_settle_minutes FROM alert_settings WHERE tenant_id = $1', [tenantId]))[0]?.status_settle_minutes;

describe('another tenant’s alert settings from the tenant screens', () => {
  it('lets a super admin read and set another tenant’s come-down window, audited in that tenant', async () => {
    const tenant = await createTenant(testDb.database);
    expect(dataOf<AlertSettings>(await get(tenant.id))).toEqual(DEFAULT_ALERT_SETTINGS);
    const saved = dataOf<AlertSettings>(await put(tenant.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 90 }));
    expect(saved).toEqual({ ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 90 });
    expect(await storedSettle(tenant.id)).toBe(90);
    expect(await storedSettle(home.id)).toBeUndefined();
    // The tenant's own staff see the same value through their own call.
    const admin = await tenantSession(app, testDb, tenant, 'ADMIN');
    expect(dataOf<AlertSettings>(await app.inject({ url: '/account/alert-settings', ...withSession(admin.token) })).statusSettleMinutes).toBe(90);
    const audit = await asOwner<{ action: string; details: { statusSettleMinutes: number } }>(
      testDb.ownerUrl,
      `SELECT action, details FROM audit_log WHERE tenant_id = $1 AND action = 'ALERT_SETTINGS_UPDATED'`,
      [tenant.id],
    );
    expect(audit).toMatchObject([{ details: { statusSettleMinutes: 90 } }]);
  });

  it('refuses a window outside 5-1440 minutes, changing nothing', async () => {
    const tenant = await createTenant(testDb.database);
    await put(tenant.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 45 });
    for (const minutes of [4, 1441, 12.5]) {
      expect(errorOf(await put(tenant.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: minutes }))).toMatchObject({ status: 400, code: 'common.invalidParameter' });
    }
    expect(await storedSettle(tenant.id)).toBe(45);
  });

  it('answers 404 for the platform tenant and for a system admin’s unassigned tenant, 403 for a tenant admin', async () => {
    const tenant = await createTenant(testDb.database);
    const platform = await findPlatformTenant(testDb.database.system);
    expect(errorOf(await put(platform.id, DEFAULT_ALERT_SETTINGS)).status).toBe(404);
    const assigned = await createTenant(testDb.database);
    const systemAdmin = (await staffSession(app, testDb, 'SYSTEM_ADMIN', assigned.code, [assigned.id])).token;
    expect(errorOf(await get(tenant.id, systemAdmin)).status).toBe(404);
    expect(errorOf(await put(tenant.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 60 }, systemAdmin)).status).toBe(404);
    expect(dataOf<AlertSettings>(await put(assigned.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 60 }, systemAdmin)).statusSettleMinutes).toBe(60);
    const admin = await tenantSession(app, testDb, tenant, 'ADMIN');
    expect(errorOf(await put(tenant.id, { ...DEFAULT_ALERT_SETTINGS, statusSettleMinutes: 60 }, admin.token))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    expect(await storedSettle(tenant.id)).toBeUndefined();
  });
});
