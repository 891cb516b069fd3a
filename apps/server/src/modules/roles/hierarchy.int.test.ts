import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEFAULT_ROLE_PERMISSIONS,
  grantRequiresHolding,
  isRoleAbove,
  isRoleBelow,
  maySetPasswordOf,
  PLATFORM_ROLES,
  ROLE_CODES,
  ROLE_PLACEMENT,
  type RoleCode,
} from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createPlatformUser, createTenant, createTenantUser } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { platformStaffTenants, scopes, userLevels } from '../../db/schema.js';

/** A real 1x1 PNG (one blue pixel). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);
const NEW_PASSWORD = 'M0i@Matkhau';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-hierarchy-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

type Method = NonNullable<InjectOptions['method']>;
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  app.inject({ method, url, ...withSession(token), ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
const uploadAvatar = (token: string, username: string) => {
  const body = multipart([{ name: 'file', filename: 'photo.png', contentType: 'image/png', content: PNG }]);
  return app.inject({
    method: 'POST',
    url: `/account/admin/user/adminUploadAvatarForUser?username=${encodeURIComponent(username)}`,
    payload: body.payload,
    headers: { ...body.headers, cookie: `rpm_session=${token}` },
  });
};
const createRole = (token: string, baseRole: RoleCode, permissions: string[] = ['account.view']) =>
  call(token, 'POST', '/account/role', { name: `Role ${randomBytes(4).toString('hex')}`, baseRole, permissions });
const assignRole = (token: string, userId: string, role: string) => call(token, 'PUT', '/account/admin/user/role', { userId, role });
const setPassword = (token: string, userId: string) => call(token, 'PUT', '/manage/system-admin/change-password', { userId, newPassword: NEW_PASSWORD });
const disable = (token: string, userId: string) => call(token, 'POST', `/account/admin/staff/${userId}/disable`, { duration: 'THREE_DAYS' });
const unlock = (token: string, userId: string) => call(token, 'POST', '/account/admin/user/unlock', { userId });

interface StoredAccount {
  role: string;
  custom_role_id: string | null;
  password_hash: string | null;
  status: string;
  failed_logins: number;
  avatar_file: string | null;
}
const stored = async (id: string) =>
  (await asOwner<StoredAccount>(testDb.ownerUrl, 'SELECT role, custom_role_id, password_hash, status, failed_logins, avatar_file FROM users WHERE id = $1', [id]))[0];
const roleCount = async (tenantId: string) => (await asOwner(testDb.ownerUrl, 'SELECT 1 FROM roles WHERE tenant_id = $1', [tenantId])).length;
/** The body of an error answer without its request id, to compare two answers. */
const errorOf = (response: LightMyRequestResponse) => {
  const { requestId: _requestId, ...rest } = response.json<{ requestId?: string }>();
  return { status: response.statusCode, ...rest };
};

/**
 * A tenant shaped like the demo: a scope (north) holding center A, center B elsewhere; a tenant
 * admin; at center A a main admin, a second main admin, a support admin, an MHSC admin, a doctor, a
 * patient account and two patients; a scope admin of north; a doctor and three patients at B.
 */
