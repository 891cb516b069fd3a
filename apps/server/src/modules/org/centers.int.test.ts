import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, databaseErrorOf, type TestDatabase } from '../../../test/database.js';
import { createPatient } from '../../../test/factories.js';
import { PNG, dataOf, filesUnder, formOf, organisation, sendForm, type Organisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-org-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

interface CenterAnswer {
  id: string;
  name: string;
  enabled: boolean;
  hasLogo: boolean;
  mainAdmin: { userId: string } | null;
  supportAdmins: { userId: string }[];
}

/** A tenant with its admin, a MHSC admin and a support admin ready to be assigned, and a scope. */
async function setUp() {
  const org = await organisation(testDb, app);
  const main = await org.userWith('MHSC_ADMIN', { firstName: 'Hoa', lastName: 'Le' });
  const support = await org.userWith('SUPPORT_ADMIN');
  const scope = await org.insertScope('Region', 1);
  return { org, main, support, scope };
}

const validCenter = (mainAdminId: string, extra: Record<string, unknown> = {}) => ({
  name: `Clinic ${Math.random().toString(36).slice(2, 8)}`,
  type: 'CLINIC',
  representative: 'Dr. Nguyen',
  phonePrefix: '+84',
  phoneNumber: '0901234567',
  hotline: '1900',
  email: 'Contact@Clinic.example',
  website: 'https://clinic.example',
  address: '1 Trang Tien, Hanoi',
  lat: 21.02,
  lng: 105.85,
  mainAdminId,
  ...extra,
});
const createCenter = (org: Organisation, body: Record<string, unknown>, token?: string) =>
  org.call({ method: 'POST', url: '/account/sadmin/mhsc', payload: body, ...(token === undefined ? {} : { token }) });
const centerCount = async (tenantId: string) =>
  (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM health_centers WHERE tenant_id = $1', [tenantId]))[0]?.n;
const storedCenter = async (id: string) =>
  (await asOwner<{ name: string; enabled: boolean; logo_file: string | null; scope_id: string | null }>(testDb.ownerUrl, 'SELECT name, enabled, logo_file, scope_id FROM health_centers WHERE id = $1', [id]))[0];
const auditActions = async (tenantId: string) =>
  (await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE tenant_id = $1 AND target_type = 'health_center' ORDER BY occurred_at, id`, [tenantId])).map((row) => row.action);

describe('health centers (sadmin)', () => {
  it('creates a center with its admins, lists, reads and updates it, auditing each change', async () => {
    const { org, main, support, scope } = await setUp();
    const created = await createCenter(org, validCenter(main.id, { name: 'Hanoi Heart Center', scopeId: scope, supportAdminIds: [support.id] }));
    expect(created.statusCode, created.body).toBe(200);
    const center = dataOf<CenterAnswer & { id: string }>(created);
    expect(created.json()).toMatchObject({
      data: {
        name: 'Hanoi Heart Center',
        email: 'contact@clinic.example',
        lat: 21.02,
        lng: 105.85,
        enabled: true,
        scope: { id: scope, name: 'Region', level: 1 },
        mainAdmin: { userId: main.id, fullName: 'Hoa Le', role: 'MHSC_ADMIN' },
        supportAdmins: [{ userId: support.id }],
        staffCount: 0,
        patientCount: 0,
        hasLogo: false,
      },
    });

    await org.insertCenter('Saigon Eye Center');
    const list = await org.call({ url: '/account/sadmin/mhsc?page=0&size=10&searchValue=heart' });
    expect(list.json()).toMatchObject({ data: { total: 1, items: [{ id: center.id, mainAdmin: { userId: main.id } }] } });
    const child = await org.insertScope('District', 2, scope);
    const inChild = await org.insertCenter('District clinic', child);
    const byScope = dataOf<{ items: { id: string }[] }>(await org.call({ url: `/account/sadmin/mhsc?scopeId=${scope}` }));
    expect(byScope.items.map((item) => item.id).sort()).toEqual([center.id, inChild].sort());

    await createPatient(testDb.database, org.tenant.id, { healthCenterId: center.id });
    await org.userWith('DOCTOR', { healthCenterId: center.id });
    expect((await org.call({ url: `/account/sadmin/mhsc/${center.id}` })).json()).toMatchObject({ data: { staffCount: 1, patientCount: 1 } });

    const updated = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/${center.id}`, payload: { ...validCenter(main.id), name: 'Hanoi Heart Hospital', scopeId: '', mainAdminId: undefined } });
    expect(updated.json()).toMatchObject({ data: { name: 'Hanoi Heart Hospital', scope: null, mainAdmin: { userId: main.id }, supportAdmins: [{ userId: support.id }] } });
    expect(await auditActions(org.tenant.id)).toEqual(['CENTER_CREATED', 'CENTER_UPDATED']);
  });

  it('validates every field (spec §5) and stores nothing', async () => {
    const { org, main } = await setUp();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validCenter(main.id), mainAdminId: undefined }, 'body.mainAdminId'],
      [{ ...validCenter(main.id), name: '  ' }, 'body.name'],
      [validCenter(main.id, { phoneNumber: '12' }), 'body.phoneNumber'],
      [validCenter(main.id, { phoneNumber: '12345678901234567' }), 'body.phoneNumber'],
      [validCenter(main.id, { hotline: '19x0' }), 'body.hotline'],
      [validCenter(main.id, { email: 'not-an-email' }), 'body.email'],
      [validCenter(main.id, { website: 'javascript:alert(1)' }), 'body.website'],
      [validCenter(main.id, { lat: 91 }), 'body.lat'],
      [validCenter(main.id, { lng: -181 }), 'body.lng'],
      [validCenter(main.id, { supportAdminIds: [main.id] }), 'body.supportAdminIds'],
    ];
    for (const [body, field] of cases) {
      const response = await createCenter(org, body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json(), field).toMatchObject({ code: 'common.invalidParameter', fieldErrors: [{ field }] });
    }
    expect(await centerCount(org.tenant.id)).toBe(0);
  });

  it('refuses a duplicate name in any case, admins who are not admins of the tenant, and unknown scopes', async () => {
    const { org, main } = await setUp();
    await createCenter(org, validCenter(main.id, { name: 'Da Nang Clinic' }));
    const duplicate = await createCenter(org, validCenter(main.id, { name: 'DA NANG clinic' }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'center.nameExists', message: 'Health center name already exists' });

    const doctor = await org.userWith('DOCTOR');
    const disabled = await org.userWith('MHSC_ADMIN', { status: 'DISABLED' });
    const other = await organisation(testDb, app);
    for (const mainAdminId of [doctor.id, disabled.id, other.admin.id]) {
      const refused = await createCenter(org, validCenter(mainAdminId));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'center.invalidAdmin' });
    }
    expect((await createCenter(org, validCenter(main.id, { supportAdminIds: [doctor.id] }))).json()).toMatchObject({ code: 'center.invalidAdmin' });
    const noScope = await createCenter(org, validCenter(main.id, { scopeId: await other.insertScope('Theirs', 1) }));
    expect(noScope.json()).toMatchObject({ code: 'scope.notFound' });
    expect(await centerCount(org.tenant.id)).toBe(1);
    expect(await auditActions(org.tenant.id)).toEqual(['CENTER_CREATED']);
  });
});

