import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPlatformUser } from '../../../test/factories.js';
import { dataOf, organisation, type Organisation } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface ScopeAnswer {
  id: string;
  name: string;
  level: number;
  parentId: string | null;
  enabled: boolean;
}
interface Node {
  id: string;
  name: string;
  children: Node[];
}

const createScope = (org: Organisation, body: Record<string, unknown>, token?: string) =>
  org.call({ method: 'POST', url: '/account/sadmin/mhsc/scope', payload: body, ...(token === undefined ? {} : { token }) });
const scopeCount = async (tenantId: string) =>
  (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM scopes WHERE tenant_id = $1', [tenantId]))[0]?.n;
const storedScope = async (id: string) =>
  (await asOwner<{ name: string; enabled: boolean; level: number; parent_id: string | null }>(testDb.ownerUrl, 'SELECT name, enabled, level, parent_id FROM scopes WHERE id = $1', [id]))[0];
const names = (nodes: Node[]): unknown => nodes.map((node) => (node.children.length === 0 ? node.name : { [node.name]: names(node.children) }));

describe('scope management', () => {
  it('creates, lists, reads, renames, moves, disables and deletes scopes, auditing each change', async () => {
    const org = await organisation(testDb, app);
    const root = await createScope(org, { name: 'Viet Nam', type: 'COUNTRY' });
    expect(root.statusCode).toBe(200);
    const country = dataOf<ScopeAnswer>(root);
    expect(country).toMatchObject({ name: 'Viet Nam', level: 1, parentId: null, enabled: true });
    const north = dataOf<ScopeAnswer>(await createScope(org, { name: 'North', type: 'REGION', parentId: country.id, level: 2 }));
    const south = dataOf<ScopeAnswer>(await createScope(org, { name: 'South', type: 'REGION', parentId: country.id }));
    expect([north.level, south.level]).toEqual([2, 2]);

    const list = await org.call({ url: '/account/sadmin/mhsc/scope?page=0&size=10&searchValue=orth&type=REGION' });
    expect(list.json()).toMatchObject({ data: { total: 1, page: 0, size: 10, items: [{ id: north.id }] } });
    const byParent = await org.call({ url: `/account/sadmin/mhsc/scope?parentId=${country.id}` });
    expect(dataOf<{ items: ScopeAnswer[] }>(byParent).items.map((scope) => scope.name)).toEqual(['North', 'South']);
    const children = await org.call({ url: `/account/sadmin/mhsc/scope/children?scopeId=${country.id}` });
    expect(dataOf<ScopeAnswer[]>(children).map((scope) => scope.id)).toEqual([north.id, south.id]);
    expect(dataOf<ScopeAnswer[]>(await org.call({ url: '/account/sadmin/mhsc/scope/children' })).map((scope) => scope.id)).toEqual([country.id]);

    const centerId = await org.insertCenter('Hanoi clinic', north.id);
    const detail = await org.call({ url: `/account/sadmin/mhsc/scope/${north.id}` });
    expect(detail.json()).toMatchObject({
      data: { id: north.id, parent: { id: country.id, name: 'Viet Nam', level: 1 }, childrenCount: 0, centers: [{ id: centerId, name: 'Hanoi clinic', enabled: true }], admins: [] },
    });

    const renamed = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${south.id}`, payload: { name: 'Southern region', type: 'REGION', parentId: country.id } });
    expect(renamed.json()).toMatchObject({ data: { name: 'Southern region', level: 2 } });
    const disabled = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/name-and-status/${south.id}`, payload: { name: 'South', enabled: false } });
    expect(disabled.json()).toMatchObject({ data: { name: 'South', enabled: false } });
    expect((await org.call({ method: 'DELETE', url: `/account/sadmin/mhsc/scope/${south.id}` })).json()).toEqual({ resultCode: 200, data: null });
    expect((await org.call({ url: `/account/sadmin/mhsc/scope/${south.id}` })).json()).toMatchObject({ code: 'scope.notFound' });

    const actions = await asOwner<{ action: string; target_id: string }>(
      testDb.ownerUrl,
      `SELECT action, target_id FROM audit_log WHERE tenant_id = $1 AND target_type = 'scope' ORDER BY occurred_at, id`,
      [org.tenant.id],
    );
    expect(actions.map((row) => row.action)).toEqual(['SCOPE_CREATED', 'SCOPE_CREATED', 'SCOPE_CREATED', 'SCOPE_UPDATED', 'SCOPE_UPDATED', 'SCOPE_DELETED']);
    expect(actions.at(-1)?.target_id).toBe(south.id);
  });

  it('lets platform staff acting in the tenant manage its scopes', async () => {
    const org = await organisation(testDb, app);
    const staff = await createPlatformUser(testDb.database, { role: 'SUPER_ADMIN' });
    const token = await logIn(app, org.tenant.code, staff.email ?? '');
    const created = await createScope(org, { name: 'By the platform' }, token);
    expect(created.json()).toMatchObject({ data: { name: 'By the platform', level: 1 } });
    const [row] = await asOwner<{ actor_tenant_id: string }>(testDb.ownerUrl, `SELECT actor_tenant_id FROM audit_log WHERE tenant_id = $1 AND action = 'SCOPE_CREATED'`, [org.tenant.id]);
    expect(row?.actor_tenant_id).not.toBe(org.tenant.id);
  });
});

