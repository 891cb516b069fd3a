import { readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantDetail } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { findPlatformTenant } from './store.js';
import { BIG_PNG, JPEG, PNG, dataOf, errorOf, filePart, multipart, staffSession, tenantSession } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
let superAdmin: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-branding-'));
  app = await createTestApp(testDb.database, { dataDir });
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', (await createTenant(testDb.database)).code)).token;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const upload = (tenantId: string, kind: string, body: ReturnType<typeof multipart>, token = superAdmin) =>
  app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenantId}/logo?kind=${kind}`, ...body, ...withSession(token) });
const filesOf = async (tenantId: string) => (await readdir(path.join(dataDir, 'files', tenantId, 'logos')).catch(() => [])).filter((name) => !name.endsWith('.part'));

describe('logos and the registration QR code', () => {
  it('stores a PNG logo, serves it publicly, and hands its URL to the tenant’s consoles', async () => {
    const tenant = await createTenant(testDb.database);
    const detail = dataOf<TenantDetail>(await upload(tenant.id, 'square', multipart([filePart('file', PNG, 'logo.bin', 'application/octet-stream')])));
    expect(detail.logos.square).toMatch(new RegExp(`^/manage/tenant/${tenant.code}/logo\\?kind=square&v=[0-9a-f]{12}$`));
    const image = await app.inject(detail.logos.square ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const { token } = await tenantSession(app, testDb, tenant, 'DOCTOR');
    const settings = dataOf<{ logos?: { square?: string; horizontal?: string } }>(await app.inject({ url: '/account/tenant/setting/getAll', ...withSession(token) }));
    expect(settings.logos).toEqual({ square: detail.logos.square });

    const qr = dataOf<TenantDetail>(await upload(tenant.id, 'qr', multipart([filePart('file', JPEG, 'qr.jpg', 'image/jpeg')])));
    expect((await app.inject(qr.logos.qr ?? '')).headers['content-type']).toBe('image/jpeg');
    // Replacing a logo removes the previous file once the new one is saved.
    const replaced = dataOf<TenantDetail>(await upload(tenant.id, 'square', multipart([filePart('file', PNG)])));
    expect(replaced.logos.square).not.toBe(detail.logos.square);
    expect(await filesOf(tenant.id)).toHaveLength(2);
    const audit = await asOwner<{ details: { kind: string } }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_BRANDING_UPDATED' ORDER BY occurred_at`, [tenant.id]);
    expect(audit.map((row) => row.details.kind)).toEqual(['square', 'qr', 'square']);
  });

  it('refuses a JPEG logo, a file over 1 MB, a missing file and an unknown kind, storing nothing', async () => {
    const tenant = await createTenant(testDb.database);
    const refused: [string, string, ReturnType<typeof multipart>, number, string][] = [
      ['JPEG as a logo', 'horizontal', multipart([filePart('file', JPEG, 'logo.png', 'image/png')]), 415, 'file.unsupportedType'],
      ['a script named .png', 'square', multipart([filePart('file', Buffer.from('<script>alert(1)</script>'), 'x.png')]), 415, 'file.unsupportedType'],
      ['a PNG over 1 MB', 'square', multipart([filePart('file', BIG_PNG)]), 413, 'file.tooLarge'],
      ['no file', 'square', multipart([{ name: 'note', content: 'none' }]), 400, 'file.missing'],
      ['another field name', 'square', multipart([filePart('logo', PNG)]), 400, 'file.missing'],
      ['an unknown kind', 'banner', multipart([filePart('file', PNG)]), 400, 'common.invalidParameter'],
    ];
    for (const [label, kind, body, status, code] of refused) {
      expect(errorOf(await upload(tenant.id, kind, body)), label).toMatchObject({ status, code });
    }
    const [row] = await asOwner<{ square: string | null; horizontal: string | null }>(testDb.ownerUrl, 'SELECT logo_square_file AS square, logo_horizontal_file AS horizontal FROM tenants WHERE id = $1', [tenant.id]);
    expect(row).toEqual({ square: null, horizontal: null });
    expect(await filesOf(tenant.id)).toEqual([]);
  });

  it('answers 404 for a tenant without the image, an unknown code and the platform tenant', async () => {
    const tenant = await createTenant(testDb.database);
    expect(errorOf(await app.inject(`/manage/tenant/${tenant.code}/logo?kind=square`)).status).toBe(404);
    expect(errorOf(await app.inject('/manage/tenant/no-such-tenant/logo?kind=square')).status).toBe(404);
    const platform = await findPlatformTenant(testDb.database.system);
    expect(errorOf(await app.inject(`/manage/tenant/${platform.code}/logo?kind=square`)).status).toBe(404);
    expect(errorOf(await upload(platform.id, 'square', multipart([filePart('file', PNG)]))).status).toBe(404);
  });

  it('is refused to a tenant admin (403)', async () => {
    const tenant = await createTenant(testDb.database);
    const { token } = await tenantSession(app, testDb, tenant, 'ADMIN');
    expect(errorOf(await upload(tenant.id, 'square', multipart([filePart('file', PNG)]), token))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    expect(await filesOf(tenant.id)).toEqual([]);
  });
});

