import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { TENANT_LOOKUP_THROTTLE } from './service.js';
import { PNG, filePart, multipart, staffSession } from './test-support.js';

/**
 * The login pages find one tenant by its exact code or by the console's host; no call lists the
 * tenants to anyone, and an unknown code cannot be told from an inactive one.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
const clock = new ManualClock();
const suffix = () => randomBytes(4).toString('hex');
let addressCount = 0;
/** Each test calls from its own address, so their lookup counts do not meet. */
const newAddress = () => `10.20.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-public-lookup-'));
  app = await createTestApp(testDb.database, { dataDir }, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const byCode = (code: string, remoteAddress = newAddress()) =>
  app.inject({ url: `/manage/tenant/by-code/${encodeURIComponent(code)}`, remoteAddress });

/** The answer without the parts that differ per request (its id). */
const answerOf = (response: Awaited<ReturnType<typeof byCode>>) => {
  const { requestId: _requestId, ...body } = response.json<Record<string, unknown>>();
  return { status: response.statusCode, body };
};

describe('no public tenant list', () => {
  it('answers GET /manage/tenant/all with 404 to anyone without a session, and with a session too', async () => {
    await createTenant(testDb.database);
    const anonymous = await app.inject({ url: '/manage/tenant/all' });
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.json()).toMatchObject({ code: 'common.routeNotFound' });
    expect(anonymous.body).not.toContain('"name"');

    const tenant = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
    const token = await logIn(app, tenant.code, user.email ?? '');
    expect((await app.inject({ url: '/manage/tenant/all', ...withSession(token) })).statusCode).toBe(404);
  });
});

describe('GET /manage/tenant/by-code/:code', () => {
  it('names an active tenant found by its exact code (any case), with its logos and nothing else', async () => {
    const tenant = await createTenant(testDb.database, { name: `Clinic ${suffix()}`, logoSquareFile: 'logos/square.png' });
    const found = await byCode(tenant.code.toUpperCase());
    expect(found.statusCode).toBe(200);
    const data = found.json<{ data: Record<string, unknown> }>().data;
    expect(data).toEqual({
      code: tenant.code,
      name: tenant.name,
      logos: { square: expect.stringMatching(new RegExp(`^/manage/tenant/${tenant.code}/logo\\?kind=square&v=[0-9a-f]{12}$`)) as unknown },
    });
    expect(found.body).not.toContain(tenant.id);
  });

  it('answers unknown, inactive, platform and malformed codes exactly alike', async () => {
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE' });
    const active = await createTenant(testDb.database);
    const answers = [
      answerOf(await byCode(`no-such-${suffix()}`)),
      answerOf(await byCode(inactive.code)),
      answerOf(await byCode('platform')),
      answerOf(await byCode('%%')),
      answerOf(await byCode(`${active.code}x`)),
      answerOf(await byCode(active.code.slice(0, -1))),
    ];
    expect(answers[0]).toEqual({ status: 400, body: { resultCode: 500, code: 'tenant.notFound', message: 'Wrong tenant or tenant code' } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it('refuses every lookup from an address after 30 unknown codes in 15 minutes; found codes do not count', async () => {
    const tenant = await createTenant(testDb.database);
    const address = newAddress();
    for (let index = 0; index < TENANT_LOOKUP_THROTTLE.misses + 5; index++) expect((await byCode(tenant.code, address)).statusCode).toBe(200);
    for (let index = 0; index < TENANT_LOOKUP_THROTTLE.misses; index++) expect((await byCode(`guess-${index}`, address)).statusCode).toBe(400);

    const refused = await byCode(tenant.code, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'tenant.lookupThrottled' });
    expect(refused.body).not.toContain(tenant.name);
    // Another address is not affected.
    expect((await byCode(tenant.code)).statusCode).toBe(200);

    clock.advance(15 * MINUTE + 1);
    expect((await byCode(tenant.code, address)).statusCode).toBe(200);
  });
});

describe('GET /manage/tenant/:code/logo', () => {
  const logo = (code: string, kind: string, remoteAddress: string) =>
    app.inject({ url: `/manage/tenant/${encodeURIComponent(code)}/logo?kind=${kind}`, remoteAddress });

  /** An active tenant with a square logo (and no horizontal one). */
  async function tenantWithLogo() {
    const tenant = await createTenant(testDb.database);
    const { token } = await staffSession(app, testDb, 'SUPER_ADMIN', tenant.code);
    const body = multipart([filePart('file', PNG)]);
    const uploaded = await app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenant.id}/logo?kind=square`, ...body, ...withSession(token) });
    expect(uploaded.statusCode).toBe(200);
    return tenant;
  }

  it('counts every miss against the address’s lookup throttle, with by-code misses; images found cost nothing', async () => {
    const tenant = await tenantWithLogo();
    const inactive = await createTenant(testDb.database, { status: 'INACTIVE', logoSquareFile: 'logos/square.png' });
    const address = newAddress();
    for (let index = 0; index < TENANT_LOOKUP_THROTTLE.misses + 5; index++) {
      const image = await logo(tenant.code, 'square', address);
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(PNG)).toBe(true);
    }

    // Unknown and inactive codes, and a tenant without that image, answer alike; each is a miss.
    const missed = [
      answerOf(await logo(`no-such-${suffix()}`, 'square', address)),
      answerOf(await logo(inactive.code, 'square', address)),
      answerOf(await logo('platform', 'square', address)),
      answerOf(await logo(tenant.code, 'horizontal', address)),
    ];
    expect(missed[0]).toEqual({ status: 404, body: { resultCode: expect.any(Number) as unknown, code: 'common.notFound', message: expect.any(String) as unknown } });
    for (const answer of missed) expect(answer).toEqual(missed[0]);
    const half = TENANT_LOOKUP_THROTTLE.misses / 2;
    for (let index = missed.length; index < half; index++) expect((await logo(`guess-${index}`, 'square', address)).statusCode).toBe(404);
    for (let index = half; index < TENANT_LOOKUP_THROTTLE.misses; index++) expect((await byCode(`guess-${index}`, address)).statusCode).toBe(400);

    // Throttled: the image and the lookup are refused alike, found or not.
    const refused = await logo(tenant.code, 'square', address);
    expect(answerOf(refused)).toEqual(answerOf(await byCode(tenant.code, address)));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'tenant.lookupThrottled' });
    expect((await logo(`no-such-${suffix()}`, 'square', address)).statusCode).toBe(429);
    // Another address is not affected.
    expect((await logo(tenant.code, 'square', newAddress())).statusCode).toBe(200);

    clock.advance(15 * MINUTE + 1);
    expect((await logo(tenant.code, 'square', address)).statusCode).toBe(200);
  });

  it('stops guessing codes through logos alone after 30 misses', async () => {
    const tenant = await tenantWithLogo();
    const address = newAddress();
    for (let index = 0; index < TENANT_LOOKUP_THROTTLE.misses; index++) expect((await logo(`guess-${index}`, 'square', address)).statusCode).toBe(404);
    expect((await logo(tenant.code, 'square', address)).statusCode).toBe(429);
    expect((await byCode(tenant.code, address)).statusCode).toBe(429);
  });
});