describe('scope levels (1 to 5, a child one below its parent)', () => {
  it('derives and checks the level, and refuses a sixth level without writing anything', async () => {
    const org = await organisation(testDb, app);
    let parentId: string | null = null;
    for (let level = 1; level <= 5; level++) {
      const created = await createScope(org, { name: `Level ${level}`, parentId, level });
      expect(created.statusCode, created.body).toBe(200);
      parentId = dataOf<ScopeAnswer>(created).id;
    }
    const sixth = await createScope(org, { name: 'Level 6', parentId });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json()).toMatchObject({ code: 'scope.invalidLevel' });
    expect((await createScope(org, { name: 'Level 6', parentId, level: 6 })).json()).toMatchObject({ code: 'common.invalidParameter' });
    const root = dataOf<ScopeAnswer[]>(await org.call({ url: '/account/sadmin/mhsc/scope/children' }))[0];
    const wrongLevel = await createScope(org, { name: 'Not level 3', parentId: root?.id, level: 3 });
    expect(wrongLevel.json()).toMatchObject({ code: 'scope.invalidLevel' });
    expect(wrongLevel.json<{ message: string }>().message).toContain('a root scope is level 1');
    expect(await scopeCount(org.tenant.id)).toBe(5);
  });

  it('moves a subtree along with its scope, and refuses moves past level 5 or below itself', async () => {
    const org = await organisation(testDb, app);
    const a = await org.insertScope('A', 1);
    const b = await org.insertScope('B', 2, a);
    const c = await org.insertScope('C', 3, b);
    const other = await org.insertScope('Other', 1);
    const deep = await org.insertScope('Deep 2', 2, other);
    const deeper = await org.insertScope('Deep 3', 3, deep);

    const moved = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B', parentId: other } });
    expect(moved.json()).toMatchObject({ data: { level: 2, parentId: other } });
    const down = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B', parentId: deep } });
    expect(down.json()).toMatchObject({ data: { level: 3 } });
    expect((await storedScope(c))?.level).toBe(4);

    const tooDeep = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B', parentId: await org.insertScope('Deep 4', 4, deeper) } });
    expect(tooDeep.json()).toMatchObject({ code: 'scope.invalidLevel' });
    const cycle = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B', parentId: c } });
    expect(cycle.json()).toMatchObject({ code: 'scope.invalidParent' });
    expect(await storedScope(b)).toMatchObject({ level: 3, parent_id: deep });
    expect((await storedScope(c))?.level).toBe(4);

    const renamed = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B renamed' } });
    expect(renamed.json()).toMatchObject({ data: { name: 'B renamed', level: 3, parentId: deep } });
    const toRoot = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${b}`, payload: { name: 'B renamed', parentId: null, level: 1 } });
    expect(toRoot.json()).toMatchObject({ data: { level: 1, parentId: null } });
    expect((await storedScope(c))?.level).toBe(2);
  });
});

describe('scope names', () => {
  it('refuses a blank name, and a duplicate within a level in any case, storing nothing', async () => {
    const org = await organisation(testDb, app);
    const root = dataOf<ScopeAnswer>(await createScope(org, { name: 'Central' }));
    expect((await createScope(org, { name: '   ' })).json()).toMatchObject({ code: 'common.invalidParameter', fieldErrors: [{ field: 'body.name' }] });
    const duplicate = await createScope(org, { name: 'CENTRAL' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'scope.nameExists', message: 'Scope name already exists at this level' });
    const vietnamese = await org.call({ method: 'POST', url: '/account/sadmin/mhsc/scope', payload: { name: 'central' }, headers: { 'accept-language': 'vi' } });
    expect(vietnamese.json()).toMatchObject({ message: 'Tên phạm vi đã tồn tại ở cấp này' });
    expect((await createScope(org, { name: 'Central', parentId: root.id })).statusCode).toBe(200);
    const renamed = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/name-and-status/${root.id}`, payload: { name: ' ', enabled: true } });
    expect(renamed.statusCode).toBe(400);
    expect(await scopeCount(org.tenant.id)).toBe(2);
    const audits = await asOwner(testDb.ownerUrl, `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action LIKE 'SCOPE_%'`, [org.tenant.id]);
    expect(audits).toHaveLength(2);
  });
});

