import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../../test/factories.js';
import { DAY, HOUR, ManualClock, MINUTE } from '../../lib/clock.js';

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

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

async function appLogin(rememberMe = false): Promise<Tokens & { userId: string; tenantCode: string }> {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' });
  const response = await app.inject({
    method: 'POST',
    url: '/auth/oauth-token',
    payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password', app: 'patient', remember_me: rememberMe },
  });
  return { ...response.json<{ data: Tokens }>().data, userId: user.id, tenantCode: tenant.code };
}

const refresh = (refreshToken: string) => app.inject({ method: 'POST', url: '/auth/refresh-token', payload: { refresh_token: refreshToken } });
const check = (accessToken: string) => app.inject({ url: '/auth/check-token', headers: { authorization: `Bearer ${accessToken}` } });
const tokensOf = (response: LightMyRequestResponse) => response.json<{ data: Tokens }>().data;

describe('access tokens and refresh rotation', () => {
  it('expires the access token after 15 minutes; refreshing gives a new pair that works', async () => {
    const session = await appLogin();
    expect((await check(session.accessToken)).statusCode).toBe(200);
    clock.advance(15 * MINUTE + 1000);
    const expired = await check(session.accessToken);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'auth.sessionExpired' });

    const refreshed = await refresh(session.refreshToken);
    expect(refreshed.statusCode).toBe(200);
    const next = tokensOf(refreshed);
    expect(next.accessToken).not.toBe(session.accessToken);
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect((await check(next.accessToken)).statusCode).toBe(200);
  });

  it('refuses a refresh token used twice and ends the whole session family', async () => {
    const session = await appLogin();
    const first = tokensOf(await refresh(session.refreshToken));
    const replay = await refresh(session.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'auth.refreshInvalid' });
    // The legitimate holder's newer tokens are dead too: the family is ended.
    expect((await check(first.accessToken)).statusCode).toBe(401);
    expect((await refresh(first.refreshToken)).statusCode).toBe(401);
    const audit = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE subject_user_id = $1 AND action = 'ACCOUNT_REFRESH_REUSED'`, [session.userId]);
    expect(audit).toHaveLength(1);
  });

  it('lets exactly one of two simultaneous refreshes with the same token win', async () => {
    const session = await appLogin();
    const results = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(results.filter((response) => response.statusCode === 200).length).toBeLessThanOrEqual(1);
    expect(results.some((response) => response.statusCode === 401)).toBe(true);
  });

  it('stops refreshing when the session ends (12 hours, or 30 days with remember me)', async () => {
    const short = await appLogin(false);
    const long = await appLogin(true);
    clock.advance(12 * HOUR + 1000);
    expect((await refresh(short.refreshToken)).json()).toMatchObject({ code: 'auth.sessionExpired' });
    const stillGoing = tokensOf(await refresh(long.refreshToken));
    clock.advance(30 * DAY);
    expect((await refresh(stillGoing.refreshToken)).json()).toMatchObject({ code: 'auth.sessionExpired' });
  });

  it('answers "logged in somewhere else" to the refresh of a replaced session', async () => {
    const session = await appLogin();
    const [user] = await asOwner<{ email: string }>(testDb.ownerUrl, 'SELECT email FROM users WHERE id = $1', [session.userId]);
    await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: session.tenantCode, username: user?.email, password: TEST_PASSWORD, grant_type: 'password', app: 'patient' } });
    const response = await refresh(session.refreshToken);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'auth.loggedInElsewhere' });
  });

  it('refreshes the console through its cookies, with the refresh cookie scoped to /auth', async () => {
    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id);
    const login = await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' } });
    const refreshCookie = login.cookies.find((cookie) => cookie.name === 'rpm_refresh');
    expect(refreshCookie).toMatchObject({ path: '/auth', httpOnly: true, sameSite: 'Strict' });
    expect(login.json<{ data: Record<string, unknown> }>().data).not.toHaveProperty('refreshToken');
    const refreshed = await app.inject({ method: 'POST', url: '/auth/refresh-token', cookies: { rpm_refresh: refreshCookie?.value ?? '' } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.cookies.map((cookie) => cookie.name).sort()).toEqual(['rpm_refresh', 'rpm_session']);
  });

  it('refuses a missing or forged refresh token', async () => {
    expect((await app.inject({ method: 'POST', url: '/auth/refresh-token' })).json()).toMatchObject({ code: 'auth.refreshInvalid' });
    expect((await refresh('forged')).statusCode).toBe(401);
  });
});
