import { platformStaffTenants } from '../../db/schema.js';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { centerAdmins } from '../../db/schema.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';
import { ReenableJob, reenableDueAccounts } from './reenable-job.js';
import { activeSessions, auditActions, call, logInAs, organisation, revokedReasons, storedUser } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
const clock = new ManualClock();
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

const disable = (token: string, id: string, body: Record<string, unknown>) => call(app, token, 'POST', `/account/admin/staff/${id}/disable`, body);
const enable = (token: string, id: string) => call(app, token, 'POST', `/account/admin/staff/${id}/enable`);
const statusOf = async (id: string) => (await storedUser(testDb.ownerUrl, id))?.status;

describe('disabling staff for a while', () => {
  it.each([
    ['THREE_DAYS', 3 * DAY],
    ['TWO_WEEKS', 14 * DAY],
  ] as const)('%s: disabled with an end, sessions ended, re-enabled by the job once the end has passed', async (duration, length) => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    const start = clock.now();
    const response = await disable(token, org.doctorA.id, { duration, reason: 'On leave' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { status: 'DISABLED', disabledUntil: new Date(start.getTime() + length).toISOString() } });
    expect(await activeSessions(testDb.ownerUrl, org.doctorA.id)).toEqual([]);
    expect(await revokedReasons(testDb.ownerUrl, org.doctorA.id)).toEqual(['disabled']);
    expect((await call(app, doctorToken, 'GET', '/auth/check-token')).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: org.tenant.code, username: org.doctorA.email, password: 'Test@1234', grant_type: 'password' } });
    expect(login.json()).toMatchObject({ code: 'auth.accountDisabled' });

    clock.advance(length - MINUTE);
    await reenableDueAccounts(testDb.database, clock);
    expect(await statusOf(org.doctorA.id)).toBe('DISABLED');
    clock.advance(2 * MINUTE);
    await reenableDueAccounts(testDb.database, clock);
    expect(await storedUser(testDb.ownerUrl, org.doctorA.id)).toMatchObject({ status: 'ACTIVE', disabled_until: null });
    const audits = await auditActions(testDb.ownerUrl, org.doctorA.id);
    expect(audits.map((row) => [row.action, row.actor_user_id])).toEqual([
      ['STAFF_DISABLED', org.admin.id],
      ['STAFF_ENABLED', null],
    ]);
    expect(audits[0]?.details).toMatchObject({ duration, reason: 'On leave' });
    expect(audits[1]?.details).toMatchObject({ trigger: 'expired' });
    // A second pass finds nothing more to do for this account.
    await reenableDueAccounts(testDb.database, clock);
    expect((await auditActions(testDb.ownerUrl, org.doctorA.id)).filter((row) => row.action === 'STAFF_ENABLED')).toHaveLength(1);
  });

  it('ONE_MONTH ends a calendar month later; INDEFINITE never ends by itself', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const start = clock.now();
    const month = await disable(token, org.doctorA.id, { duration: 'ONE_MONTH' });
    const expected = new Date(start);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(month.json()).toMatchObject({ data: { disabledUntil: expected.toISOString() } });
    const forever = await disable(token, org.doctorB.id, { duration: 'INDEFINITE' });
    expect(forever.json()).toMatchObject({ data: { status: 'DISABLED', disabledUntil: null } });

    clock.advance(32 * DAY);
    await reenableDueAccounts(testDb.database, clock);
    expect(await statusOf(org.doctorA.id)).toBe('ACTIVE');
    clock.advance(400 * DAY);
    await reenableDueAccounts(testDb.database, clock);
    expect(await storedUser(testDb.ownerUrl, org.doctorB.id)).toMatchObject({ status: 'DISABLED', disabled_until: null });
  });

  it('re-enables platform staff too, and runs as a loop that stops with the server', async () => {
    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN', status: 'DISABLED', disabledUntil: new Date(clock.now().getTime() - HOUR) });
    const tenant = await createTenant(testDb.database);
    const disabledHere = await createTenantUser(testDb.database, tenant.id, { status: 'DISABLED', disabledUntil: new Date(clock.now().getTime() - HOUR) });
    const job = new ReenableJob(testDb.database, clock, pino({ level: 'silent' }), 20);
    job.start();
    await vi.waitFor(async () => {
      expect(await statusOf(systemAdmin.id)).toBe('ACTIVE');
      expect(await statusOf(disabledHere.id)).toBe('ACTIVE');
    });
    await job.stop();
    expect(await statusOf(superAdmin.id)).toBe('ACTIVE');
  });
});

