import { multipart } from '../../../test/multipart.js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RoleCode } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';

/** A real 1x1 PNG (one blue pixel). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);
/** A real 1x1 baseline JPEG (one grey pixel; decodes with libjpeg without warnings). */
const JPEG = Buffer.from(
  'ffd8ffe000104a46494600010100000100010000ffdb004300' +
    '01'.repeat(64) +
    'ffc0000b080001000101011100ffc4001400' +
    '01' +
    '00'.repeat(16) +
    'ffc4001410' +
    '01' +
    '00'.repeat(16) +
    'ffda0008010100003f003fffd9',
  'hex',
);

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-avatars-'));
  app = await createTestApp(testDb.database, { dataDir });
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const fileBody = (content: Buffer | string, filename = 'photo.png', contentType = 'image/png') =>
  multipart([{ name: 'file', filename, contentType, content }]);

async function signedInUser(role: RoleCode = 'PATIENT', tenantId?: string) {
  const tenant = tenantId === undefined ? await createTenant(testDb.database) : undefined;
  const owner = tenantId ?? tenant?.id ?? '';
  const code = (await asOwner<{ code: string }>(testDb.ownerUrl, 'SELECT code FROM tenants WHERE id = $1', [owner]))[0]?.code ?? '';
  const user = await createTenantUser(testDb.database, owner, { role, phone: `09${randomBytes(4).readUInt32BE() % 100_000_000}`.padEnd(10, '0') });
  const token = await logIn(app, code, user.email ?? '');
  return { tenantId: owner, user, token };
}

const upload = (token: string, url: string, body: ReturnType<typeof multipart>) =>
  app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, cookie: `rpm_session=${token}` } });
const avatarFileOf = async (id: string) =>
  (await asOwner<{ avatar_file: string | null }>(testDb.ownerUrl, 'SELECT avatar_file FROM users WHERE id = $1', [id]))[0]?.avatar_file ?? null;
const avatarAudits = (id: string) =>
  asOwner<{ actor_user_id: string; details: Record<string, unknown> }>(
    testDb.ownerUrl,
    "SELECT actor_user_id, details FROM audit_log WHERE subject_user_id = $1 AND action = 'ACCOUNT_AVATAR_UPDATED' ORDER BY occurred_at",
    [id],
  );
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(path.join(dataDir, 'files'), path.join(entry.parentPath, entry.name)));
}

