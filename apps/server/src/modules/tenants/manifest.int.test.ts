import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { tenantSettings } from '../../db/schema.js';
import { ManualClock } from '../../lib/clock.js';
import { DEFAULT_APP_ICONS, type TenantManifest } from './manifest.js';
import { TENANT_LOOKUP_THROTTLE } from './service.js';
import { PNG, filePart, multipart, staffSession } from './test-support.js';

/** The patient app installs with its tenant's name, colour and logo. */

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
const clock = new ManualClock();
let addressCount = 0;
const newAddress = () => `10.30.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`;

/** The 1×1 PNG with a header saying 48×32 (the server reads sizes from the header only). */
const WIDE_PNG = Buffer.from(PNG);
WIDE_PNG.writeUInt32BE(48, 16);
WIDE_PNG.writeUInt32BE(32, 20);

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-manifest-'));
  app = await createTestApp(testDb.database, { dataDir }, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const manifestOf = (code: string, remoteAddress = newAddress(), headers: Record<string, string> = {}) =>
  app.inject({ url: `/manage/tenant/by-code/${encodeURIComponent(code)}/manifest.webmanifest`, remoteAddress, headers });

describe('GET /manage/tenant/by-code/:code/manifest.webmanifest', () => {
  it('names a branded tenant, in its colour, with its logo at the logo’s real size', async () => {
    const tenant = await createTenant(testDb.database, { name: 'Sunrise Clinic' });
    await testDb.database.system.insert(tenantSettings).values({ tenantId: tenant.id, key: 'COLOR', value: '#AA3300' });
    const { token } = await staffSession(app, testDb, 'SUPER_ADMIN', tenant.code);
    const uploaded = await app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenant.id}/logo?kind=square`, ...multipart([filePart('file', WIDE_PNG)]), ...withSession(token) });
    expect(uploaded.statusCode).toBe(200);
    const logoUrl = uploaded.json<{ data: { logos: { square: string } } }>().data.logos.square;

    const response = await manifestOf(tenant.code.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.json<TenantManifest>()).toMatchObject({
      name: 'Sunrise Clinic',
      short_name: 'Sunrise Clinic',
      start_url: '/app/',
      scope: '/app/',
      display: 'standalone',
      theme_color: '#AA3300',
      icons: [{ src: logoUrl, sizes: '48x32', type: 'image/png', purpose: 'any' }, ...DEFAULT_APP_ICONS],
    });
    expect((await app.inject(logoUrl)).rawPayload.equals(WIDE_PNG)).toBe(true);

    // The same branding answers 304 to the same tag; another logo gives another tag.
    const etag = String(response.headers.etag);
    expect((await manifestOf(tenant.code, newAddress(), { 'if-none-match': etag })).statusCode).toBe(304);
    await app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenant.id}/logo?kind=square`, ...multipart([filePart('file', PNG)]), ...withSession(token) });
    const changed = await manifestOf(tenant.code, newAddress(), { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<TenantManifest>().icons[0]?.sizes).toBe('1x1');
  });

  it('gives a tenant without a logo or colour the app’s own icons and colour', async () => {
    const tenant = await createTenant(testDb.database, { name: 'Plain Clinic' });
    const manifest = (await manifestOf(tenant.code)).json<TenantManifest>();
    expect(manifest).toMatchObject({ name: 'Plain Clinic', theme_color: '#0B7285', icons: DEFAULT_APP_ICONS });
  });

  it('answers unknown, inactive and platform codes with 404, each counted as a miss of the lookup by code', async () => {
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE' });
    const tenant = await createTenant(testDb.database);
    const address = newAddress();
    for (const code of ['no-such-tenant', inactive.code, 'platform', '%%']) {
      const missed = await manifestOf(code, address);
      expect(missed.statusCode).toBe(404);
      expect(missed.json()).toMatchObject({ code: 'common.notFound' });
    }
    for (let index = 4; index < TENANT_LOOKUP_THROTTLE.misses; index++)
      expect((await app.inject({ url: `/manage/tenant/by-code/guess-${String(index)}`, remoteAddress: address })).statusCode).toBe(400);
    const refused = await manifestOf(tenant.code, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'tenant.lookupThrottled' });
    expect((await manifestOf(tenant.code)).statusCode).toBe(200);
  });
});