describe('scopes in use', () => {
  it('refuses to disable a scope with enabled centers, enabled children or admins, and to delete one with children, centers or admins', async () => {
    const org = await organisation(testDb, app);
    const parent = await org.insertScope('Parent', 1);
    const child = await org.insertScope('Child', 2, parent);
    const disable = (id: string) => org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/name-and-status/${id}`, payload: { name: id === parent ? 'Parent' : 'Child', enabled: false } });
    const remove = (id: string) => org.call({ method: 'DELETE', url: `/account/sadmin/mhsc/scope/${id}` });

    const withChild = await disable(parent);
    expect(withChild.statusCode).toBe(409);
    expect(withChild.json()).toMatchObject({ code: 'scope.inUse' });
    expect((await remove(parent)).json()).toMatchObject({ code: 'scope.hasChildren' });

    const center = await org.insertCenter('Child clinic', child);
    expect((await disable(child)).json()).toMatchObject({ code: 'scope.inUse' });
    expect((await remove(child)).json()).toMatchObject({ code: 'scope.inUse' });
    await asOwner(testDb.ownerUrl, 'UPDATE health_centers SET enabled = false WHERE id = $1', [center]);
    expect((await disable(child)).json()).toMatchObject({ data: { enabled: false } });
    expect((await remove(child)).json()).toMatchObject({ code: 'scope.inUse' });

    const scopeAdmin = await org.userWith('SCOPE_ADMIN');
    await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${parent}/admins`, payload: { adminIds: [scopeAdmin.id] } });
    await asOwner(testDb.ownerUrl, 'DELETE FROM health_centers WHERE id = $1', [center]);
    expect((await remove(child)).json()).toEqual({ resultCode: 200, data: null });
    expect((await disable(parent)).json()).toMatchObject({ code: 'scope.inUse' });
    expect((await remove(parent)).json()).toMatchObject({ code: 'scope.inUse' });
    expect(await storedScope(parent)).toMatchObject({ enabled: true });
  });
});

