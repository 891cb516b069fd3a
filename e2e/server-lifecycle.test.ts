import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/harness.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('the built server, started as a user starts it', () => {
  it('migrates, seeds the demo tenant, prints the demo logins and becomes ready', async () => {
    expect(server.output()).toContain('Demo logins (tenant "demo", password "Demo@2026")');
    expect(server.output()).toMatch(/DOCTOR\s+doctor@demo\.example/);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'up' } });
  });

  it('serves the console for page routes and the envelope for unknown API routes', async () => {
    const page = await fetch(`${server.baseUrl}/doctor/patients`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');

    const api = await fetch(`${server.baseUrl}/health/does-not-exist`, { headers: { 'accept-language': 'vi' } });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ resultCode: 500, code: 'common.routeNotFound', message: 'Địa chỉ này không tồn tại' });
  });

  it('publishes the OpenAPI 3.1 document at /docs', async () => {
    const ui = await fetch(`${server.baseUrl}/docs`);
    expect(ui.status).toBe(200);
    const document = (await (await fetch(`${server.baseUrl}/docs/json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/auth/oauth-token', '/auth/check-token', '/auth/permission', '/auth/logout', '/account/tenant/setting/getAll', '/manage/tenant/by-code/{code}', '/healthz', '/readyz']),
    );
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    const exitCode = await server.stop();
    expect(exitCode).toBe(0);
  });
});