describe('GET /manage/tenant/by-host', () => {
  it('names the active tenant whose public URL has the request’s host, and no one otherwise', async () => {
    const host = `clinic-${suffix()}.example`;
    const tenant = await createTenant(testDb.database, { publicUrl: `https://${host}/console` });
    const found = await app.inject({ url: '/manage/tenant/by-host', headers: { host: host.toUpperCase() } });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ data: { code: tenant.code, name: tenant.name, logos: {} } });

    const withPort = `clinic-${suffix()}.example:8443`;
    const onPort = await createTenant(testDb.database, { publicUrl: `https://${withPort}` });
    expect((await app.inject({ url: '/manage/tenant/by-host', headers: { host: withPort } })).json()).toMatchObject({ data: { code: onPort.code } });

    const inactiveHost = `gone-${suffix()}.example`;
    await createTenant(testDb.database, { publicUrl: `https://${inactiveHost}`, status: 'INACTIVE' });
    for (const other of [inactiveHost, 'localhost', `x.${host}`, withPort.replace(':8443', '')]) {
      const answer = await app.inject({ url: '/manage/tenant/by-host', headers: { host: other } });
      expect({ other, status: answer.statusCode, data: answer.json<{ data: unknown }>().data }).toEqual({ other, status: 200, data: null });
    }
  });
});