describe('scope hierarchy', () => {
  it('answers ancestors and subtrees as trees', async () => {
    const org = await organisation(testDb, app);
    const country = await org.insertScope('Country', 1);
    const north = await org.insertScope('North', 2, country);
    await org.insertScope('South', 2, country);
    const hanoi = await org.insertScope('Hanoi', 3, north);
    await org.insertScope('Hoan Kiem', 4, hanoi);
    const tree = async (query: string) => dataOf<Node[]>(await org.call({ url: `/account/sadmin/mhsc/scope/hierarchy${query}` }));

    expect(names(await tree(''))).toEqual([{ Country: [{ North: [{ Hanoi: ['Hoan Kiem'] }] }, 'South'] }]);
    expect(names(await tree(`?scopeId=${hanoi}&isFetchParent=true&isFetchChildren=true`))).toEqual([{ Country: [{ North: [{ Hanoi: ['Hoan Kiem'] }] }] }]);
    expect(names(await tree(`?scopeId=${hanoi}&isFetchParent=true&isFetchChildren=false`))).toEqual([{ Country: [{ North: ['Hanoi'] }] }]);
    expect(names(await tree(`?scopeId=${north}&isFetchParent=false`))).toEqual([{ North: [{ Hanoi: ['Hoan Kiem'] }] }]);
    expect((await org.call({ url: '/account/sadmin/mhsc/scope/hierarchy?scopeId=01890000-0000-7000-8000-000000000000' })).statusCode).toBe(404);
  });
});

