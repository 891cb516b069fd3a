import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantRequest } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { startMailCatcher, type MailCatcher } from '../messaging/mail-catcher.js';
import { findPlatformTenant } from '../tenants/store.js';
import { BIG_PNG, JPEG, PNG, dataOf, errorOf, filePart, multipart, staffSession, tenantSession, type Part } from '../tenants/test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let mail: MailCatcher;
let dataDir: string;
let superAdmin: { token: string; userId: string };
let home: { id: string; code: string };
beforeAll(async () => {
  testDb = await createTestDatabase();
  mail = await startMailCatcher();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-trials-'));
  app = await createTestApp(testDb.database, { dataDir, smtpUrl: mail.url });
  home = await createTenant(testDb.database);
  const staff = await staffSession(app, testDb, 'SUPER_ADMIN', home.code);
  superAdmin = { token: staff.token, userId: staff.user.id };
});
afterAll(async () => {
  await app.close();
  await mail.stop();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const tag = () => randomBytes(4).toString('hex');

function formFields(overrides: Record<string, string> = {}) {
  const id = tag();
  return {
    organizationName: `Sunrise Clinic ${id}`,
    officialName: 'Sunrise Clinic Co., Ltd',
    requestedCode: `sunrise-${id}`,
    requesterName: 'Minh Pham',
    email: `minh-${id}@sunrise.example`,
    phone: '0981234567',
    primaryColor: '#FF8800',
    message: 'We run three clinics.',
    language: 'en',
    ...overrides,
  };
}

const textParts = (fields: Record<string, string>): Part[] => Object.entries(fields).map(([name, content]) => ({ name, content }));
const bothLogos = () => [filePart('logoSquare', PNG, 'square.png'), filePart('logoHorizontal', PNG, 'wide.png')];
const submit = (parts: Part[], ip = newIp()) => app.inject({ method: 'POST', url: '/manage/tenant-request', remoteAddress: ip, ...multipart(parts) });
const asSuperAdmin = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }), ...withSession(superAdmin.token) });

