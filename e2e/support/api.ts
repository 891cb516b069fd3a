import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_TENANT_CODE } from './harness.js';

/** A demo user's session cookie (`rpm_session=…`), signed in by password outside the browser. */
export async function sessionCookie(baseUrl: string, username: string): Promise<string> {
  const login = await fetch(`${baseUrl}/auth/oauth-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tenant: DEMO_TENANT_CODE,
      username,
      password: DEMO_PASSWORD,
      grant_type: 'password',
    }),
  });
  const session = login.headers.getSetCookie().find((value) => value.startsWith('rpm_session='));
  if (session === undefined) throw new Error(`no session for ${username}: ${String(login.status)}`);
  return session.split(';')[0] ?? '';
}

/** A call with a session cookie, from outside the browser; answers the envelope's data or throws. */
export async function callWithCookie<T>(
  baseUrl: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      cookie,
      origin: baseUrl,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: T; code?: string };
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${envelope.code ?? ''}`);
  return envelope.data;
}

/** A call from inside the page, with the session cookie of whoever is signed in there. */
export function callFromPage<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const envelope = (await response.json()) as { data: unknown; code?: string };
      if (!response.ok)
        throw new Error(`${method} ${url}: ${String(response.status)} ${envelope.code ?? ''}`);
      return envelope.data;
    },
    { method, url, body },
  ) as Promise<T>;
}
