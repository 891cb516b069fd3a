import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TENANT_SETTING_KEYS, type TenantDetail, type TenantListItem } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { findPlatformTenant } from './store.js';
import { dataOf, errorOf, staffSession, tenantSession } from './test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
let home: { id: string; code: string };
let superAdmin: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-tenants-'));
  app = await createTestApp(testDb.database, { dataDir });
  home = await createTenant(testDb.database);
  superAdmin = (await staffSession(app, testDb, 'SUPER_ADMIN', home.code)).token;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
const post = (url: string, payload: unknown, token = superAdmin) => app.inject({ method: 'POST', url, payload: payload as object, ...withSession(token) });
const put = (url: string, payload: unknown, token = superAdmin) => app.inject({ method: 'PUT', url, payload: payload as object, ...withSession(token) });
const get = (url: string, token = superAdmin) => app.inject({ url, ...withSession(token) });
const tenantCount = async () => (await asOwner<{ n: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS n FROM tenants'))[0]?.n;

async function createViaApi(extra: Record<string, unknown> = {}) {
  const code = `c-${unique()}`;
  return dataOf<TenantDetail>(await post('/manage/sadmin/tenant', { name: `Clinic ${code}`, code, ...extra }));
}

describe('creating tenants', () => {
  it('creates a tenant with settings and a first admin, who sets a password with the emailed code and logs in', async () => {
    const code = `north-${unique()}`;
    const email = `${code}@admin.example`;
    const created = dataOf<TenantDetail>(
      await post('/manage/sadmin/tenant', { name: `North ${code}`, code: code.toUpperCase(), officialName: 'North Health JSC', settings: { COLOR: '#112233', LANGUAGE: 'vi', TAX_RATE: '8.5' }, admin: { email, firstName: 'Lan', lastName: 'Tran' } }),
    );
    expect(created).toMatchObject({ code, name: `North ${code}`, officialName: 'North Health JSC', status: 'ACTIVE', connectionType: 'SHARED', counts: { admins: 1, doctors: 0, healthCenters: 0, patients: 0 } });
    const settings = Object.fromEntries(created.settings.map((setting) => [setting.key, setting.value]));
    expect(settings).toMatchObject({ COLOR: '#112233', LANGUAGE: 'vi', TAX_RATE: '8.5', UNIT_SYSTEM: 'metric' });

    const [welcome] = await asOwner<{ subject: string; body: string; purpose: string }>(testDb.ownerUrl, 'SELECT subject, body, purpose FROM outbox_messages WHERE tenant_id = $1 AND recipient = $2', [created.id, email]);
    expect(welcome).toMatchObject({ subject: `North ${code}: tài khoản quản trị của bạn đã sẵn sàng`, purpose: 'TENANT_WELCOME' });
    expect(welcome?.body).toContain(`nhập mã tổ chức ${code}`);
    expect(welcome?.body).toContain('http://localhost:80/forgot-password');
    const otp = /\b(\d{6})\b/.exec(welcome?.body ?? '')?.[1] ?? '';
    const reset = await app.inject({ method: 'POST', url: '/account/forgot-password/reset', payload: { tenant: code, type: 'EMAIL', username: email, otp, newPassword: 'Brand#New2026' } });
    expect(reset.statusCode, reset.body).toBe(200);
    const token = await logIn(app, code, email, 'Brand#New2026');
    expect(dataOf<{ role: string; tenantId: string }>(await get('/auth/check-token', token))).toMatchObject({ role: 'ADMIN', tenantId: created.id });

    const audit = await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE tenant_id = $1 ORDER BY occurred_at, id', [created.id]);
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['TENANT_CREATED', 'USER_CREATED', 'ACCOUNT_PASSWORD_RESET']));
  });

  it('refuses a taken name (any case) or code, and a malformed code, storing nothing', async () => {
    const existing = await createViaApi();
    const before = await tenantCount();
    const duplicateName = await post('/manage/sadmin/tenant', { name: existing.name.toUpperCase(), code: `x-${unique()}` });
    expect(errorOf(duplicateName)).toMatchObject({ status: 409, code: 'tenant.nameExists', message: 'Tenant name already exists' });
    const duplicateCode = await post('/manage/sadmin/tenant', { name: `Other ${unique()}`, code: existing.code });
    expect(errorOf(duplicateCode)).toMatchObject({ status: 409, code: 'tenant.codeExists' });
    for (const code of ['-abc', 'a', 'ab_c', 'a b', 'x'.repeat(41), 'đà-nẵng']) {
      const response = await post('/manage/sadmin/tenant', { name: `Bad ${unique()}`, code });
      expect(errorOf(response), code).toMatchObject({ status: 400, code: 'common.invalidParameter', fieldErrors: [{ field: 'body.code' }] });
    }
    expect(errorOf(await post('/manage/sadmin/tenant', { name: ' ', code: `ok-${unique()}` }))).toMatchObject({ status: 400, fieldErrors: [{ field: 'body.name' }] });
    expect(await tenantCount()).toBe(before);
  });
});