describe('POST /account/admin/staff/{id}/disable and /enable', () => {
  it('enables a disabled account early, and refuses transitions its state does not allow', async () => {
    const org = await organisation(testDb);
    const token = await logInAs(app, org.tenant.code, org.admin);
    const notDisabled = await enable(token, org.doctorA.id);
    expect(notDisabled.statusCode).toBe(409);
    expect(notDisabled.json()).toMatchObject({ code: 'staff.invalidTransition' });

    await disable(token, org.doctorA.id, { duration: 'INDEFINITE' });
    const enabled = await enable(token, org.doctorA.id);
    expect(enabled.json()).toMatchObject({ data: { status: 'ACTIVE', disabledUntil: null } });
    expect((await auditActions(testDb.ownerUrl, org.doctorA.id)).map((row) => row.action)).toEqual(['STAFF_DISABLED', 'STAFF_ENABLED']);
    expect((await logInAs(app, org.tenant.code, org.doctorA)).length).toBeGreaterThan(0);

    const unactivated = await createTenantUser(testDb.database, org.tenant.id, { role: 'DOCTOR', status: 'UNACTIVATED', healthCenterId: org.centerA.id });
    expect((await disable(token, unactivated.id, { duration: 'THREE_DAYS' })).json()).toMatchObject({ code: 'staff.invalidTransition' });
    expect(await statusOf(unactivated.id)).toBe('UNACTIVATED');
  });

  it('re-enables a deactivated doctor within 30 days only, as the restore call (spec §4); other staff at any time', async () => {
    const org = await organisation(testDb);
    const assistant = await createTenantUser(testDb.database, org.tenant.id, { role: 'DOCTOR_ASSISTANT', healthCenterId: org.centerA.id });
    let token = await logInAs(app, org.tenant.code, org.admin);
    for (const id of [org.doctorA.id, org.doctorB.id, assistant.id]) expect((await disable(token, id, { duration: 'INDEFINITE' })).statusCode).toBe(200);
    clock.advance(29 * DAY);
    token = await logInAs(app, org.tenant.code, org.admin);
    expect((await enable(token, org.doctorA.id)).json()).toMatchObject({ data: { status: 'ACTIVE' } });
    clock.advance(2 * DAY);
    token = await logInAs(app, org.tenant.code, org.admin);
    const late = await enable(token, org.doctorB.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'doctor.restorePeriodOver', message: 'A deactivated doctor can be restored within 30 days only; this period is over' });
    expect(await statusOf(org.doctorB.id)).toBe('DISABLED');
    expect((await auditActions(testDb.ownerUrl, org.doctorB.id)).map((row) => row.action)).toEqual(['STAFF_DISABLED']);
    const restore = await call(app, token, 'PUT', `/account/admin/deactivated-doctors/${org.doctorB.id}/restore`);
    expect(restore.json()).toMatchObject({ code: 'doctor.restorePeriodOver' });
    expect(await statusOf(org.doctorB.id)).toBe('DISABLED');
    expect((await enable(token, assistant.id)).json()).toMatchObject({ data: { status: 'ACTIVE' } });
  });

  it('refuses to disable oneself or a center’s main admin, and bad durations', async () => {
    const org = await organisation(testDb);
    await testDb.database.withTenant(org.tenant.id, (tx) => tx.insert(centerAdmins).values({ tenantId: org.tenant.id, centerId: org.centerA.id, userId: org.adminA.id, kind: 'MAIN' }));
    const token = await logInAs(app, org.tenant.code, org.admin);
    const self = await disable(token, org.admin.id, { duration: 'THREE_DAYS' });
    expect(self.json()).toMatchObject({ code: 'staff.cannotDisableSelf', message: 'You cannot disable your own account' });
    const main = await disable(token, org.adminA.id, { duration: 'THREE_DAYS' });
    expect(main.statusCode).toBe(409);
    expect(main.json()).toMatchObject({ code: 'staff.mainAdminLocked' });
    expect((await disable(token, org.doctorA.id, { duration: 'FOREVER' })).json()).toMatchObject({ code: 'common.invalidParameter' });
    for (const id of [org.admin.id, org.adminA.id, org.doctorA.id]) expect(await statusOf(id)).toBe('ACTIVE');
  });

  it('answers 404 for another tenant’s or another center’s staff and 403 without staff.disable, changing nothing', async () => {
    const org = await organisation(testDb);
    const outsider = await organisation(testDb);
    const doctorToken = await logInAs(app, org.tenant.code, org.doctorA);
    for (const token of [await logInAs(app, outsider.tenant.code, outsider.admin), await logInAs(app, org.tenant.code, org.adminB)]) {
      expect((await disable(token, org.doctorA.id, { duration: 'THREE_DAYS' })).statusCode).toBe(404);
      expect((await enable(token, org.doctorA.id)).statusCode).toBe(404);
    }
    const operator = await createTenantUser(testDb.database, org.tenant.id, { role: 'OPERATOR' });
    const refused = await disable(await logInAs(app, org.tenant.code, operator), org.doctorA.id, { duration: 'THREE_DAYS' });
    expect(refused.statusCode).toBe(403);
    expect(await statusOf(org.doctorA.id)).toBe('ACTIVE');
    expect((await call(app, doctorToken, 'GET', '/auth/check-token')).statusCode).toBe(200);
    expect(await auditActions(testDb.ownerUrl, org.doctorA.id)).toEqual([]);
  });

  it('lets a center’s admin disable their center’s staff; platform staff only by a super admin', async () => {
    const org = await organisation(testDb);
    const tokenA = await logInAs(app, org.tenant.code, org.adminA);
    expect((await disable(tokenA, org.doctorA.id, { duration: 'TWO_WEEKS' })).statusCode).toBe(200);

    const superAdmin = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const systemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    const otherSystemAdmin = await createPlatformUser(testDb.database, { role: 'SYSTEM_ADMIN' });
    await testDb.database.system.insert(platformStaffTenants).values({ userId: otherSystemAdmin.id, tenantId: org.tenant.id });
    const systemToken = await logInAs(app, org.tenant.code, otherSystemAdmin);
    expect((await disable(systemToken, systemAdmin.id, { duration: 'THREE_DAYS' })).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await disable(await logInAs(app, org.tenant.code, org.admin), systemAdmin.id, { duration: 'THREE_DAYS' })).statusCode).toBe(404);
    const superToken = await logInAs(app, org.tenant.code, superAdmin);
    expect((await disable(superToken, systemAdmin.id, { duration: 'THREE_DAYS' })).json()).toMatchObject({ data: { status: 'DISABLED', isPlatformStaff: true } });
    expect(await statusOf(systemAdmin.id)).toBe('DISABLED');
  });
});
