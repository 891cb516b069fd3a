import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, logIn, withSession } from '../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createTenant, createTenantUser, TEST_PASSWORD } from '../../test/factories.js';
import { SESSION_COOKIE } from './access.js';
import { CSP_NONCE_PLACEHOLDER } from './security-headers.js';

let testDb: TestDatabase;
let consoleDir: string;
let app: FastifyInstance;
let tenant: { id: string; code: string };

const INDEX_HTML = `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}" />
<link rel="stylesheet" href="/assets/app.css" nonce="${CSP_NONCE_PLACEHOLDER}" /></head>
<body><div id="root"></div><script type="module" src="/assets/app.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script></body></html>`;

beforeAll(async () => {
  testDb = await createTestDatabase();
  consoleDir = mkdtempSync(path.join(tmpdir(), 'rpm-console-'));
  mkdirSync(path.join(consoleDir, 'assets'));
  writeFileSync(path.join(consoleDir, 'index.html'), INDEX_HTML);
  writeFileSync(
    path.join(consoleDir, 'assets', 'app.js'),
    'console.log("console");\n//# sourceMappingURL=app.js.map\n',
  );
  writeFileSync(
    path.join(consoleDir, 'assets', 'app.js.map'),
    '{"version":3,"sources":["secret.tsx"],"mappings":""}',
  );
  app = await createTestApp(testDb.database, { consoleDir });
  tenant = await createTenant(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  rmSync(consoleDir, { recursive: true, force: true });
});

/** The CSP directives of an answer, by name. */
function policyOf(header: unknown): Map<string, string> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  const permissions = String(headers['permissions-policy']);
  for (const denied of ['geolocation=()', 'payment=()', 'usb=()']) expect(permissions).toContain(denied);
  for (const sameOrigin of ['camera=(self)', 'microphone=(self)']) expect(permissions).toContain(sameOrigin);
  const policy = policyOf(headers['content-security-policy']);
  expect(policy.get('object-src')).toBe("'none'");
  expect(policy.get('base-uri')).toBe("'none'");
  expect(policy.get('frame-ancestors')).toBe("'none'");
  expect(policy.get('form-action')).toBe("'self'");
  expect(policy.get('script-src')).toBe("'self'");
}

describe('security headers', () => {
  it('let the patient app (and only it) ask for the phone’s location, for its SOS', async () => {
    for (const url of ['/app/', '/app/notifications']) {
      const permissions = String((await app.inject({ url })).headers['permissions-policy']);
      expect(permissions).toContain('geolocation=(self)');
      expect(permissions).toContain('usb=()');
    }
    for (const url of ['/application', '/healthz', '/login']) {
      expect(String((await app.inject({ url })).headers['permissions-policy'])).toContain('geolocation=()');
    }
  });

  it('are on API answers, successful or not', async () => {
    for (const url of ['/healthz', '/auth/check-token', '/account/no-such-route']) {
      const response = await app.inject({ url, headers: { host: 'rpm.example.com' } });
      expectCommonHeaders(response.headers);
      const policy = policyOf(response.headers['content-security-policy']);
      expect(policy.get('default-src')).toBe("'self'");
      expect(policy.get('connect-src')).toBe("'self' ws://rpm.example.com wss://rpm.example.com");
      expect(policy.get('img-src')).toBe("'self' data: blob:");
      // Frames only of blob: URLs (a medical record's PDF the console fetched), never of pages.
      expect(policy.get('frame-src')).toBe('blob:');
      expect(policy.get('font-src')).toBe("'self' data:");
    }
  });

  it('give the console index a strict policy with a fresh nonce for its style elements', async () => {
    const nonces = new Set<string>();
    for (const url of ['/', '/index.html', '/doctor/patients', '/assets/']) {
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expectCommonHeaders(response.headers);
      const policy = policyOf(response.headers['content-security-policy']);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy.get('style-src') ?? '')?.[1] ?? '';
      expect(nonce).toHaveLength(24);
      expect(policy.get('style-src')).toBe(`'self' 'nonce-${nonce}'`);
      expect(policy.has('style-src-attr')).toBe(false);
      expect(response.headers['content-security-policy']).not.toContain('unsafe');
      expect(policy.get('connect-src')).toBe("'self' ws://localhost:80 wss://localhost:80");
      expect(response.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(response.body.split(`nonce="${nonce}"`)).toHaveLength(4);
      expect(response.headers.etag).toBeUndefined();
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
  });

  it('serve console files with the headers and never a source map', async () => {
    const script = await app.inject({ url: '/assets/app.js' });
    expect(script.statusCode).toBe(200);
    expectCommonHeaders(script.headers);
    for (const url of ['/assets/app.js.map', '/assets/app.js.map?v=1', '/assets/missing.js.map']) {
      const map = await app.inject({ url });
      expect(map.statusCode).toBe(404);
      expect(map.json()).toMatchObject({ code: 'common.routeNotFound' });
      expect(map.body).not.toContain('secret.tsx');
      expectCommonHeaders(map.headers);
    }
  });

  it('give the API docs their own policy, and the docs page still loads', async () => {
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    expectCommonHeaders(page.headers);
    expect(policyOf(page.headers['content-security-policy']).get('style-src')).toBe("'self' 'unsafe-inline'");
    const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
  });

  it('send HSTS only where cookies are Secure', async () => {
    const hsts = 'max-age=31536000; includeSubDomains';
    const auto = await createTestApp(testDb.database, { consoleDir, cookieSecure: 'auto' });
    const always = await createTestApp(testDb.database, { consoleDir, cookieSecure: true });
    try {
      for (const url of ['/healthz', '/']) {
        expect(
          (await auto.inject({ url, headers: { host: 'rpm.example.com' } })).headers[
            'strict-transport-security'
          ],
        ).toBe(hsts);
        for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
          expect(
            (await auto.inject({ url, headers: { host } })).headers['strict-transport-security'],
          ).toBeUndefined();
        }
        expect(
          (await always.inject({ url, headers: { host: 'localhost:8080' } })).headers[
            'strict-transport-security'
          ],
        ).toBe(hsts);
        expect(
          (await app.inject({ url, headers: { host: 'rpm.example.com' } })).headers[
            'strict-transport-security'
          ],
        ).toBeUndefined();
      }
    } finally {
      await auto.close();
      await always.close();
    }
  });
});