describe('tenant settings', () => {
  it('refuses every key’s disallowed values with a field error per key, and changes nothing', async () => {
    const tenant = await createViaApi({ settings: { COLOR: '#abcdef' } });
    const bad = {
      COLOR: 'blue',
      FONT: '<script>',
      LOGO: 'javascript:alert(1)',
      PASSWORD_RULE: '{"minLength": 20, "maxLength": 10}',
      LANGUAGE: 'fr',
      UNIT_SYSTEM: 'nautical',
      THERMAL_UNIT: 'K',
      COUNTRY: '123',
      COUNTRY_CODE: '+84',
      DIAL_CODE: '84',
      ACID_URIC_UNIT: 'g/L',
      BLOOD_GLUCOSE_UNIT: 'umol/L',
      OCR_PRESCRIPTION_API_KEY: 'has spaces',
      ALLOW_WEB_SOS_POPUP: 'yes',
      APPOINTMENT_SMS: 'on',
      TAX_RATE: '101',
    };
    const response = await put(`/manage/sadmin/tenant/${tenant.id}/settings`, bad);
    const error = errorOf(response);
    expect(error).toMatchObject({ status: 400, code: 'common.invalidParameter' });
    expect(new Set(error.fieldErrors?.map((fieldError) => fieldError.field))).toEqual(new Set(Object.keys(bad).map((key) => `body.${key}`)));
    const more: [string, string][] = [['TAX_RATE', '-1'], ['TAX_RATE', '1e2'], ['PASSWORD_RULE', 'not json'], ['PASSWORD_RULE', '{"special": "abc"}'], ['NOT_A_KEY', 'x'], ['LATE_DATA_HORIZON_MINUTES', '4'], ['LATE_DATA_HORIZON_MINUTES', '1.5'], ['INTAKE_WINDOW_MINUTES', '4'], ['INTAKE_WINDOW_MINUTES', '241'], ['VITALS_COMPACT_AFTER_DAYS', '0'], ['VITALS_RETENTION_DAYS', '30'], ['VITALS_RETENTION_DAYS', '-1']];
    for (const [key, value] of more) {
      expect(errorOf(await put(`/manage/sadmin/tenant/${tenant.id}/settings`, { [key]: value })).status, `${key}=${value}`).toBe(400);
    }
    const stored = await asOwner<{ key: string; value: string }>(testDb.ownerUrl, 'SELECT key, value FROM tenant_settings WHERE tenant_id = $1', [tenant.id]);
    expect(stored).toEqual([{ key: 'COLOR', value: '#abcdef' }]);
  });

  it('stores allowed values, restores defaults with null, masks secrets and keeps them out of consoles and audit', async () => {
    const tenant = await createViaApi();
    const good = {
      COLOR: '#0a0', FONT: 'Be Vietnam Pro', LOGO: 'https://cdn.example/logo.png', ICON: '', LANGUAGE: 'vi', UNIT_SYSTEM: 'imperial', THERMAL_UNIT: 'F',
      COUNTRY: 'Canada', COUNTRY_CODE: 'CA', DIAL_CODE: '+1', ORGANIZATION_NAME: 'North Clinic', ACID_URIC_UNIT: 'mg/dL', BLOOD_GLUCOSE_UNIT: 'mmol/L',
      AI_CLOUD_TENANT_ID: 'ai-tenant-77', OCR_HEALTH_DEVICE_API_KEY: 'ocr-device-key-123456', OCR_PRESCRIPTION_API_KEY: 'ocr-rx-key-abcdef', ALLOW_WEB_SOS_POPUP: 'false', APPOINTMENT_SMS: 'true', TAX_RATE: '10', LATE_DATA_HORIZON_MINUTES: '45', NO_DATA_ALERT_MINUTES: '30', TIME_ZONE: 'America/Toronto', INTAKE_WINDOW_MINUTES: '60', VITALS_COMPACT_AFTER_DAYS: '3', VITALS_RETENTION_DAYS: '400',
      PASSWORD_RULE: JSON.stringify({ minLength: 10, maxLength: 40, lower: true, upper: true, digit: true, special: '!@#' }),
    };
    expect(Object.keys(good).sort()).toEqual([...TENANT_SETTING_KEYS].sort());
    const detail = dataOf<TenantDetail>(await put(`/manage/sadmin/tenant/${tenant.id}/settings`, good));
    const shown = Object.fromEntries(detail.settings.map((setting) => [setting.key, setting]));
    expect(shown.UNIT_SYSTEM).toMatchObject({ value: 'imperial', isDefault: false, isSecret: false });
    expect(shown.OCR_HEALTH_DEVICE_API_KEY).toMatchObject({ value: '****3456', isSecret: true });
    expect(JSON.stringify(detail)).not.toContain('ocr-rx-key');

    const cleared = dataOf<TenantDetail>(await put(`/manage/sadmin/tenant/${tenant.id}/settings`, { UNIT_SYSTEM: null }));
    expect(cleared.settings.find((setting) => setting.key === 'UNIT_SYSTEM')).toMatchObject({ value: 'metric', isDefault: true });

    const admin = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const consoleSettings = await get('/account/tenant/setting/getAll', await logIn(app, tenant.code, admin.email ?? ''));
    expect(consoleSettings.body).toContain('"TAX_RATE"');
    expect(consoleSettings.body).not.toContain('ocr-device-key');
    const audit = await asOwner<{ details: unknown }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_SETTINGS_UPDATED'`, [tenant.id]);
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('ocr-device-key');
  });
});