async function organisation() {
  const { database } = testDb;
  const tenant = await createTenant(database);
  const north = uuidv7();
  await database.withTenant(tenant.id, (tx) => tx.insert(scopes).values({ tenantId: tenant.id, id: north, name: 'North', level: 1 }));
  const centerA = await createHealthCenter(database, tenant.id, 'Center A');
  const centerB = await createHealthCenter(database, tenant.id, 'Center B');
  await database.withTenant(tenant.id, (tx) => tx.execute(sql`UPDATE health_centers SET scope_id = ${north} WHERE id = ${centerA.id}`));
  const at = (role: RoleCode, centerId: string | null = centerA.id) => createTenantUser(database, tenant.id, { role, healthCenterId: centerId, phone: `09${randomBytes(4).readUInt32BE() % 100_000_000}`.padEnd(10, '0') });
  const org = {
    tenant,
    centerA,
    centerB,
    north,
    admin: await at('ADMIN', null),
    mainAdmin: await at('MAIN_ADMIN'),
    otherMainAdmin: await at('MAIN_ADMIN'),
    supportAdmin: await at('SUPPORT_ADMIN'),
    mhscAdmin: await at('MHSC_ADMIN'),
    doctor: await at('DOCTOR'),
    patientUser: await at('PATIENT'),
    scopeAdmin: await createTenantUser(database, tenant.id, { role: 'SCOPE_ADMIN', scopeId: north }),
    doctorB: await at('DOCTOR', centerB.id),
  };
  for (const centerId of [centerA.id, centerA.id, centerB.id, centerB.id, centerB.id]) await createPatient(database, tenant.id, { healthCenterId: centerId });
  return org;
}
const tokenOf = (org: { tenant: { code: string } }, user: { email: string | null }) => logIn(app, org.tenant.code, user.email ?? '');
const patientTotal = async (token: string) => (await call(token, 'GET', '/account/patients?page=0&size=50')).json<{ data: { total: number } }>().data.total;

describe('a main admin cannot make itself tenant-wide', () => {
  it('refuses a role based above its own and assigning any role to itself; it still sees only its center', async () => {
    const org = await organisation();
    const token = await tokenOf(org, org.mainAdmin);
    expect(await patientTotal(token)).toBe(2);
    const ownPermissions = [...DEFAULT_ROLE_PERMISSIONS.MAIN_ADMIN];

    const climb = await createRole(token, 'ADMIN', ownPermissions);
    expect(climb.statusCode).toBe(403);
    expect(climb.json()).toMatchObject({ code: 'role.rankTooHigh', message: 'You can only manage accounts and roles below your own role' });
    expect(await roleCount(org.tenant.id)).toBe(0);

    const before = await stored(org.mainAdmin.id);
    for (const role of ['ADMIN', 'MAIN_ADMIN', 'DOCTOR']) {
      const self = await assignRole(token, org.mainAdmin.id, role);
      expect(self.statusCode, role).toBe(403);
    }
    // A role at its own rank may be authored, never handed to itself.
    const own = await createRole(token, 'MAIN_ADMIN', ownPermissions);
    expect(own.statusCode).toBe(200);
    const ownRoleId = own.json<{ data: { id: string } }>().data.id;
    expect((await assignRole(token, org.mainAdmin.id, ownRoleId)).statusCode).toBe(403);
    expect(await stored(org.mainAdmin.id)).toEqual(before);

    const again = await tokenOf(org, org.mainAdmin);
    expect((await call(again, 'GET', '/auth/check-token')).json()).toMatchObject({ data: { role: 'MAIN_ADMIN' } });
    expect(await patientTotal(again)).toBe(2);
  });

  it('positive control: the tenant admin above it authors a main-admin role and gives it to an MHSC admin', async () => {
    const org = await organisation();
    const token = await tokenOf(org, org.admin);
    const role = await createRole(token, 'MAIN_ADMIN', [...DEFAULT_ROLE_PERMISSIONS.MAIN_ADMIN]);
    expect(role.statusCode).toBe(200);
    const roleId = role.json<{ data: { id: string } }>().data.id;
    expect((await assignRole(token, org.mhscAdmin.id, roleId)).json()).toMatchObject({ data: { role: 'MAIN_ADMIN', customRole: { id: roleId } } });
    expect(await stored(org.mhscAdmin.id)).toMatchObject({ role: 'MAIN_ADMIN', custom_role_id: roleId });
    // The admin may author a role at its own rank but not above it.
    expect((await createRole(token, 'ADMIN')).statusCode).toBe(200);
  });
});