async function submitted(overrides: Record<string, string> = {}) {
  const fields = formFields(overrides);
  const { id } = dataOf<{ id: string }>(await submit([...textParts(fields), ...bothLogos()]));
  return { id, fields };
}
const requestFiles = async () => {
  const platform = await findPlatformTenant(testDb.database.system);
  return (await readdir(path.join(dataDir, 'files', platform.id, 'trialrequests')).catch(() => [])).filter((name) => !name.endsWith('.part'));
};
const requestCount = async () => (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM tenant_requests'))[0]?.n ?? 0;

describe('submitting a trial request (public)', () => {
  it('stores a NEW request with both logos, which platform staff can read', async () => {
    const { id, fields } = await submitted();
    const request = dataOf<TenantRequest>(await asSuperAdmin('GET', `/manage/sadmin/tenant-request/${id}`));
    expect(request).toMatchObject({ status: 'NEW', type: 'TRIAL', organizationName: fields.organizationName, requestedCode: fields.requestedCode, email: fields.email, primaryColor: '#FF8800', rejectionReason: null });
    const logo = await asSuperAdmin('GET', request.logos.square);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const list = dataOf<{ items: TenantRequest[]; total: number }>(await asSuperAdmin('GET', `/manage/sadmin/tenant-request?status=NEW&search=${fields.requestedCode}`));
    expect(list).toMatchObject({ total: 1, items: [{ id }] });
    expect(dataOf<{ total: number }>(await asSuperAdmin('GET', `/manage/sadmin/tenant-request?status=REJECTED&search=${fields.requestedCode}`)).total).toBe(0);
    const platform = await findPlatformTenant(testDb.database.system);
    expect(await asOwner(testDb.ownerUrl, `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_REQUEST_SUBMITTED' AND target_id = $2`, [platform.id, id])).toHaveLength(1);
  });

  it('refuses missing, non-PNG and oversized logos and bad fields, keeping neither a row nor a file', async () => {
    const filesBefore = (await requestFiles()).length;
    const countBefore = await requestCount();
    const fields = textParts(formFields());
    const cases: [string, Part[], number, string, string[]][] = [
      ['no logos', fields, 400, 'file.missing', ['body.logoSquare', 'body.logoHorizontal']],
      ['one logo', [...fields, filePart('logoSquare', PNG)], 400, 'file.missing', ['body.logoHorizontal']],
      ['a JPEG logo', [...fields, filePart('logoSquare', PNG), filePart('logoHorizontal', JPEG, 'wide.png')], 415, 'file.unsupportedType', ['body.logoHorizontal']],
      ['a logo over 1 MB', [...fields, filePart('logoSquare', BIG_PNG), filePart('logoHorizontal', PNG)], 413, 'file.tooLarge', ['body.logoSquare']],
      ['a bad email and code', [...textParts(formFields({ email: 'not-an-email', requestedCode: '-bad code' })), ...bothLogos()], 400, 'common.invalidParameter', ['body.requestedCode', 'body.email']],
      ['no organization', [...textParts({ ...formFields(), organizationName: '' }), ...bothLogos()], 400, 'common.invalidParameter', ['body.organizationName']],
    ];
    for (const [label, parts, status, code, fieldsNamed] of cases) {
      const error = errorOf(await submit(parts));
      expect(error, label).toMatchObject({ status, code });
      expect(new Set(error.fieldErrors?.map((fieldError) => fieldError.field)), label).toEqual(new Set(fieldsNamed));
    }
    expect(errorOf(await app.inject({ method: 'POST', url: '/manage/tenant-request', payload: formFields() })).status).toBe(415);
    expect(await requestCount()).toBe(countBefore);
    expect(await requestFiles()).toHaveLength(filesBefore);
  });

  it('says at once when the requested name or code is taken', async () => {
    const taken = await createTenant(testDb.database);
    expect(errorOf(await submit([...textParts(formFields({ requestedCode: taken.code })), ...bothLogos()]))).toMatchObject({ status: 409, code: 'tenant.codeExists' });
    expect(errorOf(await submit([...textParts(formFields({ organizationName: taken.name.toUpperCase() })), ...bothLogos()]))).toMatchObject({ status: 409, code: 'tenant.nameExists' });
  });

  it('limits one address to 10 requests an hour (429)', async () => {
    const ip = newIp();
    for (let index = 0; index < 10; index++) expect((await submit([...textParts(formFields()), ...bothLogos()], ip)).statusCode).toBe(200);
    expect(errorOf(await submit([...textParts(formFields()), ...bothLogos()], ip))).toMatchObject({ status: 429, code: 'common.tooManyRequests' });
    expect((await submit([...textParts(formFields()), ...bothLogos()])).statusCode).toBe(200);
  });
});

describe('deciding a trial request', () => {
  it('approves: creates the tenant with the logos and color, its admin receives a set-password email (en) and logs in', async () => {
    const { id, fields } = await submitted();
    const approved = dataOf<TenantRequest>(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/approve`, {}));
    expect(approved).toMatchObject({ status: 'APPROVED', decidedBy: superAdmin.userId });
    const tenantId = approved.createdTenantId ?? '';
    const [tenant] = await asOwner<{ code: string; name: string; square: string | null; horizontal: string | null }>(
      testDb.ownerUrl,
      'SELECT code, name, logo_square_file AS square, logo_horizontal_file AS horizontal FROM tenants WHERE id = $1',
      [tenantId],
    );
    expect(tenant).toMatchObject({ code: fields.requestedCode, name: fields.organizationName });
    expect(tenant?.square).toMatch(new RegExp(`^${tenantId}/logos/`));
    expect(tenant?.horizontal).toMatch(new RegExp(`^${tenantId}/logos/`));
    const settings = await asOwner<{ key: string; value: string }>(testDb.ownerUrl, `SELECT key, value FROM tenant_settings WHERE tenant_id = $1 AND key IN ('COLOR', 'LANGUAGE')`, [tenantId]);
    expect(Object.fromEntries(settings.map((row) => [row.key, row.value]))).toEqual({ COLOR: '#FF8800', LANGUAGE: 'en' });
    expect((await app.inject(`/manage/tenant/${fields.requestedCode}/logo?kind=horizontal`)).statusCode).toBe(200);

    const welcome = await mail.waitFor((message) => message.to.includes(fields.email));
    expect(welcome.subject).toBe(`${fields.organizationName}: your administrator account is ready`);
    expect(welcome.text).toContain(`Hello Minh Pham,`);
    expect(welcome.text).toContain(`enter the tenant code ${fields.requestedCode} and your email ${fields.email}`);
    expect(welcome.text).toContain('http://localhost:80/forgot-password');
    const otp = /\b(\d{6})\b/.exec(welcome.text)?.[1] ?? '';
    const reset = await app.inject({ method: 'POST', url: '/account/forgot-password/reset', payload: { tenant: fields.requestedCode, type: 'EMAIL', username: fields.email, otp, newPassword: 'Trial#Start2026' } });
    expect(reset.statusCode, reset.body).toBe(200);
    const token = await logIn(app, fields.requestedCode, fields.email, 'Trial#Start2026');
    expect(dataOf(await app.inject({ url: '/auth/check-token', ...withSession(token) }))).toMatchObject({ role: 'ADMIN', tenantId });

    const audit = await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE tenant_id = $1', [tenantId]);
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['TENANT_CREATED', 'USER_CREATED', 'TENANT_REQUEST_APPROVED']));
    // Decided once: a second decision of either kind is refused and changes nothing.
    expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/approve`, {}))).toMatchObject({ status: 409, code: 'tenantRequest.alreadyDecided' });
    expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/reject`, { reason: 'Too late' }))).toMatchObject({ status: 409, code: 'tenantRequest.alreadyDecided' });
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenants WHERE code = $1', [fields.requestedCode])).toHaveLength(1);
  });

  it('sends the approval email in Vietnamese to a Vietnamese requester, and accepts a corrected code', async () => {
    const taken = await createTenant(testDb.database);
    const { id, fields } = await submitted({ language: 'vi' });
    await asOwner(testDb.ownerUrl, 'UPDATE tenant_requests SET requested_code = $1 WHERE id = $2', [taken.code, id]);
    expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/approve`, {}))).toMatchObject({ status: 409, code: 'tenant.codeExists' });
    const code = `fixed-${tag()}`;
    expect(dataOf<TenantRequest>(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/approve`, { code })).status).toBe('APPROVED');
    const welcome = await mail.waitFor((message) => message.to.includes(fields.email));
    expect(welcome.subject).toBe(`${fields.organizationName}: tài khoản quản trị của bạn đã sẵn sàng`);
    expect(welcome.text).toContain(`Xin chào Minh Pham,`);
    expect(welcome.text).toContain(`nhập mã tổ chức ${code}`);
  });

  it('rejects with a required reason, emailed to the requester in their language (vi and en)', async () => {
    for (const [language, subject, reasonLine] of [
      ['vi', 'Yêu cầu dùng thử cho', 'Lý do: Thiếu giấy phép hoạt động'],
      ['en', 'Your trial request for', 'Reason: Thiếu giấy phép hoạt động'],
    ] as const) {
      const { id, fields } = await submitted({ language });
      expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/reject`, { reason: '   ' }))).toMatchObject({ status: 400, code: 'common.invalidParameter' });
      expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/reject`, {})).status).toBe(400);
      const rejected = dataOf<TenantRequest>(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/reject`, { reason: 'Thiếu giấy phép hoạt động' }));
      expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'Thiếu giấy phép hoạt động', decidedBy: superAdmin.userId, createdTenantId: null });
      const email = await mail.waitFor((message) => message.to.includes(fields.email));
      expect(email.subject).toBe(`${subject} ${fields.organizationName}`);
      expect(email.text).toContain(reasonLine);
      expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/reject`, { reason: 'again' }))).toMatchObject({ status: 409, code: 'tenantRequest.alreadyDecided' });
      expect(errorOf(await asSuperAdmin('POST', `/manage/sadmin/tenant-request/${id}/approve`, {}))).toMatchObject({ status: 409, code: 'tenantRequest.alreadyDecided' });
      expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenants WHERE code = $1', [fields.requestedCode])).toEqual([]);
    }
    const platform = await findPlatformTenant(testDb.database.system);
    expect((await asOwner(testDb.ownerUrl, `SELECT 1 FROM outbox_messages WHERE tenant_id = $1 AND purpose = 'TENANT_REQUEST_REJECTED'`, [platform.id])).length).toBeGreaterThanOrEqual(2);
  });

  it('is refused to tenant roles (403), lets a system admin read but not approve, and answers 404 for an unknown request', async () => {
    const { id } = await submitted();
    for (const role of ['ADMIN', 'DOCTOR'] as const) {
      const { token } = await tenantSession(app, testDb, home, role);
      for (const response of [
        await app.inject({ url: '/manage/sadmin/tenant-request', ...withSession(token) }),
        await app.inject({ url: `/manage/sadmin/tenant-request/${id}`, ...withSession(token) }),
        await app.inject({ method: 'POST', url: `/manage/sadmin/tenant-request/${id}/approve`, payload: {}, ...withSession(token) }),
        await app.inject({ method: 'POST', url: `/manage/sadmin/tenant-request/${id}/reject`, payload: { reason: 'x' }, ...withSession(token) }),
      ]) {
        expect(errorOf(response), role).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
      }
    }
    const systemAdmin = await staffSession(app, testDb, 'SYSTEM_ADMIN', home.code, [home.id]);
    expect((await app.inject({ url: `/manage/sadmin/tenant-request/${id}`, ...withSession(systemAdmin.token) })).statusCode).toBe(200);
    expect(errorOf(await app.inject({ method: 'POST', url: `/manage/sadmin/tenant-request/${id}/approve`, payload: {}, ...withSession(systemAdmin.token) }))).toMatchObject({ status: 403 });
    const [row] = await asOwner<{ status: string }>(testDb.ownerUrl, 'SELECT status FROM tenant_requests WHERE id = $1', [id]);
    expect(row?.status).toBe('NEW');
    expect(errorOf(await asSuperAdmin('POST', '/manage/sadmin/tenant-request/01890000-0000-7000-8000-000000000000/approve', {})).status).toBe(404);
  });
});