describe('email templates', () => {
  it('shows the default, stores the tenant’s own wording per language, and audits it', async () => {
    const tenant = await createTenant(testDb.database);
    const url = `/manage/sadmin/tenant/${tenant.id}/email-template/WELCOME`;
    expect(dataOf(await app.inject({ url: `${url}?language=vi`, ...withSession(superAdmin) }))).toMatchObject({ key: 'WELCOME', language: 'vi', isDefault: true, subject: '{{tenant}}: tài khoản quản trị của bạn đã sẵn sàng' });
    const saved = await app.inject({ method: 'PUT', url: `${url}?language=en`, payload: { subject: 'Welcome to {{tenant}}', body: 'Hi {{name}}, code {{code}}: {{link}}' }, ...withSession(superAdmin) });
    expect(dataOf(saved)).toMatchObject({ isDefault: false, subject: 'Welcome to {{tenant}}' });
    expect(dataOf(await app.inject({ url: `${url}?language=vi`, ...withSession(superAdmin) }))).toMatchObject({ isDefault: true });
    const audit = await asOwner(testDb.ownerUrl, `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_EMAIL_TEMPLATE_UPDATED'`, [tenant.id]);
    expect(audit).toHaveLength(1);
  });

  it('refuses unknown placeholders, a multi-line subject, an empty body and an unknown key', async () => {
    const tenant = await createTenant(testDb.database);
    const url = `/manage/sadmin/tenant/${tenant.id}/email-template`;
    for (const [key, payload] of [
      ['WELCOME', { subject: 'Hi {{password}}', body: 'x' }],
      ['WELCOME', { subject: 'Hi\nBcc: a@b.c', body: 'x' }],
      ['WELCOME', { subject: 'Hi', body: '  ' }],
      ['NEWSLETTER', { subject: 'Hi', body: 'x' }],
    ] as const) {
      expect(errorOf(await app.inject({ method: 'PUT', url: `${url}/${key}`, payload, ...withSession(superAdmin) })), JSON.stringify(payload)).toMatchObject({ status: 400, code: 'common.invalidParameter' });
    }
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenant_email_templates WHERE tenant_id = $1', [tenant.id])).toEqual([]);
  });

  it('previews with sample values, escaping everything in the HTML rendering', async () => {
    const tenant = await createTenant(testDb.database, { name: 'Clinic <b>&</b>' });
    const preview = dataOf<{ subject: string; text: string; html: string }>(
      await app.inject({
        method: 'POST',
        url: `/manage/sadmin/tenant/${tenant.id}/email-template/PASSWORD_RESET/preview?language=en`,
        payload: { body: '<i>{{tenant}}</i> {{code}}\nbye' },
        ...withSession(superAdmin),
      }),
    );
    expect(preview.subject).toBe('Clinic <b>&</b>: reset your password');
    expect(preview.text).toBe('<i>Clinic <b>&</b></i> 123456\nbye');
    expect(preview.html).toBe('&lt;i&gt;Clinic &lt;b&gt;&amp;&lt;/b&gt;&lt;/i&gt; 123456<br>\nbye');
  });
});
