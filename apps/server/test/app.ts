import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import type { Clock } from '../src/lib/clock.js';
import { SESSION_COOKIE } from '../src/http/access.js';
import { TEST_PASSWORD } from './factories.js';
import { testConfig } from './test-config.js';

export async function createTestApp(
  database: Database,
  overrides: Partial<Config> = {},
  clock?: Clock,
): Promise<FastifyInstance> {
  return buildApp({
    config: testConfig(overrides),
    database,
    logger: pino({ level: process.env.DEBUG_TEST_LOG ?? 'silent' }),
    ...(clock ? { clock } : {}),
  });
}

export function sessionCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return cookie.value;
}

/** Logs in through the real endpoint and returns the session token. */
export async function logIn(
  app: FastifyInstance,
  tenant: string,
  username: string,
  password = TEST_PASSWORD,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/oauth-token',
    payload: { tenant, username, password, grant_type: 'password' },
  });
  return sessionCookieOf(response);
}

export const withSession = (token: string) => ({ cookies: { [SESSION_COOKIE]: token } });
