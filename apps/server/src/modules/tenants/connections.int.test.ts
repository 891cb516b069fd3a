import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantConnections, TenantDetail, TenantListItem } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { TEST_SECRETS_KEY_HEX } from '../../../test/test-config.js';
import { connectDatabase, type Database } from '../../db/database.js';
import { users } from '../../db/schema.js';
import { migrateDedicatedTenants } from './connections.js';
import { dedicatedSetOn, tenantServers, type TenantServer } from './dedicated-support.js';
import { dataOf, errorOf, staffSession } from './test-support.js';

let testDb: TestDatabase;
/** The app's database, given the secrets key so that it can open dedicated tenants' passwords. */
let database: Database;
let app: FastifyInstance;
let dataDir: string;
let superAdmin: string;
let actingTenantCode: string;
const servers = tenantServers();
/** This test's own server (a login role that is no superuser, owning a primary and a vitals database). */
let server: TenantServer;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = connectDatabase(testDb.appUrl, { maxConnections: 5, secretsKey: Buffer.from(TEST_SECRETS_KEY_HEX, 'hex') });
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-connections-'));
  app = await createTestApp(database, { dataDir });
  actingTenantCode = (await createTenant(database)).code;
});
// A super admin of their own for each test: tests and saves are limited per caller.
beforeEach(async () => {
  superAdmin = (await staffSession(app, { ...testDb, database }, 'SUPER_ADMIN', actingTenantCode)).token;
  server = await servers.create();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
  await servers.dropAll();
});

const primaryOwnerUrl = () => server.primaryOwnerUrl;
const dedicatedSet = (overrides: Parameters<typeof dedicatedSetOn>[1] = {}) => dedicatedSetOn(server, overrides);
const put = (tenantId: string, payload: unknown, token = superAdmin) =>
  app.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${tenantId}/connections`, payload: payload as object, ...withSession(token) });
const test = (tenantId: string, payload: unknown) =>
  app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenantId}/connections/test`, payload: payload as object, ...withSession(superAdmin) });
const newTenant = async () => {
  const code = `d-${randomBytes(4).toString('hex')}`;
  return dataOf<TenantDetail>(await app.inject({ method: 'POST', url: '/manage/sadmin/tenant', payload: { name: `Dedicated ${code}`, code }, ...withSession(superAdmin) }));
};
const storedState = async (tenantId: string) => ({
  type: (await asOwner<{ connection_type: string }>(testDb.ownerUrl, 'SELECT connection_type FROM tenants WHERE id = $1', [tenantId]))[0]?.connection_type,
  connections: await asOwner(testDb.ownerUrl, 'SELECT kind FROM tenant_connections WHERE tenant_id = $1', [tenantId]),
});

