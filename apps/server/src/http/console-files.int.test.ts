import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';

let testDb: TestDatabase;
let consoleDir: string;
let app: FastifyInstance;

const MANIFEST = JSON.stringify({
  'src/features/patients/patient-profile-page.tsx': { file: 'assets/app.js' },
});

beforeAll(async () => {
  testDb = await createTestDatabase();
  consoleDir = mkdtempSync(path.join(tmpdir(), 'rpm-console-'));
  mkdirSync(path.join(consoleDir, 'assets'));
  mkdirSync(path.join(consoleDir, '.vite'));
  writeFileSync(
    path.join(consoleDir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(consoleDir, 'assets', 'app.js'), 'console.log("console");\n');
  writeFileSync(path.join(consoleDir, '.vite', 'manifest.json'), MANIFEST);
  app = await createTestApp(testDb.database, { consoleDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  rmSync(consoleDir, { recursive: true, force: true });
});

describe('console files', () => {
  it('serve the built assets', async () => {
    const script = await app.inject({ url: '/assets/app.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('console.log');
  });

  it('answer 404 for a built file that is gone, not the console page (a tab opened before a deploy)', async () => {
    for (const url of ['/assets/devices-page-Old1hash.js', '/assets/index-Old1hash.css']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'common.routeNotFound' });
    }
    // A client-side route still gets the console page.
    const page = await app.inject({ url: '/doctor/patients' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });

  it("never serve the build's manifest (it lists every module's source path)", async () => {
    for (const url of ['/.vite/manifest.json', '/%2Evite/manifest.json', '/assets/../.vite/manifest.json']) {
      const response = await app.inject({ url });
      expect(response.body, url).not.toContain('patient-profile-page');
    }
  });
});