describe('health center admins', () => {
  it('changes the main admin only through the admins call, and the database keeps one main admin', async () => {
    const { org, main, support } = await setUp();
    const center = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id, { supportAdminIds: [support.id] })));
    const swapped = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/${center.id}/admins`, payload: { mainAdminId: support.id, supportAdminIds: [main.id] } });
    expect(swapped.json()).toMatchObject({ data: { mainAdmin: { userId: support.id }, supportAdmins: [{ userId: main.id }] } });
    expect((await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/${center.id}/admins`, payload: { supportAdminIds: [main.id] } })).statusCode).toBe(400);

    // Any other writer (e.g. an admin page) that removes or demotes the main admin is refused.
    const { database } = testDb;
    const removed = await databaseErrorOf(database.withTenant(org.tenant.id, (tx) => tx.execute(sql`DELETE FROM center_admins WHERE center_id = ${center.id} AND kind = 'MAIN'`)));
    expect(removed.constraint).toBe('center_admins_main_required');
    const demoted = await databaseErrorOf(database.withTenant(org.tenant.id, (tx) => tx.execute(sql`UPDATE center_admins SET kind = 'SUPPORT' WHERE center_id = ${center.id}`)));
    expect(demoted.constraint).toBe('center_admins_main_required');
    const stored = await asOwner<{ user_id: string; kind: string }>(testDb.ownerUrl, 'SELECT user_id, kind FROM center_admins WHERE center_id = $1 ORDER BY kind', [center.id]);
    expect(stored).toEqual([{ user_id: support.id, kind: 'MAIN' }, { user_id: main.id, kind: 'SUPPORT' }]);
    expect((await auditActions(org.tenant.id)).at(-1)).toBe('CENTER_ADMINS_UPDATED');
  });
});