describe('a DEDICATED tenant', () => {
  it('lives in its own database: its rows exist only there, a SHARED tenant’s only in the platform database', async () => {
    const dedicated = await newTenant();
    const shared = await newTenant();
    expect(dataOf(await test(dedicated.id, dedicatedSet()))).toMatchObject({ connections: [{ kind: 'primary', isReachable: true }, { kind: 'replica', isReachable: true }, { kind: 'vitals', isReachable: true }] });
    const saved = await put(dedicated.id, dedicatedSet());
    expect(dataOf<TenantConnections>(saved)).toMatchObject({ connectionType: 'DEDICATED', connections: [{ kind: 'primary', database: server.primary, user: server.role, hasPassword: true }, { kind: 'replica' }, { kind: 'vitals', database: server.vitals }] });
    expect(saved.body).not.toContain(server.password);

    // Rows made through withTenant and through the API (login runs on the tenant's own database).
    const person = await createTenantUser(database, dedicated.id, { role: 'DOCTOR' });
    const center = await createHealthCenter(database, dedicated.id);
    await createPatient(database, dedicated.id, { healthCenterId: center.id });
    const sharedPerson = await createTenantUser(database, shared.id, { role: 'DOCTOR' });
    const token = await logIn(app, dedicated.code, person.email ?? '');
    expect(dataOf<{ userId: string; tenantId: string }>(await app.inject({ url: '/auth/check-token', ...withSession(token) }))).toEqual(expect.objectContaining({ userId: person.id, tenantId: dedicated.id }));

    const inPrimary = await asOwner<{ tenant_id: string; id: string }>(primaryOwnerUrl(), 'SELECT tenant_id, id FROM users');
    expect(inPrimary).toEqual([{ tenant_id: dedicated.id, id: person.id }]);
    expect(await asOwner(primaryOwnerUrl(), 'SELECT 1 FROM patients WHERE tenant_id = $1', [dedicated.id])).toHaveLength(1);
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM users WHERE tenant_id = $1', [dedicated.id])).toEqual([]);
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM patients WHERE tenant_id = $1', [dedicated.id])).toEqual([]);
    expect(await asOwner(testDb.ownerUrl, 'SELECT id FROM users WHERE tenant_id = $1', [shared.id])).toEqual([{ id: sharedPerson.id }]);
    expect(await asOwner(primaryOwnerUrl(), 'SELECT 1 FROM users WHERE tenant_id = $1', [shared.id])).toEqual([]);
    // Its history continues there too; the login audit row is in its own database.
    const audit = await asOwner<{ action: string }>(primaryOwnerUrl(), 'SELECT action FROM audit_log WHERE tenant_id = $1', [dedicated.id]);
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['TENANT_CONNECTIONS_UPDATED', 'ACCOUNT_LOGIN']));

    // Counts for the super admin come from each tenant's own database.
    const listed = dataOf<{ items: TenantListItem[] }>(await app.inject({ url: `/manage/sadmin/tenant/all?search=${dedicated.code}`, ...withSession(superAdmin) }));
    expect(listed.items[0]).toMatchObject({ connectionType: 'DEDICATED', counts: { doctors: 1, healthCenters: 1, patients: 1 } });
  });

  it('keeps its time zone in its own database, where its patients’ local days are computed', async () => {
    const dedicated = await newTenant();
    expect((await put(dedicated.id, dedicatedSet())).statusCode).toBe(200);
    const setZone = (zone: string | null) =>
      app.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${dedicated.id}/settings`, payload: { TIME_ZONE: zone }, ...withSession(superAdmin) });
    const zoneThere = async () => (await asOwner<{ zone: string }>(primaryOwnerUrl(), 'SELECT tenant_time_zone($1) AS zone', [dedicated.id]))[0]?.zone;
    expect(await zoneThere()).toBe('Asia/Ho_Chi_Minh');
    expect((await setZone('America/Toronto')).statusCode).toBe(200);
    expect(await zoneThere()).toBe('America/Toronto');
    expect((await setZone(null)).statusCode).toBe(200);
    expect(await zoneThere()).toBe('Asia/Ho_Chi_Minh');
  });

  it('takes its time zone along when it moves to its own database', async () => {
    const code = `z-${randomBytes(4).toString('hex')}`;
    const created = await app.inject({ method: 'POST', url: '/manage/sadmin/tenant', payload: { name: `Zoned ${code}`, code, settings: { TIME_ZONE: 'America/Toronto' } }, ...withSession(superAdmin) });
    const zoned = dataOf<TenantDetail>(created);
    expect(zoned.settings.find((setting) => setting.key === 'TIME_ZONE')?.value).toBe('America/Toronto');
    expect((await put(zoned.id, dedicatedSet())).statusCode).toBe(200);
    const stored = await asOwner<{ value: string }>(primaryOwnerUrl(), `SELECT value FROM tenant_settings WHERE tenant_id = $1 AND key = 'TIME_ZONE'`, [zoned.id]);
    expect(stored).toEqual([{ value: 'America/Toronto' }]);
    expect((await asOwner<{ zone: string }>(primaryOwnerUrl(), 'SELECT tenant_time_zone($1) AS zone', [zoned.id]))[0]?.zone).toBe('America/Toronto');
  });

  it('keeps row level security on its own database: the tenant runs as a non-superuser owner and sees no other tenant', async () => {
    const dedicated = await newTenant();
    const other = await newTenant();
    expect((await put(dedicated.id, dedicatedSet())).statusCode).toBe(200);
    const mine = await createTenantUser(database, dedicated.id);
    // Another tenant's rows planted in the same database by its owner.
    await asOwner(primaryOwnerUrl(), `INSERT INTO tenants (id, code, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [other.id, other.code, other.name]);
    await asOwner(primaryOwnerUrl(), `INSERT INTO users (tenant_id, id, email, first_name, last_name, role) VALUES ($1, gen_random_uuid(), 'planted@x.example', 'P', 'X', 'DOCTOR')`, [other.id]);

    const seen = await database.withTenant(dedicated.id, async (tx) => ({
      role: (await tx.execute<{ name: string; super: boolean }>(sql`SELECT current_user AS name, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS super`)).rows[0],
      users: await tx.select({ id: users.id, tenantId: users.tenantId }).from(users),
    }));
    expect(seen.role).toEqual({ name: server.role, super: false });
    expect(seen.users.map((user) => user.tenantId)).not.toContain(other.id);
    expect(seen.users.map((user) => user.id)).toContain(mine.id);
  });

  it('stores passwords sealed, never returns them, and may change credentials of the same database while it holds data', async () => {
    const dedicated = await newTenant();
    expect((await put(dedicated.id, dedicatedSet())).statusCode).toBe(200);
    await createTenantUser(database, dedicated.id);
    const stored = await asOwner<{ password_ciphertext: string }>(testDb.ownerUrl, 'SELECT password_ciphertext FROM tenant_connections WHERE tenant_id = $1', [dedicated.id]);
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.password_ciphertext).toMatch(/^v1\./);
      expect(row.password_ciphertext).not.toContain(server.password);
    }
    const read = await app.inject({ url: `/manage/sadmin/tenant/${dedicated.id}/connections`, ...withSession(superAdmin) });
    expect(read.body).not.toContain(server.password);
    expect(read.body).not.toContain('v1.');
    expect(dataOf<TenantConnections>(read).connections.map((connection) => Object.keys(connection).sort())[0]).toEqual(['database', 'hasPassword', 'host', 'kind', 'port', 'sslMode', 'updatedAt', 'user']);

    const rotated = await put(dedicated.id, dedicatedSet({ vitals: { database: server.primary } }));
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(await asOwner(primaryOwnerUrl(), 'SELECT 1 FROM users WHERE tenant_id = $1', [dedicated.id])).toHaveLength(1);
  });
});

