import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser } from '../../../test/factories.js';
import { PNG, dataOf, filesUnder, multipart, organisation, sendForm } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-manage-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** A tenant, its super admin acting in it, a main admin to assign and a scope. */
async function setUp() {
  const org = await organisation(testDb, app);
  const staff = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
  const token = await logIn(app, org.tenant.code, staff.email ?? '');
  const main = await org.userWith('MAIN_ADMIN');
  const scope = await org.insertScope('Province', 1);
  return { org, token, main, scope };
}

const centersOf = async (tenantId: string) =>
  (await asOwner<{ id: string; name: string; scope_id: string | null; logo_file: string | null }>(testDb.ownerUrl, 'SELECT id, name, scope_id, logo_file FROM health_centers WHERE tenant_id = $1', [tenantId]));

describe('manage: health centers addressed by tenant name', () => {
  it('creates, moves and reads a center of the tenant the super admin acts in, auditing the changes', async () => {
    const { org, token, main, scope } = await setUp();
    const created = await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name.toUpperCase(), name: 'Hue Clinic', scope, mainAdminId: main.id }, token });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ data: { name: 'Hue Clinic', scope: { id: scope }, mainAdmin: { userId: main.id } } });

    const moved = await org.call({ method: 'PUT', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'hue clinic', scope: null }, token });
    expect(moved.json()).toMatchObject({ data: { name: 'Hue Clinic', scope: null } });
    const detail = await org.call({ url: `/manage/sadmin/center/detail?tenantName=${encodeURIComponent(org.tenant.name)}&name=HUE%20CLINIC`, token });
    expect(detail.json()).toMatchObject({ data: { name: 'Hue Clinic', mainAdmin: { userId: main.id } } });

    const actions = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE tenant_id = $1 AND target_type = 'health_center' ORDER BY occurred_at, id`, [org.tenant.id]);
    expect(actions.map((row) => row.action)).toEqual(['CENTER_CREATED', 'CENTER_UPDATED']);
  });

  it('answers "wrong tenant" for any tenant but the acting one, and refuses duplicates, storing nothing', async () => {
    const { org, token, main } = await setUp();
    const other = await organisation(testDb, app);
    const elsewhere = await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: other.tenant.name, name: 'Sneaky', scope: null, mainAdminId: main.id }, token });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ code: 'tenant.notFound' });
    expect(await centersOf(other.tenant.id)).toEqual([]);
    expect(await centersOf(org.tenant.id)).toEqual([]);

    await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'Only once', mainAdminId: main.id }, token });
    const duplicate = await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'ONLY ONCE', mainAdminId: main.id }, token });
    expect(duplicate.json()).toMatchObject({ code: 'center.nameExists' });
    expect((await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'No admin' }, token })).statusCode).toBe(400);
    expect((await org.call({ url: `/manage/sadmin/center/detail?tenantName=${encodeURIComponent(org.tenant.name)}&name=Nowhere`, token })).json()).toMatchObject({ code: 'center.notFound' });
    const theirScope = await other.insertScope('Theirs', 1);
    const move = await org.call({ method: 'PUT', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'Only once', scope: theirScope }, token });
    expect(move.json()).toMatchObject({ code: 'scope.notFound' });
    expect((await centersOf(org.tenant.id)).map((center) => [center.name, center.scope_id])).toEqual([['Only once', null]]);
  });

  it('uploads a logo for a center found by name: PNG accepted, other types 415, too large 413', async () => {
    const { org, token, main } = await setUp();
    await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'Logo House', mainAdminId: main.id }, token });
    const url = `/manage/sadmin/center/upload-logo?tenantName=${encodeURIComponent(org.tenant.name)}&name=Logo%20House`;
    const upload = (content: Buffer | string) => sendForm(app, token, 'POST', url, multipart([{ name: 'file', filename: 'logo.png', contentType: 'image/png', content }]));

    const refused = await upload('%PDF-1.7 not an image');
    expect(refused.statusCode).toBe(415);
    const tooLarge = await upload(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'file.tooLarge' });
    expect(await filesUnder(dataDir)).toEqual([]);

    const accepted = await upload(PNG);
    expect(accepted.json()).toMatchObject({ data: { name: 'Logo House', hasLogo: true } });
    const [center] = await centersOf(org.tenant.id);
    const logo = await org.call({ url: `/account/sadmin/mhsc/${center?.id ?? ''}/logo` });
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect(await filesUnder(dataDir)).toHaveLength(1);
    expect((await sendForm(app, token, 'POST', url.replace('Logo%20House', 'Missing'), multipart([{ name: 'file', filename: 'a.png', content: PNG }]))).statusCode).toBe(404);
    expect(await filesUnder(dataDir)).toHaveLength(1);
  });

  it('is refused to a role without the permission (403)', async () => {
    const { org, main } = await setUp();
    const doctorToken = await org.logInAs(await org.userWith('DOCTOR'));
    const response = await org.call({ method: 'POST', url: '/manage/sadmin/center', payload: { tenantName: org.tenant.name, name: 'Nope', mainAdminId: main.id }, token: doctorToken });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect(dataOf<unknown[]>(await org.call({ url: '/manage/scope/all', token: doctorToken }))).toHaveLength(1);
    expect(await centersOf(org.tenant.id)).toEqual([]);
  });
});