describe('POST /account/me/profile/upload-avatar and GET /account/me/avatar', () => {
  it('stores a PNG and serves the same bytes back as image/png, privately', async () => {
    const { user, token } = await signedInUser();
    const response = await upload(token, '/account/me/profile/upload-avatar', fileBody(PNG));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ data: { id: user.id, hasAvatar: true } });

    const key = await avatarFileOf(user.id);
    expect(key).toMatch(new RegExp(`^${user.tenantId}/avatars/[0-9a-f-]{36}\\.png$`));
    expect(key).not.toContain('photo');
    expect(await readFile(path.join(dataDir, 'files', key ?? ''))).toEqual(PNG);

    const image = await app.inject({ method: 'GET', url: '/account/me/avatar', ...withSession(token) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, no-cache');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload).toEqual(PNG);
    expect(await avatarAudits(user.id)).toEqual([{ actor_user_id: user.id, details: { contentType: 'image/png', size: PNG.length } }]);
  });

  it('replaces it with a JPEG (detected from its bytes, not its name) and removes the old file', async () => {
    const { user, token } = await signedInUser();
    await upload(token, '/account/me/profile/upload-avatar', fileBody(PNG));
    const oldKey = await avatarFileOf(user.id);
    const response = await upload(token, '/account/me/profile/upload-avatar', fileBody(JPEG, 'holiday.png', 'image/png'));
    expect(response.statusCode).toBe(200);
    const newKey = await avatarFileOf(user.id);
    expect(newKey).toMatch(/\.jpg$/);
    const files = await storedFiles();
    expect(files).toContain(newKey);
    expect(files).not.toContain(oldKey);

    const image = await app.inject({ method: 'GET', url: '/account/me/avatar', ...withSession(token) });
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload).toEqual(JPEG);
    expect(await avatarAudits(user.id)).toHaveLength(2);
  });

  const refused: [string, () => ReturnType<typeof multipart>, number, string][] = [
    ['a 1.1 MB file', () => fileBody(Buffer.concat([PNG, Buffer.alloc(Math.round(1.1 * 1024 * 1024))])), 413, 'file.tooLarge'],
    ['a text file named .png', () => fileBody('I am not an image, whatever my name says', 'avatar.png', 'image/png'), 415, 'file.unsupportedType'],
    ['an HTML page sent as an image', () => fileBody('<html><script>alert(1)</script></html>', 'x.jpg', 'image/jpeg'), 415, 'file.unsupportedType'],
    ['an empty file', () => fileBody(Buffer.alloc(0)), 400, 'file.missing'],
    ['a form without a file', () => multipart([{ name: 'note', content: 'no file here' }]), 400, 'file.missing'],
    ['a file under another field name', () => multipart([{ name: 'image', filename: 'a.png', contentType: 'image/png', content: PNG }]), 400, 'file.missing'],
  ];
  it.each(refused)('refuses %s and keeps the current avatar', async (_name, body, status, code) => {
    const { user, token } = await signedInUser();
    await upload(token, '/account/me/profile/upload-avatar', fileBody(PNG));
    const key = await avatarFileOf(user.id);
    const filesBefore = await storedFiles();

    const response = await upload(token, '/account/me/profile/upload-avatar', body());
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ resultCode: 500, code });
    expect(await avatarFileOf(user.id)).toBe(key);
    expect(await storedFiles()).toEqual(filesBefore);
    expect(await avatarAudits(user.id)).toHaveLength(1);
  });

  it('answers a JSON body with file.missing, and a caller without an avatar with 404', async () => {
    const { token } = await signedInUser();
    const json = await app.inject({ method: 'POST', url: '/account/me/profile/upload-avatar', payload: { file: 'aGVsbG8=' }, ...withSession(token) });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ code: 'file.missing', message: 'Please choose a file' });
    const none = await app.inject({ method: 'GET', url: '/account/me/avatar', ...withSession(token) });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'common.notFound' });
  });

  it('needs a session before reading anything', async () => {
    const body = fileBody(PNG);
    const response = await app.inject({ method: 'POST', url: '/account/me/profile/upload-avatar', payload: body.payload, headers: body.headers });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /account/avatar?username=…', () => {
  it('sets the caller’s own avatar when the username is theirs (email in any case, or phone)', async () => {
    const { user, token } = await signedInUser();
    const byEmail = await upload(token, `/account/avatar?username=${encodeURIComponent((user.email ?? '').toUpperCase())}`, fileBody(PNG));
    expect(byEmail.statusCode).toBe(200);
    const byPhone = await upload(token, `/account/avatar?username=${user.phone ?? ''}`, fileBody(JPEG));
    expect(byPhone.statusCode).toBe(200);
    expect(await avatarFileOf(user.id)).toMatch(/\.jpg$/);
  });

  it('answers another account’s username with 404 and touches neither account', async () => {
    const caller = await signedInUser();
    const other = await signedInUser('PATIENT', caller.tenantId);
    const response = await upload(caller.token, `/account/avatar?username=${encodeURIComponent(other.user.email ?? '')}`, fileBody(PNG));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'account.notFound' });
    expect(await avatarFileOf(other.user.id)).toBeNull();
    expect(await avatarFileOf(caller.user.id)).toBeNull();
  });
});

