import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PUBLIC_TENANT_SETTING_KEYS, TENANT_SETTING_DEFAULTS } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../test/app.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { createTenant, createTenantUser } from '../test/factories.js';
import { connectDatabase } from './db/database.js';
import { tenantSettings } from './db/schema.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let consoleDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  consoleDir = mkdtempSync(path.join(tmpdir(), 'rpm-console-'));
  mkdirSync(path.join(consoleDir, 'assets'));
  writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(consoleDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  app = await createTestApp(testDb.database, { consoleDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('health endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'up' } });
  });

  it('reports not ready with 503 when the database cannot be reached', async () => {
    const unreachable = connectDatabase('postgres://rpm_app:x@127.0.0.1:1/none');
    const isolated = await createTestApp(unreachable);
    try {
      const ready = await isolated.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not_ready', checks: { database: 'down' } });
    } finally {
      await isolated.close();
      await unreachable.close();
    }
  });

  it('reports not ready while shutting down, so load balancers stop sending traffic', async () => {
    app.isShuttingDown = true;
    try {
      expect((await app.inject('/readyz')).statusCode).toBe(503);
    } finally {
      app.isShuttingDown = false;
    }
  });
});

describe('envelope, request ids, languages', () => {
  it('answers unknown API routes under every prefix with a 404 envelope in the caller’s language', async () => {
    for (const prefix of ['/auth', '/account', '/manage', '/health', '/notification', '/collector']) {
      const response = await app.inject({ method: 'GET', url: `${prefix}/no-such-call`, headers: { 'accept-language': 'vi' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ resultCode: 500, code: 'common.routeNotFound', message: 'Địa chỉ này không tồn tại' });
    }
  });

  it('keeps a well-formed caller request id and makes one otherwise', async () => {
    const kept = await app.inject({ url: '/auth/check-token', headers: { 'x-request-id': 'trace-12345678' } });
    expect(kept.headers['x-request-id']).toBe('trace-12345678');
    const replaced = await app.inject({ url: '/auth/check-token', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.json<{ requestId: string }>().requestId).toBe(replaced.headers['x-request-id']);
  });

  it('serves Canadian English requests in English', async () => {
    const response = await app.inject({ url: '/auth/check-token', headers: { 'accept-language': 'en-CA' } });
    expect(response.json()).toMatchObject({ message: 'Please login to continue' });
  });

  it('refuses bodies over the limit with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ tenant: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'common.payloadTooLarge' });
  });
});

describe('access rules', () => {
  it('refuses to register an API route that declares no access rule', async () => {
    const strict = await createTestApp(testDb.database);
    expect(() => strict.get('/health/unguarded', () => 'open')).toThrow(/declares no access rule/);
    await strict.close();
  });

  it('answers 403 "You don’t have permission to access" when the role lacks the route’s permission', async () => {
    const guarded = await createTestApp(testDb.database);
    guarded.get('/manage/tenant-create-probe', { config: { access: 'tenant.create' } }, () => ({ resultCode: 200, data: 'allowed' }));
    const tenant = await createTenant(testDb.database);
    const doctor = await createTenantUser(testDb.database, tenant.id, { role: 'DOCTOR' });
    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    try {
      const denied = await guarded.inject({ url: '/manage/tenant-create-probe', ...withSession(await logIn(guarded, tenant.code, doctor.email ?? '')) });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ code: 'auth.permissionDenied', message: "You don't have permission to access" });
      // ADMIN has no tenant.* permission either; SUPER_ADMIN would.
      const alsoDenied = await guarded.inject({ url: '/manage/tenant-create-probe', ...withSession(await logIn(guarded, tenant.code, admin.email ?? '')) });
      expect(alsoDenied.statusCode).toBe(403);
      expect((await guarded.inject({ url: '/manage/tenant-create-probe' })).statusCode).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});

describe('tenant settings', () => {
  it('returns the caller’s tenant settings over the defaults and never the secret keys', async () => {
    const tenantA = await createTenant(testDb.database);
    const tenantB = await createTenant(testDb.database);
    await testDb.database.system.insert(tenantSettings).values([
      { tenantId: tenantA.id, key: 'COLOR', value: '#123456' },
      { tenantId: tenantA.id, key: 'OCR_PRESCRIPTION_API_KEY', value: 'secret-ocr-key' },
      { tenantId: tenantB.id, key: 'COLOR', value: '#abcdef' },
    ]);
    const user = await createTenantUser(testDb.database, tenantA.id);
    const response = await app.inject({ url: '/account/tenant/setting/getAll', ...withSession(await logIn(app, tenantA.code, user.email ?? '')) });
    const body = response.json<{ data: { tenant: { id: string }; settings: { key: string; value: string }[] } }>();
    expect(body.data.tenant.id).toBe(tenantA.id);
    const settings = Object.fromEntries(body.data.settings.map((setting) => [setting.key, setting.value]));
    expect(Object.keys(settings).sort()).toEqual([...PUBLIC_TENANT_SETTING_KEYS].sort());
    expect(settings.COLOR).toBe('#123456');
    expect(settings.LANGUAGE).toBe(TENANT_SETTING_DEFAULTS.LANGUAGE);
    expect(response.body).not.toContain('secret-ocr-key');
    expect(response.body).not.toContain('#abcdef');
  });

  it('requires a session for tenant settings', async () => {
    expect((await app.inject('/account/tenant/setting/getAll')).statusCode).toBe(401);
  });
});

describe('serving the console', () => {
  it('answers client-side routes with index.html, uncached', async () => {
    for (const url of ['/', '/login', '/doctor/patients/123']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year', async () => {
    const response = await app.inject('/assets/app-abc123.js');
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('publishes an OpenAPI 3.1 document generated from the contracts', async () => {
    const document = (await app.inject('/docs/json')).json<{ openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    expect(document.openapi).toBe('3.1.0');
    expect(document.paths['/auth/oauth-token']?.post?.responses).toHaveProperty('200');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/auth/check-token', '/manage/tenant/by-code/{code}', '/account/tenant/setting/getAll']));
  });
});
