import type { RoleCode } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../../test/factories.js';

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

interface HistoryPage {
  items: { id: string; action: string; subjectUserId: string; actorUserId: string | null; occurredAt: string; details: Record<string, unknown> }[];
  page: number;
  size: number;
  total: number;
}

async function member(tenantId: string, code: string, role: RoleCode) {
  const user = await createTenantUser(testDb.database, tenantId, { role });
  return { user, token: await logIn(app, code, user.email ?? '') };
}

/** A user with a login and three account changes in their history (four entries in all). */
async function userWithHistory(role: RoleCode = 'DOCTOR') {
  const tenant = await createTenant(testDb.database);
  const { user, token } = await member(tenant.id, tenant.code, role);
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload, ...withSession(token) });
  await post('/account/me/profile/update-language', { lang: 'vi' });
  await post('/account/me/profile/update-time-zone', { tz: 'Asia/Bangkok' });
  await post('/account/me/profile/update-language', { lang: 'en' });
  return { tenant, user, token };
}

const history = (token: string, query: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/account/log/history', query, ...withSession(token) });

describe('GET /account/log/history', () => {
  it('pages through the caller’s own history, newest first', async () => {
    const { user, token } = await userWithHistory();
    const stored = await asOwner<{ count: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS count FROM audit_log WHERE subject_user_id = $1', [user.id]);
    expect(stored[0]?.count).toBe(4);

    const first = await history(token, { page: '0', size: '3' });
    expect(first.statusCode).toBe(200);
    const firstPage = first.json<{ data: HistoryPage }>().data;
    expect(firstPage).toMatchObject({ page: 0, size: 3, total: 4 });
    expect(firstPage.items.map((item) => item.action)).toEqual(['ACCOUNT_LANGUAGE_UPDATED', 'ACCOUNT_TIME_ZONE_UPDATED', 'ACCOUNT_LANGUAGE_UPDATED']);
    expect(firstPage.items[0]).toMatchObject({ subjectUserId: user.id, actorUserId: user.id, details: { language: 'en' } });

    const second = (await history(token, { page: '1', size: '3' })).json<{ data: HistoryPage }>().data;
    expect(second.items.map((item) => item.action)).toEqual(['ACCOUNT_LOGIN']);
    const beyond = (await history(token, { page: '5', size: '3' })).json<{ data: HistoryPage }>().data;
    expect(beyond).toMatchObject({ items: [], total: 4 });
  });

  it('filters by action and by time', async () => {
    const { token } = await userWithHistory();
    const languages = (await history(token, { action: 'ACCOUNT_LANGUAGE_UPDATED' })).json<{ data: HistoryPage }>().data;
    expect(languages.total).toBe(2);
    const future = (await history(token, { from: new Date(Date.now() + 60_000).toISOString() })).json<{ data: HistoryPage }>().data;
    expect(future.total).toBe(0);
  });

  it('never shows entries about someone else', async () => {
    const mine = await userWithHistory();
    const { token: neighbourToken } = await member(mine.tenant.id, mine.tenant.code, 'DOCTOR');
    const page = (await history(neighbourToken)).json<{ data: HistoryPage }>().data;
    expect(page.total).toBe(1);
    expect(page.items.every((item) => item.subjectUserId !== mine.user.id)).toBe(true);
  });

  it('refuses bad paging with field errors', async () => {
    const { token } = await userWithHistory();
    const queries: Record<string, string>[] = [{ page: '-1' }, { size: '0' }, { size: '101' }, { page: 'x' }];
    for (const query of queries) {
      const response = await history(token, query);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'common.invalidParameter' });
    }
  });

  describe('another account’s history (userId)', () => {
    it('is shown to staff with staff.view for a user of the acting tenant', async () => {
      const subject = await userWithHistory();
      const admin = await member(subject.tenant.id, subject.tenant.code, 'ADMIN');
      const response = await history(admin.token, { userId: subject.user.id, size: '10' });
      expect(response.statusCode).toBe(200);
      const page = response.json<{ data: HistoryPage }>().data;
      expect(page.total).toBe(4);
      expect(page.items.every((item) => item.subjectUserId === subject.user.id)).toBe(true);
    });

    it('is refused to a role without staff.view, who still sees their own through userId', async () => {
      const subject = await userWithHistory();
      const doctor = await member(subject.tenant.id, subject.tenant.code, 'DOCTOR');
      const refused = await history(doctor.token, { userId: subject.user.id });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'auth.permissionDenied' });
      const own = await history(doctor.token, { userId: doctor.user.id });
      expect(own.statusCode).toBe(200);
      expect(own.json<{ data: HistoryPage }>().data.items.every((item) => item.subjectUserId === doctor.user.id)).toBe(true);
    });

    it('follows the role hierarchy: only an account ranked strictly below the caller; an unseen one is an unknown id', async () => {
      const tenant = await createTenant(testDb.database);
      const centerA = await createHealthCenter(testDb.database, tenant.id, 'Center A');
      const centerB = await createHealthCenter(testDb.database, tenant.id, 'Center B');
      const at = (role: RoleCode, healthCenterId: string) => createTenantUser(testDb.database, tenant.id, { role, healthCenterId });
      const mainAdmin = await at('MAIN_ADMIN', centerA.id);
      const supportAdmin = await at('SUPPORT_ADMIN', centerA.id);
      const otherSupportAdmin = await at('SUPPORT_ADMIN', centerA.id);
      const doctorB = await at('DOCTOR', centerB.id);
      const mainToken = await logIn(app, tenant.code, mainAdmin.email ?? '');
      const supportToken = await logIn(app, tenant.code, supportAdmin.email ?? '');

      // Above the caller, and at its own rank: refused like the other hierarchy checks.
      for (const target of [mainAdmin, otherSupportAdmin]) {
        const refused = await history(supportToken, { userId: target.id });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'role.rankTooHigh' });
      }
      // Below the caller: shown.
      const allowed = await history(mainToken, { userId: supportAdmin.id });
      expect(allowed.statusCode).toBe(200);
      const page = allowed.json<{ data: HistoryPage }>().data;
      expect(page.total).toBeGreaterThan(0);
      expect(page.items.every((item) => item.subjectUserId === supportAdmin.id)).toBe(true);
      // One's own, always.
      expect((await history(supportToken, { userId: supportAdmin.id })).statusCode).toBe(200);
      // An account of a center the caller does not see answers exactly like an id that does not exist.
      const bodyOf = (response: Awaited<ReturnType<typeof history>>) => {
        const { requestId: _requestId, ...rest } = response.json<{ requestId?: string }>();
        return { status: response.statusCode, ...rest };
      };
      const unseen = await history(supportToken, { userId: doctorB.id });
      const unknown = await history(supportToken, { userId: uuidv7() });
      expect(bodyOf(unseen)).toMatchObject({ status: 404, code: 'account.notFound' });
      expect(bodyOf(unseen)).toEqual(bodyOf(unknown));
    });

    it('audits a history that names patients as a read of them, and one that names none not at all', async () => {
      const tenant = await createTenant(testDb.database);
      const admin = await member(tenant.id, tenant.code, 'ADMIN');
      const patientAccount = await member(tenant.id, tenant.code, 'PATIENT');
      const patient = await createPatient(testDb.database, tenant.id, { userId: patientAccount.user.id });
      const doctor = await member(tenant.id, tenant.code, 'DOCTOR');
      const readsOf = (response: { headers: Record<string, unknown> }) =>
        asOwner<{ action: string; actor_user_id: string; subject_user_id: string | null; details: { patientIds?: string[] } }>(
          testDb.ownerUrl,
          'SELECT action, actor_user_id, subject_user_id, details FROM audit_log WHERE request_id = $1',
          [String(response.headers['x-request-id'])],
        );

      // A staff account's history of logins names no patient: nothing is written.
      const staffHistory = await history(admin.token, { userId: doctor.user.id });
      expect(staffHistory.statusCode).toBe(200);
      expect(await readsOf(staffHistory)).toEqual([]);

      // A patient account's history reveals that patient.
      const patientHistory = await history(admin.token, { userId: patientAccount.user.id });
      expect(patientHistory.statusCode).toBe(200);
      expect(await readsOf(patientHistory)).toEqual([
        { action: 'ACTIVITY_HISTORY_VIEWED', actor_user_id: admin.user.id, subject_user_id: patientAccount.user.id, details: { patientIds: [patient.id] } },
      ]);

      // A staff account whose history names patients, in each way a row can: details.patientId,
      // a patient target, details.patientIds.
      const first = await createPatient(testDb.database, tenant.id);
      const second = await createPatient(testDb.database, tenant.id);
      const third = await createPatient(testDb.database, tenant.id);
      const fixture = (action: string, targetType: string | null, targetId: string | null, details: object) =>
        asOwner(
          testDb.ownerUrl,
          'INSERT INTO audit_log (tenant_id, id, action, actor_user_id, subject_user_id, target_type, target_id, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [tenant.id, uuidv7(), action, admin.user.id, doctor.user.id, targetType, targetId, JSON.stringify(details)],
        );
      await fixture('CARE_REQUEST_CREATED', 'care_request', uuidv7(), { patientId: first.id });
      await fixture('CARE_TEAM_ASSIGNED', 'patient', second.id, {});
      await fixture('PATIENT_VIEWED', 'patient', null, { patientIds: [third.id, first.id] });
      const named = [first.id, second.id, third.id].sort();
      const naming = await history(admin.token, { userId: doctor.user.id });
      const [row] = await readsOf(naming);
      expect(row).toMatchObject({ action: 'ACTIVITY_HISTORY_VIEWED', actor_user_id: admin.user.id, subject_user_id: doctor.user.id });
      expect([...(row?.details.patientIds ?? [])].sort()).toEqual(named);
      expect(await readsOf(naming)).toHaveLength(1);
      // The doctor's own history names the same patients: audited too, as no one's account history.
      const own = await history(doctor.token);
      const [ownRow] = await readsOf(own);
      expect(ownRow).toMatchObject({ action: 'ACTIVITY_HISTORY_VIEWED', actor_user_id: doctor.user.id, subject_user_id: null });
      expect([...(ownRow?.details.patientIds ?? [])].sort()).toEqual(named);
      // A page that shows none of those rows names no one.
      expect(await readsOf(await history(doctor.token, { action: 'ACCOUNT_LOGIN' }))).toEqual([]);
    });

    it('answers a user of another tenant with 404', async () => {
      const subject = await userWithHistory();
      const otherTenant = await createTenant(testDb.database);
      const admin = await member(otherTenant.id, otherTenant.code, 'ADMIN');
      const response = await history(admin.token, { userId: subject.user.id });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'account.notFound' });
    });
  });
});