describe('POST /account/admin/user/adminUploadAvatarForUser and GET /account/user/{id}/avatar', () => {
  it('lets an administrator set and read the avatar of a user of the acting tenant', async () => {
    const admin = await signedInUser('ADMIN');
    const patient = await signedInUser('PATIENT', admin.tenantId);
    const response = await upload(admin.token, `/account/admin/user/adminUploadAvatarForUser?username=${patient.user.phone ?? ''}`, fileBody(PNG));
    expect(response.statusCode).toBe(200);
    expect(await avatarAudits(patient.user.id)).toEqual([expect.objectContaining({ actor_user_id: admin.user.id })]);

    const image = await app.inject({ method: 'GET', url: `/account/user/${patient.user.id}/avatar`, ...withSession(admin.token) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload).toEqual(PNG);
    // The patient sees the same picture as their own.
    expect((await app.inject({ method: 'GET', url: '/account/me/avatar', ...withSession(patient.token) })).rawPayload).toEqual(PNG);
  });

  it('audits reading a patient account’s avatar as a read of that patient, and a staff avatar not at all', async () => {
    const admin = await signedInUser('ADMIN');
    const patientAccount = await signedInUser('PATIENT', admin.tenantId);
    const patient = await createPatient(testDb.database, admin.tenantId, { userId: patientAccount.user.id });
    const doctor = await signedInUser('DOCTOR', admin.tenantId);
    for (const user of [patientAccount.user, doctor.user]) {
      const uploaded = await upload(admin.token, `/account/admin/user/adminUploadAvatarForUser?username=${user.phone ?? ''}`, fileBody(PNG));
      expect(uploaded.statusCode).toBe(200);
    }
    const readsOf = (response: { headers: Record<string, unknown> }) =>
      asOwner<{ action: string; actor_user_id: string; subject_user_id: string | null; details: { patientIds?: string[] } }>(
        testDb.ownerUrl,
        'SELECT action, actor_user_id, subject_user_id, details FROM audit_log WHERE request_id = $1',
        [String(response.headers['x-request-id'])],
      );

    const patientImage = await app.inject({ method: 'GET', url: `/account/user/${patientAccount.user.id}/avatar`, ...withSession(admin.token) });
    expect(patientImage.statusCode).toBe(200);
    expect(await readsOf(patientImage)).toEqual([
      { action: 'PATIENT_AVATAR_VIEWED', actor_user_id: admin.user.id, subject_user_id: patientAccount.user.id, details: { patientIds: [patient.id] } },
    ]);
    const staffImage = await app.inject({ method: 'GET', url: `/account/user/${doctor.user.id}/avatar`, ...withSession(admin.token) });
    expect(staffImage.statusCode).toBe(200);
    expect(await readsOf(staffImage)).toEqual([]);
  });

  it('answers another tenant’s user with 404 on upload and on read, leaving their avatar as it was', async () => {
    const admin = await signedInUser('ADMIN');
    const outsider = await signedInUser('PATIENT');
    await upload(outsider.token, '/account/me/profile/upload-avatar', fileBody(JPEG));
    const key = await avatarFileOf(outsider.user.id);

    const uploadResponse = await upload(admin.token, `/account/admin/user/adminUploadAvatarForUser?username=${encodeURIComponent(outsider.user.email ?? '')}`, fileBody(PNG));
    expect(uploadResponse.statusCode).toBe(404);
    expect(uploadResponse.json()).toMatchObject({ code: 'account.notFound' });
    expect(await avatarFileOf(outsider.user.id)).toBe(key);

    const read = await app.inject({ method: 'GET', url: `/account/user/${outsider.user.id}/avatar`, ...withSession(admin.token) });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toMatchObject({ code: 'account.notFound' });
  });

  it('refuses roles without user.update or user.view', async () => {
    const patient = await signedInUser('PATIENT');
    const other = await signedInUser('PATIENT', patient.tenantId);
    const uploadResponse = await upload(patient.token, `/account/admin/user/adminUploadAvatarForUser?username=${other.user.phone ?? ''}`, fileBody(PNG));
    expect(uploadResponse.statusCode).toBe(403);
    expect(uploadResponse.json()).toMatchObject({ code: 'auth.permissionDenied' });
    expect(await avatarFileOf(other.user.id)).toBeNull();
    const read = await app.inject({ method: 'GET', url: `/account/user/${other.user.id}/avatar`, ...withSession(patient.token) });
    expect(read.statusCode).toBe(403);
  });

  it('refuses a missing username and a malformed user id with field errors', async () => {
    const admin = await signedInUser('ADMIN');
    const noUsername = await upload(admin.token, '/account/admin/user/adminUploadAvatarForUser', fileBody(PNG));
    expect(noUsername.json()).toMatchObject({ code: 'common.invalidParameter', fieldErrors: [expect.objectContaining({ field: 'querystring.username' })] });
    const badId = await app.inject({ method: 'GET', url: '/account/user/123/avatar', ...withSession(admin.token) });
    expect(badId.statusCode).toBe(400);
  });
});