describe('health center status', () => {
  it('refuses to deactivate a center used by staff or patients ("Health Center is being used"), and re-enables', async () => {
    const { org, main } = await setUp();
    const staffed = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id)));
    const withPatients = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id)));
    const unused = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id)));
    await org.userWith('OPERATOR', { healthCenterId: staffed.id });
    await createPatient(testDb.database, org.tenant.id, { healthCenterId: withPatients.id });
    const deactivate = (id: string, enabled: boolean) => org.call({ method: 'PUT', url: `/account/sadmin/mhsc/deactivate/${id}?enabled=${String(enabled)}` });

    for (const center of [staffed, withPatients]) {
      const refused = await deactivate(center.id, false);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'center.inUse', message: 'Health Center is being used' });
      expect((await storedCenter(center.id))?.enabled).toBe(true);
    }
    expect((await deactivate(unused.id, false)).json()).toMatchObject({ data: { enabled: false } });
    expect((await deactivate(unused.id, true)).json()).toMatchObject({ data: { enabled: true } });
    expect((await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/deactivate/${unused.id}` })).statusCode).toBe(400);
    expect((await auditActions(org.tenant.id)).slice(-2)).toEqual(['CENTER_DEACTIVATED', 'CENTER_ACTIVATED']);
  });
});

describe('health center logos', () => {
  it('takes the center as form fields with a PNG logo, serves it back, and replaces it', async () => {
    const { org, main, support } = await setUp();
    const form = formOf({ ...validCenter(main.id, { name: 'Logo Clinic', lat: '10.5', lng: '' }), supportAdminIds: [support.id] }, [
      { name: 'logo', filename: 'logo.png', contentType: 'image/png', content: PNG },
    ]);
    const created = await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', form);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ data: { name: 'Logo Clinic', lat: 10.5, lng: null, hasLogo: true, supportAdmins: [{ userId: support.id }] } });
    const center = dataOf<CenterAnswer>(created);
    const logo = await org.call({ url: `/account/sadmin/mhsc/${center.id}/logo` });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const firstKey = (await storedCenter(center.id))?.logo_file;

    const replaced = await sendForm(app, org.token, 'PUT', `/account/sadmin/mhsc/${center.id}`, formOf(validCenter(main.id, { name: 'Logo Clinic' }), [{ name: 'logo', filename: 'new.png', content: PNG }]));
    expect(replaced.statusCode, replaced.body).toBe(200);
    const secondKey = (await storedCenter(center.id))?.logo_file;
    expect(secondKey).not.toBe(firstKey);
    expect((await filesUnder(dataDir)).filter((file) => file.includes(org.tenant.id))).toHaveLength(1);
  });

  it('refuses a file that is not an image (415) or too large (413), storing nothing', async () => {
    const { org, main } = await setUp();
    const before = await filesUnder(dataDir);
    const script = await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', formOf(validCenter(main.id), [{ name: 'logo', filename: 'logo.png', contentType: 'image/png', content: '<script>alert(1)</script>' }]));
    expect(script.statusCode).toBe(415);
    expect(script.json()).toMatchObject({ code: 'file.unsupportedType' });
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expect((await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', formOf(validCenter(main.id), [{ name: 'logo', filename: 'a.gif', content: gif }]))).statusCode).toBe(415);
    const huge = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const tooLarge = await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', formOf(validCenter(main.id), [{ name: 'logo', filename: 'big.png', content: huge }]));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'file.tooLarge' });
    const textLogo = await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', formOf({ ...validCenter(main.id), logo: 'not a file' }));
    expect(textLogo.statusCode).toBe(400);
    const cut = formOf(validCenter(main.id), [{ name: 'logo', filename: 'logo.png', content: PNG }]);
    const malformed = await sendForm(app, org.token, 'POST', '/account/sadmin/mhsc', { ...cut, payload: cut.payload.subarray(0, cut.payload.length - 40) });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'common.invalidParameter' });
    expect(await centerCount(org.tenant.id)).toBe(0);
    expect(await filesUnder(dataDir)).toEqual(before);
  });
});

describe('who may see and change a health center', () => {
  it('refuses a role without the permission (403) and a center admin on the tenant-wide calls (403)', async () => {
    const { org, main } = await setUp();
    const center = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id)));
    const doctorToken = await org.logInAs(await org.userWith('DOCTOR', { healthCenterId: center.id }));
    for (const request of [
      { url: '/account/sadmin/mhsc' },
      { url: `/account/smadmin/mhsc/${center.id}` },
      { method: 'PUT' as const, url: `/account/smadmin/mhsc/${center.id}`, payload: { name: 'Doctor renamed' } },
    ]) {
      const response = await org.call({ ...request, token: doctorToken });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'auth.permissionDenied' });
    }
    const adminToken = await org.logInAs(await org.userWith('MHSC_ADMIN', { healthCenterId: center.id }));
    expect((await createCenter(org, validCenter(main.id), adminToken)).statusCode).toBe(403);
    expect((await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/deactivate/${center.id}?enabled=false`, token: adminToken })).statusCode).toBe(403);
    const form = formOf(validCenter(main.id), [{ name: 'logo', filename: 'logo.png', content: PNG }]);
    expect((await sendForm(app, adminToken, 'POST', '/account/sadmin/mhsc', form)).statusCode).toBe(403);
    expect(await centerCount(org.tenant.id)).toBe(1);
  });

  it('gives a center admin their own center only: the other center is not found, not listed and untouched', async () => {
    const { org, main } = await setUp();
    const a = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id, { name: 'Center A' })));
    const b = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id, { name: 'Center B' })));
    const adminOfA = await org.userWith('MHSC_ADMIN', { healthCenterId: a.id });
    await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/${a.id}/admins`, payload: { mainAdminId: adminOfA.id } });
    const token = await org.logInAs(adminOfA);

    expect((await org.call({ url: `/account/smadmin/mhsc/${a.id}`, token })).json()).toMatchObject({ data: { id: a.id, mainAdmin: { userId: adminOfA.id } } });
    const edited = await org.call({ method: 'PUT', url: `/account/smadmin/mhsc/${a.id}`, payload: { name: 'Center A+', hotline: '19001234', scopeId: null }, token });
    expect(edited.json()).toMatchObject({ data: { name: 'Center A+', hotline: '19001234', mainAdmin: { userId: adminOfA.id } } });
    for (const request of [
      { url: `/account/smadmin/mhsc/${b.id}` },
      { method: 'PUT' as const, url: `/account/smadmin/mhsc/${b.id}`, payload: { name: 'Taken over' } },
    ]) {
      const response = await org.call({ ...request, token });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'center.notFound' });
    }
    expect((await org.call({ url: `/account/sadmin/mhsc/${b.id}/logo`, token })).statusCode).toBe(404);
    expect((await storedCenter(b.id))?.name).toBe('Center B');
    expect((await org.call({ method: 'PUT', url: `/account/smadmin/mhsc/${a.id}`, payload: { name: 'center b' }, token })).json()).toMatchObject({ code: 'center.nameExists' });

    const mine = dataOf<{ id: string; adminKind: string | null }[]>(await org.call({ url: '/account/smadmin/mhsc/me', token }));
    expect(mine).toEqual([expect.objectContaining({ id: a.id, adminKind: 'MAIN' })]);
    expect(dataOf<{ id: string }[]>(await org.call({ url: '/account/user/mhsc', token })).map((center) => center.id)).toEqual([a.id]);
    const check = await org.call({ url: '/account/smadmin/check-mhsc-and-scope', token });
    expect(check.json()).toEqual({ resultCode: 200, data: { hasScope: false, hasCenter: true, scopeIds: [], centerIds: [a.id] } });
    expect((await auditActions(org.tenant.id)).filter((action) => action === 'CENTER_UPDATED')).toHaveLength(1);
  });

  it('gives a doctor their own center in /user/mhsc and no scope or center of their own to administer', async () => {
    const { org, main } = await setUp();
    const center = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id, { name: 'Doctor home' })));
    await createCenter(org, validCenter(main.id, { name: 'Elsewhere' }));
    const token = await org.logInAs(await org.userWith('DOCTOR', { healthCenterId: center.id }));
    expect(dataOf<{ name: string }[]>(await org.call({ url: '/account/user/mhsc', token })).map((row) => row.name)).toEqual(['Doctor home']);
    expect((await org.call({ url: '/account/sadmin/mhsc/' + center.id + '/logo', token })).json()).toMatchObject({ code: 'common.notFound' });
  });

  it('answers 404 for another tenant’s center and leaves it untouched', async () => {
    const { org, main } = await setUp();
    const center = dataOf<CenterAnswer>(await createCenter(org, validCenter(main.id, { name: 'Guarded' })));
    const other = await organisation(testDb, app);
    const otherMain = await other.userWith('MHSC_ADMIN');
    const attempts = [
      other.call({ url: `/account/sadmin/mhsc/${center.id}` }),
      other.call({ url: `/account/smadmin/mhsc/${center.id}` }),
      other.call({ method: 'PUT', url: `/account/sadmin/mhsc/${center.id}`, payload: validCenter(otherMain.id, { name: 'Stolen' }) }),
      other.call({ method: 'PUT', url: `/account/smadmin/mhsc/${center.id}`, payload: { name: 'Stolen' } }),
      other.call({ method: 'PUT', url: `/account/sadmin/mhsc/deactivate/${center.id}?enabled=false` }),
      other.call({ method: 'PUT', url: `/account/sadmin/mhsc/${center.id}/admins`, payload: { mainAdminId: otherMain.id } }),
      other.call({ url: `/account/sadmin/mhsc/${center.id}/logo` }),
    ];
    for (const response of attempts) {
      const answer = await response;
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'center.notFound' });
    }
    expect(await storedCenter(center.id)).toMatchObject({ name: 'Guarded', enabled: true });
    const admins = await asOwner<{ user_id: string }>(testDb.ownerUrl, `SELECT user_id FROM center_admins WHERE center_id = $1 AND kind = 'MAIN'`, [center.id]);
    expect(admins).toEqual([{ user_id: main.id }]);
  });
});