describe('role assignment follows the caller’s visibility and rank', () => {
  it('answers an unseen user exactly like an unknown one (404), and leaves them untouched', async () => {
    const org = await organisation();
    const token = await tokenOf(org, org.mainAdmin);
    // The scope admin and center B's doctor are outside center A.
    for (const unseen of [org.scopeAdmin, org.doctorB, org.admin]) {
      const before = await stored(unseen.id);
      const response = await assignRole(token, unseen.id, 'COACH');
      const unknown = await assignRole(token, uuidv7(), 'COACH');
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toEqual(errorOf(unknown));
      expect(response.json()).toMatchObject({ code: 'common.notFound' });
      expect(await stored(unseen.id)).toEqual(before);
    }
  });

  it('refuses a visible user at or above the caller, and a new role that is not below it', async () => {
    const org = await organisation();
    const token = await tokenOf(org, org.mainAdmin);
    const peer = await stored(org.otherMainAdmin.id);
    const atRank = await assignRole(token, org.otherMainAdmin.id, 'COACH');
    expect(atRank.statusCode).toBe(403);
    expect(atRank.json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await stored(org.otherMainAdmin.id)).toEqual(peer);

    const doctor = await stored(org.doctor.id);
    const promote = await assignRole(token, org.doctor.id, 'MAIN_ADMIN');
    expect(promote.statusCode).toBe(403);
    expect(promote.json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await stored(org.doctor.id)).toEqual(doctor);

    // A doctor who also holds a main admin level elsewhere ranks as a main admin.
    await testDb.database.withTenant(org.tenant.id, (tx) =>
      tx.insert(userLevels).values({ tenantId: org.tenant.id, id: uuidv7(), userId: org.doctor.id, role: 'MAIN_ADMIN', healthCenterId: org.centerB.id }),
    );
    expect((await assignRole(token, org.doctor.id, 'COACH')).json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await stored(org.doctor.id)).toEqual(doctor);

    // Positive control: below it, with a role below it.
    expect((await assignRole(token, org.mhscAdmin.id, 'COACH')).json()).toMatchObject({ data: { role: 'COACH' } });
  });

  it('lists as assignable only the users the caller sees and ranks above', async () => {
    const org = await organisation();
    const ids = async (token: string) =>
      (await call(token, 'GET', '/account/role/assignable-users?page=0&size=50')).json<{ data: { items: { id: string }[]; total: number } }>().data;
    const mainList = await ids(await tokenOf(org, org.mainAdmin));
    expect(mainList.items.map((item) => item.id).sort()).toEqual([org.supportAdmin.id, org.mhscAdmin.id, org.doctor.id, org.patientUser.id].sort());
    expect(mainList.total).toBe(4);
    const adminList = await ids(await tokenOf(org, org.admin));
    expect(adminList.items.map((item) => item.id).sort()).toEqual(
      [org.mainAdmin, org.otherMainAdmin, org.supportAdmin, org.mhscAdmin, org.doctor, org.patientUser, org.scopeAdmin, org.doctorB].map((user) => user.id).sort(),
    );
  });

  it('refuses editing or deleting a custom role based at or above the caller, or held by anyone not below it', async () => {
    const org = await organisation();
    const adminToken = await tokenOf(org, org.admin);
    const mainToken = await tokenOf(org, org.mainAdmin);
    const body = (baseRole: RoleCode) => ({ name: `Edited ${randomBytes(3).toString('hex')}`, baseRole, permissions: ['account.view'] });
    const high = (await createRole(adminToken, 'ADMIN')).json<{ data: { id: string } }>().data.id;
    const peerRole = (await createRole(adminToken, 'MAIN_ADMIN')).json<{ data: { id: string } }>().data.id;
    const low = (await createRole(adminToken, 'DOCTOR')).json<{ data: { id: string } }>().data.id;
    const snapshot = async () => asOwner(testDb.ownerUrl, 'SELECT id, name, base_role, permissions FROM roles WHERE tenant_id = $1 ORDER BY id', [org.tenant.id]);
    const before = await snapshot();
    for (const [id, baseRole] of [[high, 'DOCTOR'], [peerRole, 'DOCTOR'], [low, 'ADMIN']] as const) {
      const response = await call(mainToken, 'PUT', `/account/role/${id}`, body(baseRole));
      expect(response.statusCode, `${id} -> ${baseRole}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'role.rankTooHigh' });
    }
    expect((await call(mainToken, 'DELETE', `/account/role/${high}`)).json()).toMatchObject({ code: 'role.rankTooHigh' });
    // A role whose holder (through an extra level) ranks at the caller's own rank.
    await testDb.database.withTenant(org.tenant.id, (tx) =>
      tx.insert(userLevels).values({ tenantId: org.tenant.id, id: uuidv7(), userId: org.otherMainAdmin.id, role: 'DOCTOR', customRoleId: low, healthCenterId: org.centerA.id }),
    );
    expect((await call(mainToken, 'PUT', `/account/role/${low}`, body('DOCTOR'))).json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await snapshot()).toEqual(before);
    // Positive control: the tenant admin edits the same roles.
    for (const id of [peerRole, low]) expect((await call(adminToken, 'PUT', `/account/role/${id}`, body('DOCTOR'))).statusCode).toBe(200);
  });
});

describe('passwords, disabling and unlocking follow the hierarchy', () => {
  it('refuses support and MHSC admins setting the main admin’s (or a peer’s) password; the main admin may set theirs', async () => {
    const org = await organisation();
    for (const [actor, target] of [
      [org.supportAdmin, org.mainAdmin],
      [org.mhscAdmin, org.mainAdmin],
      [org.mhscAdmin, org.supportAdmin],
    ] as const) {
      const before = await stored(target.id);
      const response = await setPassword(await tokenOf(org, actor), target.id);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'role.rankTooHigh' });
      expect(await stored(target.id)).toEqual(before);
    }
    const mhscToken = await tokenOf(org, org.mhscAdmin);
    // Unseen: not found, like an unknown id.
    const unseen = await setPassword(mhscToken, org.doctorB.id);
    expect(errorOf(unseen)).toEqual(errorOf(await setPassword(mhscToken, uuidv7())));
    expect(unseen.statusCode).toBe(404);
    // Positive controls: strictly below the caller.
    expect((await setPassword(mhscToken, org.doctor.id)).statusCode).toBe(200);
    expect((await setPassword(await tokenOf(org, org.mainAdmin), org.mhscAdmin.id)).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/auth/oauth-token', payload: { tenant: org.tenant.code, username: org.mhscAdmin.email, password: NEW_PASSWORD, grant_type: 'password' } })).statusCode).toBe(200);
  });

  it('refuses disabling, enabling and unlocking an account at or above the caller, and allows it below', async () => {
    const org = await organisation();
    const supportToken = await tokenOf(org, org.supportAdmin);
    const mainToken = await tokenOf(org, org.mainAdmin);
    await asOwner(testDb.ownerUrl, 'UPDATE users SET failed_logins = 5, locked_until = now() + interval \'1 day\' WHERE id = $1', [org.mainAdmin.id]);
    const before = await stored(org.mainAdmin.id);
    for (const response of [await disable(supportToken, org.mainAdmin.id), await unlock(supportToken, org.mainAdmin.id), await unlock(await tokenOf(org, org.mhscAdmin), org.mainAdmin.id)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'role.rankTooHigh' });
    }
    expect(await stored(org.mainAdmin.id)).toEqual(before);
    await asOwner(testDb.ownerUrl, `UPDATE users SET status = 'DISABLED' WHERE id = $1`, [org.otherMainAdmin.id]);
    expect((await call(supportToken, 'POST', `/account/admin/staff/${org.otherMainAdmin.id}/enable`)).json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await stored(org.otherMainAdmin.id)).toMatchObject({ status: 'DISABLED' });
    // Positive controls.
    expect((await disable(await tokenOf(org, org.admin), org.otherMainAdmin.id)).statusCode).toBe(200);
    expect((await disable(mainToken, org.supportAdmin.id)).statusCode).toBe(200);
    expect((await unlock(await tokenOf(org, org.admin), org.mainAdmin.id)).statusCode).toBe(200);
    expect(await stored(org.mainAdmin.id)).toMatchObject({ failed_logins: 0 });
  });
});

describe('avatars of other users', () => {
  it('refuses a doctor replacing an admin’s avatar, tells unseen and unknown usernames apart by nothing, and hides unseen avatars', async () => {
    const org = await organisation();
    const adminToken = await tokenOf(org, org.admin);
    expect((await uploadAvatar(adminToken, org.admin.email ?? '')).statusCode).toBe(403);
    const own = multipart([{ name: 'file', filename: 'photo.png', contentType: 'image/png', content: PNG }]);
    await app.inject({ method: 'POST', url: '/account/me/profile/upload-avatar', payload: own.payload, headers: { ...own.headers, cookie: `rpm_session=${adminToken}` } });
    const adminBefore = await stored(org.admin.id);
    expect(adminBefore?.avatar_file).not.toBeNull();

    const doctorToken = await tokenOf(org, org.doctor);
    // The tenant admin is outside the doctor's center: the same 404 as a username that does not exist.
    const unseen = await uploadAvatar(doctorToken, org.admin.email ?? '');
    const unknown = await uploadAvatar(doctorToken, `nobody-${randomBytes(3).toString('hex')}@test.example`);
    expect(unseen.statusCode).toBe(404);
    expect(errorOf(unseen)).toEqual(errorOf(unknown));
    expect(await stored(org.admin.id)).toEqual(adminBefore);
    // Visible but above the doctor.
    const mhscBefore = await stored(org.mhscAdmin.id);
    const above = await uploadAvatar(doctorToken, org.mhscAdmin.email ?? '');
    expect(above.statusCode).toBe(403);
    expect(above.json()).toMatchObject({ code: 'role.rankTooHigh' });
    expect(await stored(org.mhscAdmin.id)).toEqual(mhscBefore);
    // Reading: an unseen user's avatar is not found, like an unknown id.
    const read = await call(doctorToken, 'GET', `/account/user/${org.admin.id}/avatar`);
    expect(read.statusCode).toBe(404);
    expect(errorOf(read)).toEqual(errorOf(await call(doctorToken, 'GET', `/account/user/${uuidv7()}/avatar`)));

    // Positive controls: the doctor sets a patient account's avatar at its center and reads it;
    // the main admin sets the MHSC admin's.
    expect((await uploadAvatar(doctorToken, org.patientUser.email ?? '')).statusCode).toBe(200);
    const image = await call(doctorToken, 'GET', `/account/user/${org.patientUser.id}/avatar`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await uploadAvatar(await tokenOf(org, org.mainAdmin), org.mhscAdmin.email ?? '')).statusCode).toBe(200);
    expect((await call(adminToken, 'GET', `/account/user/${org.admin.id}/avatar`)).statusCode).toBe(200);
  });
});

describe('every caller role against every target role', () => {
  it('accepts each action exactly when the hierarchy says so, and never for a target at or above the caller', { timeout: 600_000 }, async () => {
    const tenant = await createTenant(testDb.database);
    const center = await createHealthCenter(testDb.database, tenant.id);
    const scopeId = uuidv7();
    await testDb.database.withTenant(tenant.id, async (tx) => {
      await tx.insert(scopes).values({ tenantId: tenant.id, id: scopeId, name: 'Region', level: 1 });
      await tx.execute(sql`UPDATE health_centers SET scope_id = ${scopeId} WHERE id = ${center.id}`);
    });
    // Callers placed where their role works; every tenant target at the one center, which every
    // caller sees, so only the rank decides. Platform targets are platform staff.
    const callers = new Map<RoleCode, { id: string; token: string }>();
    for (const role of ROLE_CODES) {
      const placement = ROLE_PLACEMENT[role];
      const user = PLATFORM_ROLES.includes(role)
        ? await createPlatformUser(testDb.database, { role })
        : await createTenantUser(testDb.database, tenant.id, { role, ...(placement === 'scope' ? { scopeId } : placement === 'center' || placement === 'none' ? { healthCenterId: center.id } : {}) });
      if (role === 'SYSTEM_ADMIN') await testDb.database.system.insert(platformStaffTenants).values({ userId: user.id, tenantId: tenant.id });
      callers.set(role, { id: user.id, token: await logIn(app, tenant.code, user.email ?? '') });
    }
    const makeTarget = (role: RoleCode) =>
      PLATFORM_ROLES.includes(role)
        ? createPlatformUser(testDb.database, { role })
        : createTenantUser(testDb.database, tenant.id, { role, healthCenterId: center.id });
    const holds = (caller: RoleCode, permission: string) => (DEFAULT_ROLE_PERMISSIONS[caller] as readonly string[]).includes(permission);
    const isPlatform = (role: RoleCode) => PLATFORM_ROLES.includes(role);
    const isSuper = (role: RoleCode) => role === 'ROOT' || role === 'SUPER_ADMIN';
    /** Platform staff are reached by ROOT and SUPER_ADMIN only, through the account and staff pages. */
    const reaches = (caller: RoleCode, target: RoleCode) => !isPlatform(target) || isSuper(caller);

    let tried = 0;
    const mismatches: string[] = [];
    const acceptedAtOrAbove: string[] = [];
    let ownRankRoles = 0;
    let superAdminPasswords = 0;
    const check = (action: string, caller: RoleCode, target: RoleCode, response: LightMyRequestResponse, expected: boolean) => {
      tried++;
      const accepted = response.statusCode === 200;
      if (accepted !== expected) mismatches.push(`${action} ${caller} -> ${target}: ${response.statusCode} ${response.body.slice(0, 100)}`);
      if (!accepted) {
        // A refusal is a refusal, never a crash.
        if (response.statusCode >= 500) mismatches.push(`${action} ${caller} -> ${target}: ${response.statusCode}`);
        return;
      }
      if (isRoleBelow(target, caller)) return;
      if (action === 'create role' && !isRoleAbove(target, caller)) ownRankRoles++;
      else if (action === 'set password' && target === 'SUPER_ADMIN' && caller === 'SUPER_ADMIN') superAdminPasswords++;
      else acceptedAtOrAbove.push(`${action} ${caller} -> ${target}`);
    };

    for (const caller of ROLE_CODES) {
      const { token } = callers.get(caller) ?? { token: '' };
      for (const target of ROLE_CODES) {
        const below = isRoleBelow(target, caller);
        const user = await makeTarget(target);
        const username = user.email ?? '';
        check('create role', caller, target, await createRole(token, target), holds(caller, 'permission.update') && !isPlatform(target) && !isRoleAbove(target, caller));
        check('upload avatar', caller, target, await uploadAvatar(token, username), holds(caller, 'user.update') && !isPlatform(target) && below);
        check('unlock', caller, target, await unlock(token, user.id), holds(caller, 'staff.update') && reaches(caller, target) && below);
        check('set password', caller, target, await setPassword(token, user.id), holds(caller, 'staff.update') && reaches(caller, target) && maySetPasswordOf(target, caller));
        check('disable', caller, target, await disable(token, user.id), holds(caller, 'staff.disable') && target !== 'PATIENT' && reaches(caller, target) && below);
        // Assignment, both ways: a role to a user holding the target role, and the target role to a user below.
        const assignable = holds(caller, 'permission.update') && !isPlatform(target);
        check('assign a role to', caller, target, await assignRole(token, user.id, 'COACH'), assignable && below);
        const low = await createTenantUser(testDb.database, tenant.id, { role: 'COACH', healthCenterId: center.id });
        const grants = DEFAULT_ROLE_PERMISSIONS[target].every((permission) => !grantRequiresHolding(permission) || holds(caller, permission));
        check('assign the role', caller, target, await assignRole(token, low.id, target), assignable && grants && below);
      }
    }
    console.log(
      `role hierarchy: ${tried} combinations tried (${ROLE_CODES.length} caller roles x ${ROLE_CODES.length} target roles x 7 actions), ` +
        `${mismatches.length} decisions unlike the hierarchy, ${acceptedAtOrAbove.length} accepted with the target at or above the caller ` +
        `(allowed by the rules: ${ownRankRoles} custom roles authored at the caller's own rank, ${superAdminPasswords} super admin setting a super admin's password)`,
    );
    expect(mismatches).toEqual([]);
    expect(acceptedAtOrAbove).toEqual([]);
    expect(tried).toBe(ROLE_CODES.length * ROLE_CODES.length * 7);
  });
});
