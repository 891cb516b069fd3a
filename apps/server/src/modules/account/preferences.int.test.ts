import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { tenantSettings } from '../../db/schema.js';
import { DAY, ManualClock } from '../../lib/clock.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock(new Date('2026-11-21T08:00:00Z'));
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function signedIn(role: 'DOCTOR' | 'OPERATOR' | 'COACH' = 'OPERATOR') {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { role });
  return { tenant, user, token: await logIn(app, tenant.code, user.email ?? '') };
}
const login = (tenant: string, username: string) =>
  app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant, username, password: TEST_PASSWORD, grant_type: 'password' } });

describe('unit settings', () => {
  it('follows the tenant until the user chooses, then keeps the choice; null goes back to the tenant', async () => {
    const { tenant, token } = await signedIn();
    await testDb.database.system.insert(tenantSettings).values([
      { tenantId: tenant.id, key: 'UNIT_SYSTEM', value: 'imperial' },
      { tenantId: tenant.id, key: 'THERMAL_UNIT', value: 'F' },
    ]);
    const initial = await app.inject({ url: '/account/me/unit-settings', ...withSession(token) });
    expect(initial.json()).toEqual({
      resultCode: 200,
      data: {
        own: { unitSystem: null, thermalUnit: null, bloodGlucoseUnit: null, uricAcidUnit: null },
        effective: { unitSystem: 'imperial', thermalUnit: 'F', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: 'umol/L' },
      },
    });
    const chosen = await app.inject({
      method: 'PUT',
      url: '/account/me/unit-settings',
      payload: { unitSystem: 'metric', thermalUnit: null, bloodGlucoseUnit: 'mmol/L', uricAcidUnit: null },
      ...withSession(token),
    });
    expect(chosen.json()).toMatchObject({ data: { effective: { unitSystem: 'metric', thermalUnit: 'F', bloodGlucoseUnit: 'mmol/L', uricAcidUnit: 'umol/L' } } });
  });

  it('refuses units outside the spec’s lists and stores nothing', async () => {
    const { user, token } = await signedIn();
    const response = await app.inject({
      method: 'PUT',
      url: '/account/me/unit-settings',
      payload: { unitSystem: 'cubits', thermalUnit: 'K', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: null },
      ...withSession(token),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field).sort()).toEqual(['body.thermalUnit', 'body.unitSystem']);
    const [row] = await asOwner<{ unit_system: string | null }>(testDb.ownerUrl, 'SELECT unit_system FROM users WHERE id = $1', [user.id]);
    expect(row?.unit_system).toBeNull();
  });
});

describe('deactivating one’s own account', () => {
  it('disables the account for two weeks, ends its sessions, and the first login after that turns it back on', async () => {
    const { tenant, user, token } = await signedIn('OPERATOR');
    const response = await app.inject({ method: 'POST', url: '/account/me/deactivate', payload: { duration: 'TWO_WEEKS', password: TEST_PASSWORD }, ...withSession(token) });
    expect(response.json()).toEqual({ resultCode: 200, data: { outcome: 'DEACTIVATED', until: new Date(clock.now().getTime() + 14 * DAY).toISOString() } });
    expect((await app.inject({ url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(401);
    expect((await login(tenant.code, user.email ?? '')).json()).toMatchObject({ code: 'auth.accountDisabled' });

    clock.advance(14 * DAY + 1000);
    expect((await login(tenant.code, user.email ?? '')).statusCode).toBe(200);
    const actions = (await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE subject_user_id = $1 ORDER BY occurred_at, id', [user.id])).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['ACCOUNT_DEACTIVATED', 'ACCOUNT_REACTIVATED']));
  });

  it('keeps an indefinite deactivation until an admin restores the account', async () => {
    const { tenant, user, token } = await signedIn('COACH');
    await app.inject({ method: 'POST', url: '/account/me/deactivate', payload: { duration: 'INDEFINITE', password: TEST_PASSWORD }, ...withSession(token) });
    clock.advance(400 * DAY);
    expect((await login(tenant.code, user.email ?? '')).json()).toMatchObject({ code: 'auth.accountDisabled' });
  });

  it('only records a doctor’s request: an admin must approve it (spec §4)', async () => {
    const { user, token } = await signedIn('DOCTOR');
    const response = await app.inject({ method: 'POST', url: '/account/me/deactivate', payload: { duration: 'ONE_MONTH', password: TEST_PASSWORD }, ...withSession(token) });
    expect(response.json()).toMatchObject({ data: { outcome: 'REQUESTED' } });
    expect((await app.inject({ url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(200);
    const [row] = await asOwner<{ status: string; requested: boolean }>(testDb.ownerUrl, 'SELECT status, deactivation_requested_at IS NOT NULL AS requested FROM users WHERE id = $1', [user.id]);
    expect(row).toEqual({ status: 'ACTIVE', requested: true });
  });

  it('asks for the current password and refuses unknown durations, changing nothing', async () => {
    const { user, token } = await signedIn();
    const wrong = await app.inject({ method: 'POST', url: '/account/me/deactivate', payload: { duration: 'THREE_DAYS', password: 'Wrong@123' }, ...withSession(token) });
    expect(wrong.json()).toMatchObject({ code: 'password.wrongCurrent' });
    const bad = await app.inject({ method: 'POST', url: '/account/me/deactivate', payload: { duration: 'FOREVER', password: TEST_PASSWORD }, ...withSession(token) });
    expect(bad.statusCode).toBe(400);
    const [row] = await asOwner<{ status: string }>(testDb.ownerUrl, 'SELECT status FROM users WHERE id = $1', [user.id]);
    expect(row?.status).toBe('ACTIVE');
  });
});
