import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
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
  const app = await buildApp({
    config: testConfig(overrides),
    database,
    logger: pino({ level: process.env.DEBUG_TEST_LOG ?? 'silent' }),
    ...(clock ? { clock } : {}),
  });
  sendSameOriginByDefault(app);
  return app;
}

/**
 * Injected requests carry the Origin a browser on the console's own page sends (cookie-
 * authenticated writes are refused without it), unless the test sets Origin or Referer itself;
 * `origin: undefined` sends none.
 */
function sendSameOriginByDefault(app: FastifyInstance): void {
  const inject = app.inject.bind(app) as (options?: InjectOptions | string, callback?: unknown) => unknown;
  const withOrigin = (options: InjectOptions | string): InjectOptions => {
    const request = typeof options === 'string' ? { url: options } : options;
    const headers: Record<string, unknown> = { ...request.headers };
    const names = Object.keys(headers).map((name) => name.toLowerCase());
    if (names.includes('origin') || names.includes('referer')) {
      const given = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
      return { ...request, headers: given as InjectOptions['headers'] };
    }
    const host = typeof headers.host === 'string' ? headers.host : (request.authority ?? 'localhost:80');
    return {
      ...request,
      headers: { ...(headers as InjectOptions['headers']), origin: new URL(`http://${host}`).origin },
    };
  };
  app.inject = ((options?: InjectOptions | string, callback?: unknown) =>
    options === undefined ? inject() : inject(withOrigin(options), callback)) as FastifyInstance['inject'];
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