describe('operating dedicated databases', () => {
  it('brings every dedicated tenant’s database up to date (server start after an upgrade)', async () => {
    const dedicated = await newTenant();
    expect((await put(dedicated.id, dedicatedSet())).statusCode).toBe(200);
    await asOwner(primaryOwnerUrl(), `DELETE FROM schema_migrations WHERE version = '0006'`);
    await asOwner(primaryOwnerUrl(), `ALTER TABLE tenant_connections DROP COLUMN ssl_mode`);
    await asOwner(primaryOwnerUrl(), `REVOKE DELETE ON tenant_settings FROM rpm_app`);
    const results = await migrateDedicatedTenants(database, Buffer.from(TEST_SECRETS_KEY_HEX, 'hex'));
    expect(results.map((result) => result.tenantId)).toContain(dedicated.id);
    expect(results.flatMap((result) => result.applied)).toEqual(['0006_tenants']);
    // Every other tenant's database is migrated; the one that had another tenant's row planted in it
    // (above) no longer passes the target checks and is skipped.
    expect(results.find((result) => result.tenantId === dedicated.id)?.error).toBeUndefined();
    expect(results.filter((result) => result.error !== undefined).map((result) => result.refused)).toEqual(['other-tenant']);
    expect(await asOwner(primaryOwnerUrl(), `SELECT 1 FROM information_schema.columns WHERE table_name = 'tenant_connections' AND column_name = 'ssl_mode'`)).toHaveLength(1);
  });

  it('refuses to switch a tenant to DEDICATED on a server connected without the secrets key', async () => {
    const keyless = await createTestApp(testDb.database, { dataDir });
    try {
      const tenant = await newTenant();
      const token = (await staffSession(keyless, testDb, 'SUPER_ADMIN', tenant.code)).token;
      expect(errorOf(await keyless.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${tenant.id}/connections`, payload: dedicatedSet(), ...withSession(token) }))).toMatchObject({ status: 500, code: 'common.default' });
      expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
    } finally {
      await keyless.close();
    }
  });
});

describe('refused connection changes', () => {
  it('answers tenant.invalidConnectionType for any other type or set, storing nothing', async () => {
    const tenant = await newTenant();
    const [primary, replica, vitals] = dedicatedSet().connections;
    for (const body of [
      { connectionType: 'HYBRID', connections: [] },
      { connectionType: 'DEDICATED', connections: [primary, replica] },
      { connectionType: 'DEDICATED', connections: [primary, { ...replica, kind: 'primary' }, vitals] },
      { connectionType: 'DEDICATED', connections: [primary, replica, vitals, { ...vitals, kind: 'archive' }] },
      { connectionType: 'SHARED', connections: [primary] },
    ]) {
      for (const response of [await put(tenant.id, body), await test(tenant.id, body)]) {
        expect(errorOf(response), JSON.stringify(body.connectionType)).toMatchObject({ status: 400, code: 'tenant.invalidConnectionType' });
      }
    }
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
  });

  it('answers one generic failure, naming no connection, when a server cannot be reached, and saves nothing', async () => {
    const tenant = await newTenant();
    const refused = await put(tenant.id, dedicatedSet({ replica: { port: 1 }, vitals: { host: 'no-such-host.invalid' } }));
    expect(errorOf(refused)).toEqual({ status: 400, code: 'tenant.connectionFailed', message: 'Could not contact the supplied server', resultCode: 500, requestId: expect.any(String) as string });
    const missingDatabase = await test(tenant.id, dedicatedSet({ primary: { database: 'no_such_database' } }));
    expect(errorOf(missingDatabase)).toEqual({ status: 400, code: 'tenant.connectionFailed', message: 'Could not contact the supplied server', resultCode: 500, requestId: expect.any(String) as string });
    expect(errorOf(await put(tenant.id, dedicatedSet({ primary: { port: 70000 } })))).toMatchObject({ status: 400, code: 'common.invalidParameter' });
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
  });

  it('does not move a tenant that already has people or records (tenant.dataPlaneInUse)', async () => {
    const tenant = await newTenant();
    await createTenantUser(database, tenant.id);
    expect(errorOf(await put(tenant.id, dedicatedSet()))).toMatchObject({ status: 409, code: 'tenant.dataPlaneInUse' });
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });

    const dedicated = await newTenant();
    expect((await put(dedicated.id, dedicatedSet())).statusCode).toBe(200);
    await createTenantUser(database, dedicated.id);
    expect(errorOf(await put(dedicated.id, { connectionType: 'SHARED' }))).toMatchObject({ status: 409, code: 'tenant.dataPlaneInUse' });
    expect((await storedState(dedicated.id)).type).toBe('DEDICATED');
  });

  it('lets an empty DEDICATED tenant go back to SHARED, and keeps unassigned system admins out (404)', async () => {
    const tenant = await newTenant();
    expect((await put(tenant.id, dedicatedSet())).statusCode).toBe(200);
    expect(dataOf<TenantConnections>(await put(tenant.id, { connectionType: 'SHARED' }))).toEqual({ connectionType: 'SHARED', connections: [] });
    await createTenantUser(database, tenant.id);
    expect(await asOwner(testDb.ownerUrl, 'SELECT 1 FROM users WHERE tenant_id = $1', [tenant.id])).toHaveLength(1);

    const elsewhere = await createTenant(database);
    const { token } = await staffSession(app, { ...testDb, database }, 'SYSTEM_ADMIN', elsewhere.code, [elsewhere.id]);
    expect(errorOf(await put(tenant.id, dedicatedSet(), token))).toMatchObject({ status: 404, code: 'common.notFound' });
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
  });
});