describe('listing and reading tenants', () => {
  it('pages, searches and sorts tenants, counting branches, admins, doctors and patients in each', async () => {
    const tag = unique();
    const first = await createViaApi({ name: `Zeta ${tag}` });
    const second = await createViaApi({ name: `alpha ${tag}` });
    await createHealthCenter(testDb.database, first.id);
    await createHealthCenter(testDb.database, first.id);
    await createTenantUser(testDb.database, first.id, { role: 'DOCTOR' });
    await createTenantUser(testDb.database, first.id, { role: 'MHSC_ADMIN' });
    await createTenantUser(testDb.database, first.id, { role: 'DOCTOR', deletedAt: new Date() });
    await createPatient(testDb.database, first.id);

    const byName = dataOf<{ items: TenantListItem[]; total: number }>(await get(`/manage/sadmin/tenant/all?search=${tag}&sort=name`));
    expect(byName.total).toBe(2);
    expect(byName.items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(byName.items[1]?.counts).toEqual({ healthCenters: 2, admins: 1, doctors: 1, patients: 1 });
    const newestFirst = dataOf<{ items: TenantListItem[] }>(await get(`/manage/sadmin/tenant/all?search=${tag}&sort=created&order=desc&size=1`));
    expect(newestFirst.items.map((item) => item.id)).toEqual([second.id]);
    const all = dataOf<{ items: TenantListItem[] }>(await get('/manage/sadmin/tenant/all?size=100'));
    expect(all.items.map((item) => item.code)).not.toContain('platform');
    expect(errorOf(await get('/manage/sadmin/tenant/all?sort=size'))).toMatchObject({ status: 400 });

    expect(dataOf<TenantDetail>(await get(`/manage/sadmin/tenant/${first.id}`))).toMatchObject({ id: first.id, counts: { healthCenters: 2 } });
  });

  it('updates identity, refuses a name clash, and keeps the platform tenant out of reach (404)', async () => {
    const tenant = await createViaApi();
    const other = await createViaApi();
    const changed = dataOf<TenantDetail>(await put(`/manage/sadmin/tenant/${tenant.id}`, { name: `Renamed ${unique()}`, officialName: 'Renamed Co', publicUrl: 'https://renamed.example', status: 'INACTIVE' }));
    expect(changed).toMatchObject({ officialName: 'Renamed Co', publicUrl: 'https://renamed.example', status: 'INACTIVE', code: tenant.code });
    expect(errorOf(await put(`/manage/sadmin/tenant/${tenant.id}`, { name: other.name.toLowerCase(), officialName: '', publicUrl: '', status: 'ACTIVE' }))).toMatchObject({ status: 409, code: 'tenant.nameExists' });
    const audit = await asOwner<{ details: { before: { status: string } } }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE tenant_id = $1 AND action = 'TENANT_UPDATED'`, [tenant.id]);
    expect(audit).toHaveLength(1);

    const platform = await findPlatformTenant(testDb.database.system);
    const identity = { name: 'Hijacked', officialName: '', publicUrl: '', status: 'ACTIVE' };
    expect(errorOf(await get(`/manage/sadmin/tenant/${platform.id}`))).toMatchObject({ status: 404, code: 'common.notFound' });
    expect(errorOf(await put(`/manage/sadmin/tenant/${platform.id}`, identity)).status).toBe(404);
    expect(errorOf(await put(`/manage/sadmin/tenant/${platform.id}/settings`, { COLOR: '#000000' })).status).toBe(404);
    expect(errorOf(await put(`/manage/sadmin/tenant/${platform.id}/connections`, { connectionType: 'SHARED' })).status).toBe(404);
    expect(errorOf(await get(`/manage/sadmin/tenant/${platform.id}/email-template/WELCOME`)).status).toBe(404);
    const [stored] = await asOwner<{ name: string }>(testDb.ownerUrl, 'SELECT name FROM tenants WHERE id = $1', [platform.id]);
    expect(stored?.name).toBe('Platform');
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenant_settings WHERE tenant_id = $1', [platform.id])).toEqual([]);
  });
});

describe('who may manage tenants', () => {
  it('refuses a tenant ADMIN and a DOCTOR (403) on every call, changing nothing', async () => {
    const tenant = await createViaApi();
    for (const role of ['ADMIN', 'DOCTOR'] as const) {
      const { token } = await tenantSession(app, testDb, home, role);
      const calls = [
        get('/manage/sadmin/tenant/all', token),
        get(`/manage/sadmin/tenant/${tenant.id}`, token),
        post('/manage/sadmin/tenant', { name: `Sneaky ${unique()}`, code: `s-${unique()}` }, token),
        put(`/manage/sadmin/tenant/${tenant.id}`, { name: 'Sneaky', officialName: '', publicUrl: '', status: 'ACTIVE' }, token),
        put(`/manage/sadmin/tenant/${tenant.id}/settings`, { COLOR: '#000000' }, token),
        get(`/manage/sadmin/tenant/${tenant.id}/connections`, token),
        put(`/manage/sadmin/tenant/${tenant.id}/connections`, { connectionType: 'SHARED' }, token),
        put(`/manage/sadmin/tenant/${tenant.id}/email-template/WELCOME`, { subject: 'x', body: 'y' }, token),
      ];
      for (const response of await Promise.all(calls)) expect(errorOf(response), `${role} ${response.body}`).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    }
    const [stored] = await asOwner<{ name: string }>(testDb.ownerUrl, 'SELECT name FROM tenants WHERE id = $1', [tenant.id]);
    expect(stored?.name).toBe(tenant.name);
  });

  it('lets a system admin see and change only the tenants assigned to them (404 otherwise), and not create tenants', async () => {
    const assigned = await createViaApi();
    const other = await createViaApi();
    const { token } = await staffSession(app, testDb, 'SYSTEM_ADMIN', assigned.code, [assigned.id]);
    const list = dataOf<{ items: TenantListItem[] }>(await get('/manage/sadmin/tenant/all?size=100', token));
    expect(list.items.map((item) => item.id)).toEqual([assigned.id]);
    expect(dataOf<TenantDetail>(await put(`/manage/sadmin/tenant/${assigned.id}/settings`, { COLOR: '#101010' }, token)).id).toBe(assigned.id);

    expect(errorOf(await get(`/manage/sadmin/tenant/${other.id}`, token))).toMatchObject({ status: 404, code: 'common.notFound' });
    expect(errorOf(await put(`/manage/sadmin/tenant/${other.id}/settings`, { COLOR: '#101010' }, token)).status).toBe(404);
    expect(errorOf(await put(`/manage/sadmin/tenant/${other.id}`, { name: 'Taken over', officialName: '', publicUrl: '', status: 'INACTIVE' }, token)).status).toBe(404);
    expect(errorOf(await get(`/manage/sadmin/tenant/${other.id}/connections`, token)).status).toBe(404);
    expect(errorOf(await post('/manage/sadmin/tenant', { name: `By sysadmin ${unique()}`, code: `sa-${unique()}` }, token))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    const [stored] = await asOwner<{ name: string; status: string }>(testDb.ownerUrl, 'SELECT name, status FROM tenants WHERE id = $1', [other.id]);
    expect(stored).toEqual({ name: other.name, status: 'ACTIVE' });
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM tenant_settings WHERE tenant_id = $1', [other.id])).toEqual([]);
  });
});