describe('scope admins', () => {
  it('sets admins and support admins from the tenant’s admin accounts, lists them paged, and refuses anyone else', async () => {
    const org = await organisation(testDb, app);
    const scope = await org.insertScope('Region', 1);
    const lead = await org.userWith('SCOPE_ADMIN', { firstName: 'Lan', lastName: 'Pham' });
    const helper = await org.userWith('SUPPORT_ADMIN', { firstName: 'Minh', lastName: 'Vo' });
    const set = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${scope}/admins`, payload: { adminIds: [lead.id], supportAdminIds: [helper.id] } });
    expect(set.json()).toMatchObject({ data: { admins: [{ userId: lead.id, kind: 'ADMIN', fullName: 'Lan Pham' }, { userId: helper.id, kind: 'SUPPORT' }] } });
    const page = await org.call({ url: `/account/sadmin/mhsc/scope/support-admin?scopeId=${scope}&page=1&size=1` });
    expect(page.json()).toMatchObject({ data: { total: 2, page: 1, size: 1, items: [{ userId: helper.id }] } });

    const doctor = await org.userWith('DOCTOR');
    const stranger = await organisation(testDb, app);
    for (const adminIds of [[doctor.id], [stranger.admin.id]]) {
      const refused = await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${scope}/admins`, payload: { adminIds } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'scope.invalidAdmin' });
    }
    expect((await org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${scope}/admins`, payload: { adminIds: [lead.id], supportAdminIds: [lead.id] } })).statusCode).toBe(400);
    const stored = await asOwner<{ user_id: string }>(testDb.ownerUrl, 'SELECT user_id FROM scope_admins WHERE scope_id = $1 ORDER BY kind', [scope]);
    expect(stored.map((row) => row.user_id)).toEqual([lead.id, helper.id]);
    const audits = await asOwner(testDb.ownerUrl, `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action = 'SCOPE_ADMINS_UPDATED'`, [org.tenant.id]);
    expect(audits).toHaveLength(1);
  });
});

describe('who may manage scopes', () => {
  it('refuses a role without the permission (403) and a scope admin on the tenant-wide calls (403)', async () => {
    const org = await organisation(testDb, app);
    const region = await org.insertScope('Region', 1);
    const doctorToken = await org.logInAs(await org.userWith('DOCTOR'));
    expect((await org.call({ url: '/account/sadmin/mhsc/scope', token: doctorToken })).statusCode).toBe(403);
    expect((await createScope(org, { name: 'Doctor made' }, doctorToken)).json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect((await org.call({ url: '/account/smadmin/scope', token: doctorToken })).statusCode).toBe(403);

    const scopeAdminToken = await org.logInAs(await org.userWith('SCOPE_ADMIN', { scopeId: region }));
    expect((await createScope(org, { name: 'Scope admin made', parentId: region }, scopeAdminToken)).statusCode).toBe(403);
    expect((await org.call({ method: 'DELETE', url: `/account/sadmin/mhsc/scope/${region}`, token: scopeAdminToken })).statusCode).toBe(403);
    expect(await scopeCount(org.tenant.id)).toBe(1);
  });

  it('answers 404 for another tenant’s scope and leaves it untouched', async () => {
    const org = await organisation(testDb, app);
    const other = await organisation(testDb, app);
    const theirs = await other.insertScope('Theirs', 1);
    const attempts = [
      org.call({ url: `/account/sadmin/mhsc/scope/${theirs}` }),
      org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${theirs}`, payload: { name: 'Stolen' } }),
      org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/name-and-status/${theirs}`, payload: { name: 'Stolen', enabled: false } }),
      org.call({ method: 'PUT', url: `/account/sadmin/mhsc/scope/${theirs}/admins`, payload: { adminIds: [] } }),
      org.call({ method: 'DELETE', url: `/account/sadmin/mhsc/scope/${theirs}` }),
      org.call({ url: `/account/sadmin/mhsc/scope/support-admin?scopeId=${theirs}` }),
      org.call({ url: `/account/sadmin/mhsc/scope/hierarchy?scopeId=${theirs}` }),
      createScope(org, { name: 'Child of theirs', parentId: theirs }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'scope.notFound' });
    }
    expect(await storedScope(theirs)).toMatchObject({ name: 'Theirs', enabled: true });
    expect(await scopeCount(org.tenant.id)).toBe(0);
  });
});

describe('a scope admin’s own scopes (smadmin)', () => {
  it('sees their scopes and those below, never the rest of the tenant', async () => {
    const org = await organisation(testDb, app);
    const north = await org.insertScope('North', 1);
    const south = await org.insertScope('South', 1);
    const hanoi = await org.insertScope('Hanoi', 2, north);
    await org.insertScope('Saigon', 2, south);
    const scopeAdmin = await org.userWith('SCOPE_ADMIN', { scopeId: north });
    const token = await org.logInAs(scopeAdmin);

    expect(dataOf<ScopeAnswer[]>(await org.call({ url: '/account/smadmin/scope/me', token })).map((scope) => scope.id)).toEqual([north]);
    const listed = dataOf<{ items: ScopeAnswer[]; total: number }>(await org.call({ url: '/account/smadmin/scope?page=0&size=20', token }));
    expect(listed.items.map((scope) => scope.name)).toEqual(['North', 'Hanoi']);
    expect(dataOf<{ total: number }>(await org.call({ url: '/account/smadmin/scope?searchValue=sai', token })).total).toBe(0);
    const tree = dataOf<Node[]>(await org.call({ url: `/account/smadmin/scope/hierarchy?scopeId=${hanoi}&isFetchParent=true`, token }));
    expect(names(tree)).toEqual([{ North: ['Hanoi'] }]);
    expect((await org.call({ url: `/account/smadmin/scope/hierarchy?scopeId=${south}`, token })).statusCode).toBe(404);
    expect(names(dataOf<Node[]>(await org.call({ url: '/account/smadmin/scope/hierarchy', token })))).toEqual([{ North: ['Hanoi'] }]);

    const check = await org.call({ url: '/account/smadmin/check-mhsc-and-scope', token });
    expect(check.json()).toMatchObject({ data: { hasScope: true, hasCenter: false, scopeIds: [north], centerIds: [] } });
  });

  it('lists every scope of the tenant, flat, for the console’s pickers', async () => {
    const org = await organisation(testDb, app);
    const root = await org.insertScope('Root', 1);
    await org.insertScope('Leaf', 2, root);
    const all = await app.inject({ url: '/manage/scope/all', ...withSession(org.token) });
    expect(dataOf<ScopeAnswer[]>(all).map((scope) => [scope.name, scope.level])).toEqual([['Root', 1], ['Leaf', 2]]);
  });
});