describe('session cookies', () => {
  async function loginCookies(target: FastifyInstance, host: string) {
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
    const response = await target.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      headers: { host },
      payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' },
    });
    expect(response.statusCode).toBe(200);
    return response.cookies;
  }

  it('are Secure unless the console is on plain HTTP to localhost, or COOKIE_SECURE=false', async () => {
    const auto = await createTestApp(testDb.database, { cookieSecure: 'auto' });
    const always = await createTestApp(testDb.database, { cookieSecure: true });
    try {
      for (const cookie of await loginCookies(auto, 'rpm.example.com')) {
        expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
      }
      for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
        for (const cookie of await loginCookies(auto, host)) expect(cookie.secure).toBeUndefined();
      }
      for (const cookie of await loginCookies(always, 'localhost:8080')) expect(cookie.secure).toBe(true);
      for (const cookie of await loginCookies(app, 'rpm.example.com')) expect(cookie.secure).toBeUndefined();
    } finally {
      await auto.close();
      await always.close();
    }
  });
});

describe('origin of cookie-authenticated writes', () => {
  const languageOf = async (userId: string) =>
    (
      await asOwner<{ language: string }>(testDb.ownerUrl, 'SELECT language FROM users WHERE id = $1', [
        userId,
      ])
    )[0]?.language;

  async function signedIn() {
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
    const token = await logIn(app, tenant.code, user.email ?? '');
    return { user, token };
  }

  const setLanguage = (lang: string, request: InjectOptions) =>
    app.inject({ method: 'POST', url: '/account/me/profile/update-language', payload: { lang }, ...request });

  it('refuses a foreign, missing or null origin with 403 and changes nothing', async () => {
    const { user, token } = await signedIn();
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'https://localhost' },
      { origin: 'null' },
      { origin: undefined },
      { origin: undefined, referer: 'https://evil.example/localhost/page' },
    ]) {
      const response = await setLanguage('vi', {
        ...withSession(token),
        headers: { ...headers, 'accept-language': 'vi' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'auth.originRejected',
        message:
          'Yêu cầu này đến từ một trang web khác nên đã bị từ chối. Hãy mở bảng điều khiển tại địa chỉ của nó và thử lại',
      });
    }
    const english = await setLanguage('vi', {
      ...withSession(token),
      headers: { origin: 'https://evil.example' },
    });
    expect(english.json<{ message: string }>().message).toBe(
      'This request came from another website and was refused. Open the console at its own address and try again',
    );
    expect(await languageOf(user.id)).toBe('en');
    // A refused logout leaves the session working.
    const logout = await app.inject({
      method: 'POST',
      url: '/auth/logout',
      ...withSession(token),
      headers: { origin: 'https://evil.example' },
    });
    expect(logout.statusCode).toBe(403);
    expect((await app.inject({ url: '/auth/check-token', ...withSession(token) })).statusCode).toBe(200);
  });

  it('accepts the server’s own origin, from Origin or from the Referer, honouring the Host header', async () => {
    const { user, token } = await signedIn();
    const own = await setLanguage('vi', { ...withSession(token), headers: { origin: 'http://localhost' } });
    expect(own.statusCode).toBe(200);
    expect(await languageOf(user.id)).toBe('vi');
    const byReferer = await setLanguage('en', {
      ...withSession(token),
      headers: { origin: undefined, referer: 'http://localhost/operator/profile?tab=1' },
    });
    expect(byReferer.statusCode).toBe(200);
    expect(await languageOf(user.id)).toBe('en');
    const otherHost = await setLanguage('vi', {
      ...withSession(token),
      headers: { host: 'rpm.example.com:8443', origin: 'http://rpm.example.com:8443' },
    });
    expect(otherHost.statusCode).toBe(200);
    expect(await languageOf(user.id)).toBe('vi');
    const wrongPort = await setLanguage('en', {
      ...withSession(token),
      headers: { host: 'rpm.example.com:8443', origin: 'http://rpm.example.com' },
    });
    expect(wrongPort.statusCode).toBe(403);
    expect(await languageOf(user.id)).toBe('vi');
  });

  it('accepts an origin listed in ALLOWED_ORIGINS', async () => {
    const listed = await createTestApp(testDb.database, { allowedOrigins: ['https://console.example.com'] });
    try {
      const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
      const token = await logIn(listed, tenant.code, user.email ?? '');
      const change = (origin: string) =>
        listed.inject({
          method: 'POST',
          url: '/account/me/profile/update-language',
          payload: { lang: 'vi' },
          ...withSession(token),
          headers: { origin },
        });
      expect((await change('https://other.example.com')).statusCode).toBe(403);
      expect((await change('https://console.example.com')).statusCode).toBe(200);
      expect(await languageOf(user.id)).toBe('vi');
    } finally {
      await listed.close();
    }
  });

  it('does not check bearer-token callers or requests without the session cookie', async () => {
    const { user, token } = await signedIn();
    const bearer = await setLanguage('vi', {
      headers: { authorization: `Bearer ${token}`, origin: undefined },
    });
    expect(bearer.statusCode).toBe(200);
    expect(await languageOf(user.id)).toBe('vi');
    const both = await setLanguage('en', {
      ...withSession(token),
      headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example' },
    });
    expect(both.statusCode).toBe(200);
    const noCookie = await setLanguage('en', { headers: { origin: 'https://evil.example' } });
    expect(noCookie.json()).toMatchObject({ code: 'auth.unauthorized' });
    const login = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      headers: { origin: undefined },
      payload: { tenant: tenant.code, username: user.email, password: TEST_PASSWORD, grant_type: 'password' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('does not check reads', async () => {
    const { token } = await signedIn();
    const read = await app.inject({
      url: '/auth/check-token',
      ...withSession(token),
      headers: { origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
  });
});

describe('origin of the /ws upgrade', () => {
  let live: FastifyInstance;
  let baseUrl: string;
  let ownOrigin: string;
  beforeAll(async () => {
    live = await createTestApp(testDb.database);
    await live.listen({ host: '127.0.0.1', port: 0 });
    const address = live.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    ownOrigin = `http://127.0.0.1:${String(port)}`;
    baseUrl = `ws://127.0.0.1:${String(port)}/ws`;
  });
  afterAll(async () => {
    await live.close();
  });

  /** Opens a socket: 101 when it is accepted, else the refused upgrade's status and body. */
  function upgrade(headers: Record<string, string>, origin?: string) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(baseUrl, { headers, ...(origin === undefined ? {} : { origin }) });
      socket.once('open', () => {
        socket.close();
        resolve({ status: 101, body: '' });
      });
      socket.once('unexpected-response', (request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      socket.once('error', reject);
    });
  }

  it('refuses a cookie-authenticated upgrade from another origin or with none, accepts its own', async () => {
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'OPERATOR' });
    const token = await logIn(live, tenant.code, user.email ?? '');
    const cookie = { cookie: `${SESSION_COOKIE}=${token}` };
    for (const origin of ['https://evil.example', 'http://localhost:1', undefined]) {
      const refused = await upgrade(cookie, origin);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'auth.originRejected' });
    }
    expect((await upgrade(cookie, ownOrigin)).status).toBe(101);
    expect((await upgrade({ authorization: `Bearer ${token}` })).status).toBe(101);
    expect((await upgrade({ authorization: `Bearer ${token}` }, 'https://evil.example')).status).toBe(101);
  });
});
