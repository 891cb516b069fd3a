import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';

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

const NEW_PASSWORD = 'Kh0ng@Doan';

async function signedInUser() {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id);
  const token = await logIn(app, tenant.code, user.email ?? '');
  return { tenant, user, token, username: user.email ?? '' };
}

const changePassword = (token: string, password: string, newPassword: string) =>
  app.inject({ method: 'POST', url: '/account/change-password', payload: { password, newPassword }, ...withSession(token) });

const passwordState = async (id: string) =>
  (await asOwner<{ password_hash: string; password_changed_at: Date | null; failed_logins: number }>(
    testDb.ownerUrl,
    'SELECT password_hash, password_changed_at, failed_logins FROM users WHERE id = $1',
    [id],
  ))[0];
const audits = (subjectId: string, action = 'ACCOUNT_PASSWORD_CHANGE_FAILED') =>
  asOwner<{ details: Record<string, unknown> }>(
    testDb.ownerUrl,
    'SELECT details FROM audit_log WHERE subject_user_id = $1 AND action = $2 ORDER BY occurred_at',
    [subjectId, action],
  );

const login = (tenant: string, username: string, password: string, clientApp = 'console') =>
  app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant, username, password, grant_type: 'password', app: clientApp } });
const checkToken = (token: string) => app.inject({ method: 'GET', url: '/auth/check-token', headers: { authorization: `Bearer ${token}` } });

describe('POST /account/change-password', () => {
  it('changes the password, ends the other sessions and keeps the current one', async () => {
    const { tenant, user, token, username } = await signedInUser();
    // A second session of the same account (a doctor), in the doctor app (tokens in the body).
    const phone = await login(tenant.code, username, TEST_PASSWORD, 'doctor');
    const phoneToken = phone.json<{ data: { accessToken: string } }>().data.accessToken;
    expect((await checkToken(phoneToken)).statusCode).toBe(200);
    const before = await passwordState(user.id);

    const response = await changePassword(token, TEST_PASSWORD, NEW_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ resultCode: 200, data: null });

    const after = await passwordState(user.id);
    expect(after?.password_hash).not.toBe(before?.password_hash);
    expect(after?.password_hash).toMatch(/^\$argon2id\$/);
    expect(after?.password_changed_at).toBeInstanceOf(Date);

    const other = await checkToken(phoneToken);
    expect(other.statusCode).toBe(401);
    expect(other.json()).toMatchObject({ code: 'auth.unauthorized' });
    const current = await app.inject({ method: 'GET', url: '/account/me/profile/get', ...withSession(token) });
    expect(current.statusCode).toBe(200);

    expect((await login(tenant.code, username, TEST_PASSWORD)).json()).toMatchObject({ code: 'auth.wrongCredentials' });
    expect((await login(tenant.code, username, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await audits(user.id, 'ACCOUNT_PASSWORD_CHANGED')).toEqual([{ details: { outcome: 'changed' } }]);
    expect(await audits(user.id)).toEqual([]);
  });

  it('refuses a wrong current password, audits the attempt and does not count it toward the lock', async () => {
    const { user, token } = await signedInUser();
    const before = await passwordState(user.id);
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await changePassword(token, 'Wrong@1234', NEW_PASSWORD);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'password.wrongCurrent', message: 'Wrong current password' });
    }
    expect(await passwordState(user.id)).toEqual(before);
    expect(before?.failed_logins).toBe(0);
    expect(await audits(user.id)).toHaveLength(6);
    expect((await audits(user.id))[0]).toEqual({ details: { reason: 'wrong_current' } });
    // Still signed in, and the account is not locked.
    expect((await checkToken(token)).statusCode).toBe(200);
  });

  const refused: [string, string, string][] = [
    ['the same password as now', TEST_PASSWORD, 'password.sameAsOld'],
    ['a weak password', 'abcdefgh', 'password.tooWeak'],
    ['a too short password', 'Ab1@', 'password.tooWeak'],
    ['characters outside the allowed set', 'Abcd@1234~', 'password.invalidCharacters'],
    ['a common password', 'Password1!', 'password.common'],
  ];
  it.each(refused)('refuses %s and changes nothing', async (_name, newPassword, code) => {
    const { user, token } = await signedInUser();
    const before = await passwordState(user.id);
    const response = await changePassword(token, TEST_PASSWORD, newPassword);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code });
    expect(await passwordState(user.id)).toEqual(before);
    expect(await audits(user.id, 'ACCOUNT_PASSWORD_CHANGED')).toHaveLength(0);
  });

  it('answers the weak-password rule with the spec’s message and a field error', async () => {
    const { token } = await signedInUser();
    const response = await changePassword(token, TEST_PASSWORD, 'short');
    expect(response.json()).toMatchObject({
      code: 'password.tooWeak',
      message: expect.stringContaining('8 to 32 characters') as unknown,
      fieldErrors: expect.arrayContaining([expect.objectContaining({ field: 'body.newPassword', code: 'tooShort' })]) as unknown,
    });
  });

  it('refuses a blank body with field errors, and needs a session', async () => {
    const { token } = await signedInUser();
    const blank = await app.inject({ method: 'POST', url: '/account/change-password', payload: { password: '' }, ...withSession(token) });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field).sort()).toEqual(['body.newPassword', 'body.password']);
    const anonymous = await app.inject({ method: 'POST', url: '/account/change-password', payload: { password: TEST_PASSWORD, newPassword: NEW_PASSWORD } });
    expect(anonymous.statusCode).toBe(401);
  });
});
