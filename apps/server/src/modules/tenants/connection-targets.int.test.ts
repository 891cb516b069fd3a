import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TenantDetail } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, urlOfDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { TEST_SECRETS_KEY_HEX } from '../../../test/test-config.js';
import { CONNECTION_PASSWORD_PURPOSE, connectDatabase, connectionPasswordContext, type Database } from '../../db/database.js';
import { appRolePassword } from '../../db/migrator.js';
import { systemClock } from '../../lib/clock.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { scheduleJob } from '../jobs/queue.js';
import { defineTask, forgetTask } from '../jobs/registry.js';
import { startJobRunners } from '../jobs/runner.js';
import { CONNECTION_CHECK_LIMIT, migrateDedicatedTenants } from './connections.js';
import { asAdmin, dedicatedSetOn, tenantServers } from './dedicated-support.js';
import { dataOf, errorOf, staffSession } from './test-support.js';

/**
 * A DEDICATED tenant's connections cannot bridge tenants: a connection to the platform database,
 * to another tenant's database, or as a role that can escape row level security is refused when
 * it is tested or saved (one generic answer, nothing stored), and the router re-checks every new
 * physical connection. The connection test is for ROOT and SUPER_ADMIN only and rate limited.
 * At start, the migrations and the job runners of DEDICATED tenants run the same checks first.
 */

const SECRETS_KEY = Buffer.from(TEST_SECRETS_KEY_HEX, 'hex');
let testDb: TestDatabase;
let database: Database;
let app: FastifyInstance;
let dataDir: string;
let actingTenantCode: string;
const servers = tenantServers();
const adminUrl = () => new URL(inject('adminUrl'));
const serverAddress = () => ({ host: adminUrl().hostname, port: Number(adminUrl().port || '5432') });

/** Every attempt that should have been refused, and how many were not. */
const attempts = { tried: 0, succeeded: 0 };
function countAttempt(response: LightMyRequestResponse) {
  attempts.tried += 1;
  if (response.statusCode === 200) attempts.succeeded += 1;
  return response;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = connectDatabase(testDb.appUrl, { maxConnections: 5, secretsKey: SECRETS_KEY });
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-connection-targets-'));
  app = await createTestApp(database, { dataDir });
  actingTenantCode = (await createTenant(database)).code;
});
afterAll(async () => {
  console.log(`refused-connection attempts tried: ${String(attempts.tried)}, succeeded: ${String(attempts.succeeded)}`);
  await app.close();
  await database.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
  await servers.dropAll();
});

const superAdmin = async () => (await staffSession(app, { ...testDb, database }, 'SUPER_ADMIN', actingTenantCode)).token;
const put = (token: string, tenantId: string, payload: unknown) =>
  app.inject({ method: 'PUT', url: `/manage/sadmin/tenant/${tenantId}/connections`, payload: payload as object, ...withSession(token) });
const test = (token: string, tenantId: string, payload: unknown) =>
  app.inject({ method: 'POST', url: `/manage/sadmin/tenant/${tenantId}/connections/test`, payload: payload as object, ...withSession(token) });
const newTenant = async (token: string) => {
  const code = `g-${randomBytes(4).toString('hex')}`;
  return dataOf<TenantDetail>(await app.inject({ method: 'POST', url: '/manage/sadmin/tenant', payload: { name: `Guarded ${code}`, code }, ...withSession(token) }));
};
const storedState = async (tenantId: string) => ({
  type: (await asOwner<{ connection_type: string }>(testDb.ownerUrl, 'SELECT connection_type FROM tenants WHERE id = $1', [tenantId]))[0]?.connection_type,
  connections: await asOwner(testDb.ownerUrl, 'SELECT kind FROM tenant_connections WHERE tenant_id = $1', [tenantId]),
});
/** Three connections to one database. */
const allThree = (connection: Record<string, unknown>) => ({
  connectionType: 'DEDICATED',
  connections: ['primary', 'replica', 'vitals'].map((kind) => ({ kind, sslMode: 'disable', ...connection })),
});
const GENERIC = { status: 400, code: 'tenant.connectionFailed', message: 'Could not contact the supplied server' };
/** The answer without what differs per request. */
const answerOf = (response: LightMyRequestResponse) => {
  const body = response.json<Record<string, unknown>>();
  delete body.requestId;
  return { status: response.statusCode, body };
};
const patientsSeenBy = async (token: string) => {
  const response = await app.inject({ url: '/account/patients?size=100', ...withSession(token) });
  return { status: response.statusCode, body: response.body, ids: response.statusCode === 200 ? dataOf<{ items: { id: string }[] }>(response).items.map((item) => item.id) : [] };
};

describe('the attack: a tenant pointed at the platform database as a superuser', () => {
  it('is refused, stores nothing, and the tenant still sees no other tenant’s patients', async () => {
    const token = await superAdmin();
    const victim = await createTenant(database);
    const victimCenter = await createHealthCenter(database, victim.id);
    const victimPatient = await createPatient(database, victim.id, { healthCenterId: victimCenter.id });
    const tenant = await newTenant(token);
    // The caller of the review: a system admin serving this tenant.
    const { token: systemAdmin } = await staffSession(app, { ...testDb, database }, 'SYSTEM_ADMIN', tenant.code, [tenant.id]);
    const platformDatabase = { ...serverAddress(), database: testDb.name };

    for (const host of [serverAddress().host, 'localhost']) {
      const attack = allThree({ ...platformDatabase, host, user: 'postgres', password: 'postgres' });
      expect(errorOf(countAttempt(await put(systemAdmin, tenant.id, attack)))).toMatchObject(GENERIC);
      expect(errorOf(countAttempt(await test(token, tenant.id, attack)))).toMatchObject(GENERIC);
    }
    // Not a superuser, but the platform database all the same (the app role itself, by another host name).
    const appRole = allThree({ ...platformDatabase, host: 'localhost', user: 'rpm_app', password: appRolePassword(SECRETS_KEY) });
    expect(errorOf(countAttempt(await put(systemAdmin, tenant.id, appRole)))).toMatchObject(GENERIC);
    // One connection of three is enough to be refused.
    const legit = await servers.create();
    const mixed = dedicatedSetOn(legit, { vitals: { ...platformDatabase, user: 'postgres', password: 'postgres' } });
    expect(errorOf(countAttempt(await put(systemAdmin, tenant.id, mixed)))).toMatchObject(GENERIC);
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });

    const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN' });
    const seen = await patientsSeenBy(await logIn(app, tenant.code, admin.email ?? ''));
    expect(seen.status).toBe(200);
    expect(seen.ids).toEqual([]);
    expect(seen.ids).not.toContain(victimPatient.id);
  });
});

describe('refused login roles', () => {
  it('refuses a role with BYPASSRLS, with CREATEROLE, a superuser, or a member of such a role, on its own database', async () => {
    const token = await superAdmin();
    const tenant = await newTenant(token);
    const bypass = await servers.create('BYPASSRLS');
    const createRole = await servers.create('CREATEROLE');
    const superuser = await servers.create('SUPERUSER');
    const member = await servers.create();
    const privileged = `rpm_priv_${randomBytes(4).toString('hex')}`;
    await asAdmin(`CREATE ROLE ${privileged} NOLOGIN BYPASSRLS`);
    servers.track('role', privileged);
    await asAdmin(`GRANT ${privileged} TO ${member.role}`);
    for (const server of [bypass, createRole, superuser, member]) {
      expect(errorOf(countAttempt(await put(token, tenant.id, dedicatedSetOn(server)))), server.role).toMatchObject(GENERIC);
    }
    expect(errorOf(countAttempt(await test(token, tenant.id, dedicatedSetOn(bypass))))).toMatchObject(GENERIC);
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
    // Nothing was prepared there either.
    expect(await asOwner(bypass.primaryOwnerUrl, `SELECT to_regclass('public.tenants') AS found`)).toEqual([{ found: null }]);
  });
});

describe('another tenant’s database', () => {
  it('refuses a database that serves another tenant or holds another tenant, and accepts a tenant’s own (positive control)', async () => {
    const token = await superAdmin();
    const first = await newTenant(token);
    const second = await newTenant(token);
    const firstServer = await servers.create();
    const secondServer = await servers.create();
    // Positive control: a non-superuser role on its own databases is tested and saved.
    expect(dataOf(await test(token, first.id, dedicatedSetOn(firstServer)))).toMatchObject({ connections: [{ kind: 'primary', isReachable: true }, { kind: 'replica' }, { kind: 'vitals' }] });
    expect((await put(token, first.id, dedicatedSetOn(firstServer))).statusCode).toBe(200);
    expect(await asOwner<{ target_identity: string | null }>(testDb.ownerUrl, 'SELECT target_identity FROM tenant_connections WHERE tenant_id = $1', [first.id])).toEqual(
      Array.from({ length: 3 }, () => ({ target_identity: expect.stringMatching(/^\d+:\d+$/) as string })),
    );

    // The first tenant's primary (migrated: holds its row), even under another host name.
    expect(errorOf(countAttempt(await put(token, second.id, dedicatedSetOn(firstServer))))).toMatchObject(GENERIC);
    expect(errorOf(countAttempt(await put(token, second.id, dedicatedSetOn(secondServer, { replica: { host: 'localhost', database: firstServer.primary, user: firstServer.role, password: firstServer.password } }))))).toMatchObject(GENERIC);
    // Its vitals database (empty, known only from the stored connections).
    expect(errorOf(countAttempt(await put(token, second.id, dedicatedSetOn(secondServer, { vitals: { host: 'localhost', database: firstServer.vitals, user: firstServer.role, password: firstServer.password } }))))).toMatchObject(GENERIC);
    // A database nobody registered that holds another tenant.
    const holding = `rpm_ded_holding_${randomBytes(4).toString('hex')}`;
    await asAdmin(`CREATE DATABASE ${holding} OWNER ${secondServer.role}`);
    servers.track('database', holding);
    await asOwner(urlOfDatabase(inject('adminUrl'), holding), `CREATE TABLE tenants (id uuid PRIMARY KEY, is_platform boolean NOT NULL DEFAULT false); INSERT INTO tenants VALUES (gen_random_uuid(), false)`);
    await asOwner(urlOfDatabase(inject('adminUrl'), holding), `ALTER TABLE tenants OWNER TO ${secondServer.role}`);
    expect(errorOf(countAttempt(await put(token, second.id, dedicatedSetOn(secondServer, { primary: { database: holding } }))))).toMatchObject(GENERIC);
    expect(await storedState(second.id)).toEqual({ type: 'SHARED', connections: [] });

    // Its own server is fine; the first tenant may still save its own again.
    expect((await put(token, second.id, dedicatedSetOn(secondServer))).statusCode).toBe(200);
    expect((await put(token, first.id, dedicatedSetOn(firstServer, { vitals: { database: firstServer.primary } }))).statusCode).toBe(200);
  });
});

describe('the router checks every new connection of a DEDICATED tenant', () => {
  it('fails the tenant’s requests (500) once its role turns BYPASSRLS or CREATEROLE or its connection leads to the platform database, showing no other tenant', async () => {
    const token = await superAdmin();
    const tenant = await newTenant(token);
    const server = await servers.create();
    expect((await put(token, tenant.id, dedicatedSetOn(server))).statusCode).toBe(200);
    const center = await createHealthCenter(database, tenant.id);
    const own = await createPatient(database, tenant.id, { healthCenterId: center.id });
    const admin = await createTenantUser(database, tenant.id, { role: 'ADMIN' });
    const adminToken = await logIn(app, tenant.code, admin.email ?? '');
    // Another tenant's patient planted in the same database by its owner.
    const other = await createTenant(database);
    await asOwner(server.primaryOwnerUrl, 'INSERT INTO tenants (id, code, name) VALUES ($1, $2, $3)', [other.id, other.code, other.name]);
    await asOwner(server.primaryOwnerUrl, `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name) VALUES ($1, gen_random_uuid(), 'PLANTED1', 'Planted', 'Elsewhere')`, [other.id]);
    expect((await patientsSeenBy(adminToken)).ids).toEqual([own.id]);

    for (const attribute of ['BYPASSRLS', 'CREATEROLE']) {
      await asAdmin(`ALTER ROLE ${server.role} ${attribute}`);
      database.invalidateTenant(tenant.id);
      const refused = await patientsSeenBy(adminToken);
      expect(refused.status, attribute).toBe(500);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'common.default' });
      expect(refused.body).not.toContain('Planted');
      await asAdmin(`ALTER ROLE ${server.role} NO${attribute}`);
      database.invalidateTenant(tenant.id);
      expect((await patientsSeenBy(adminToken)).ids, attribute).toEqual([own.id]);
    }

    // The stored primary rewritten to lead to the platform database (as the app role, by another name).
    const sealed = createSecretBox(SECRETS_KEY, CONNECTION_PASSWORD_PURPOSE).seal(appRolePassword(SECRETS_KEY), connectionPasswordContext(tenant.id, 'primary'));
    await asOwner(testDb.ownerUrl, `UPDATE tenant_connections SET host = 'localhost', database_name = $2, username = 'rpm_app', password_ciphertext = $3 WHERE tenant_id = $1 AND kind = 'primary'`, [
      tenant.id,
      testDb.name,
      sealed,
    ]);
    database.invalidateTenant(tenant.id);
    const platform = await patientsSeenBy(adminToken);
    expect(platform.status).toBe(500);
    expect(JSON.parse(platform.body)).toMatchObject({ code: 'common.default' });
  });
});

describe('the connection test', () => {
  it('answers the same for an unknown host, a closed port, a refused login and a refused target', async () => {
    const token = await superAdmin();
    const tenant = await newTenant(token);
    const server = await servers.create();
    const failures = {
      unknownHost: dedicatedSetOn(server, { replica: { host: 'no-such-host.invalid' } }),
      closedPort: dedicatedSetOn(server, { replica: { port: 1 } }),
      refusedLogin: dedicatedSetOn(server, { replica: { user: 'no_such_role_here', password: 'wrong' } }),
      refusedTarget: dedicatedSetOn(server, { replica: { database: testDb.name, user: 'postgres', password: 'postgres' } }),
    };
    const answers = [];
    for (const [kind, body] of Object.entries(failures)) {
      const response = countAttempt(await test(token, tenant.id, body));
      expect(response.statusCode, kind).toBe(400);
      answers.push(answerOf(response));
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 400, body: { resultCode: 500, code: 'tenant.connectionFailed', message: 'Could not contact the supplied server' } });
    // Saving answers the same.
    const saved = countAttempt(await put(token, tenant.id, failures.refusedTarget));
    expect(answerOf(saved)).toEqual(answers[0]);
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
  });

  it('is for ROOT and SUPER_ADMIN only: a system admin gets 403 but may still save (which tests)', async () => {
    const token = await superAdmin();
    const tenant = await newTenant(token);
    const server = await servers.create();
    const { token: systemAdmin } = await staffSession(app, { ...testDb, database }, 'SYSTEM_ADMIN', tenant.code, [tenant.id]);
    expect(errorOf(countAttempt(await test(systemAdmin, tenant.id, dedicatedSetOn(server))))).toMatchObject({ status: 403, code: 'auth.permissionDenied' });
    const { token: root } = await staffSession(app, { ...testDb, database }, 'ROOT', actingTenantCode);
    expect((await test(root, tenant.id, dedicatedSetOn(server))).statusCode).toBe(200);
    expect((await put(systemAdmin, tenant.id, dedicatedSetOn(server))).statusCode).toBe(200);
  });

  it(`allows ${String(CONNECTION_CHECK_LIMIT.attempts)} tests or saves per caller in 10 minutes, then 429 with Retry-After`, async () => {
    const token = await superAdmin();
    const tenant = await newTenant(token);
    const server = await servers.create();
    for (let index = 0; index < CONNECTION_CHECK_LIMIT.attempts; index++) {
      expect((await test(token, tenant.id, dedicatedSetOn(server))).statusCode, `attempt ${String(index + 1)}`).toBe(200);
    }
    for (const response of [await test(token, tenant.id, dedicatedSetOn(server)), await put(token, tenant.id, dedicatedSetOn(server))]) {
      countAttempt(response);
      expect(errorOf(response)).toMatchObject({ status: 429, code: 'common.tooManyRequests' });
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
    }
    expect(await storedState(tenant.id)).toEqual({ type: 'SHARED', connections: [] });
    // Another caller is not held back.
    expect((await test(await superAdmin(), tenant.id, dedicatedSetOn(server))).statusCode).toBe(200);
  });

  it('has refused every attempt above', () => {
    expect(attempts.tried).toBeGreaterThan(15);
    expect(attempts.succeeded).toBe(0);
  });
});

describe('work at server start on DEDICATED tenants’ databases', () => {
  /** The tenants whose jobs ran in this process. */
  const ranFor: string[] = [];
  const TASK = defineTask('test.dedicatedStart', ({ tenantId }) => {
    ranFor.push(tenantId);
    return Promise.resolve();
  });
  afterAll(() => {
    forgetTask(TASK);
  });
  /** A logger whose lines the test reads. */
  const capturingLog = () => {
    const lines: string[] = [];
    return { lines, logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }) };
  };
  const entriesAbout = (lines: string[], tenantId: string) => lines.map((line) => JSON.parse(line) as { level: number; msg: string; tenantId?: string; reason?: string }).filter((entry) => entry.tenantId === tenantId);
  const hasMigration = async (ownerUrl: string) => (await asOwner(ownerUrl, `SELECT 1 FROM schema_migrations WHERE version = '0006'`)).length === 1;
  /** Makes 0006 pending again (as after an upgrade). */
  const outdate = async (ownerUrl: string) => {
    await asOwner(ownerUrl, `DELETE FROM schema_migrations WHERE version = '0006'`);
    await asOwner(ownerUrl, `ALTER TABLE tenant_connections DROP COLUMN ssl_mode`);
  };
  const waitingJobsOf = (ownerUrl: string) => asOwner<{ attempts: number }>(ownerUrl, 'SELECT attempts FROM graphile_worker._private_jobs');
  const jobConnectionsTo = async (databaseName: string) =>
    Number((await asAdmin(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'rpm-jobs'`, [databaseName]))[0]?.n);

  it('skips (and logs, without the password) a tenant whose role turned BYPASSRLS or whose connection now leads to the platform or another tenant’s database; the others are migrated and get their job runner', async () => {
    const token = await superAdmin();
    const refused = await newTenant(token);
    const legit = await newTenant(token);
    const moved = await newTenant(token);
    const toPlatform = await newTenant(token);
    const refusedServer = await servers.create();
    const legitServer = await servers.create();
    const movedServer = await servers.create();
    const platformServer = await servers.create();
    for (const [tenant, server] of [[refused, refusedServer], [legit, legitServer], [moved, movedServer], [toPlatform, platformServer]] as const) {
      expect((await put(token, tenant.id, dedicatedSetOn(server))).statusCode).toBe(200);
    }
    // A job waits in each of the first two tenants' databases.
    for (const tenant of [refused, legit]) await database.withTenant(tenant.id, (tx) => scheduleJob(tx, tenant.id, TASK, {}));
    for (const server of [refusedServer, legitServer]) {
      await outdate(server.primaryOwnerUrl);
      expect(await waitingJobsOf(server.primaryOwnerUrl)).toEqual([{ attempts: 0 }]);
    }

    // Then: the first role turns BYPASSRLS; one stored primary is rewritten to lead to the legit
    // tenant's database (with its credentials), another to the platform database (as the app role).
    await asAdmin(`ALTER ROLE ${refusedServer.role} BYPASSRLS`);
    const box = createSecretBox(SECRETS_KEY, CONNECTION_PASSWORD_PURPOSE);
    const rewrite = (tenantId: string, databaseName: string, user: string, password: string) =>
      asOwner(testDb.ownerUrl, `UPDATE tenant_connections SET host = 'localhost', database_name = $2, username = $3, password_ciphertext = $4 WHERE tenant_id = $1 AND kind = 'primary'`, [
        tenantId,
        databaseName,
        user,
        box.seal(password, connectionPasswordContext(tenantId, 'primary')),
      ]);
    await rewrite(moved.id, legitServer.primary, legitServer.role, legitServer.password);
    await rewrite(toPlatform.id, testDb.name, 'rpm_app', appRolePassword(SECRETS_KEY));
    const platformMigrations = await asOwner(testDb.ownerUrl, 'SELECT version FROM schema_migrations ORDER BY version');

    const migration = capturingLog();
    const results = await migrateDedicatedTenants(database, SECRETS_KEY, { log: migration.logger });
    const resultOf = (tenantId: string) => results.find((result) => result.tenantId === tenantId);
    expect(resultOf(refused.id)).toMatchObject({ applied: [], refused: 'privileged-role' });
    expect(resultOf(moved.id)).toMatchObject({ applied: [], refused: 'other-tenant' });
    expect(resultOf(toPlatform.id)).toMatchObject({ applied: [], refused: 'platform-database' });
    expect(resultOf(legit.id)).toEqual({ tenantId: legit.id, applied: ['0006_tenants'] });
    // Nothing was done in the refused database; the legit one is up to date.
    expect(await hasMigration(refusedServer.primaryOwnerUrl)).toBe(false);
    expect(await asOwner(refusedServer.primaryOwnerUrl, `SELECT 1 FROM information_schema.columns WHERE table_name = 'tenant_connections' AND column_name = 'ssl_mode'`)).toHaveLength(0);
    expect(await hasMigration(legitServer.primaryOwnerUrl)).toBe(true);
    expect(await asOwner(testDb.ownerUrl, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual(platformMigrations);
    for (const [tenant, reason] of [[refused, 'privileged-role'], [moved, 'other-tenant'], [toPlatform, 'platform-database']] as const) {
      const [entry] = entriesAbout(migration.lines, tenant.id);
      expect(entry, tenant.id).toMatchObject({ level: 50, reason });
      expect(entry?.msg).toContain(tenant.id);
    }
    expect(entriesAbout(migration.lines, legit.id)).toEqual([expect.objectContaining({ level: 30 })]);
    for (const secret of [refusedServer.password, legitServer.password, appRolePassword(SECRETS_KEY)]) expect(migration.lines.join('\n')).not.toContain(secret);

    // The job runners: none for the refused tenants, whose job stays untouched; the legit one runs its job.
    const jobs = capturingLog();
    const runner = await startJobRunners({ ownerUrl: testDb.ownerUrl, database, clock: systemClock, log: jobs.logger, secretsKey: SECRETS_KEY });
    try {
      const started = Date.now();
      while (!ranFor.includes(legit.id) && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ranFor).toEqual([legit.id]);
      expect(await waitingJobsOf(legitServer.primaryOwnerUrl)).toEqual([]);
      expect(await jobConnectionsTo(legitServer.primary)).toBeGreaterThan(0);
      expect(await jobConnectionsTo(refusedServer.primary)).toBe(0);
      for (const [tenant, reason] of [[refused, 'privileged-role'], [moved, 'other-tenant'], [toPlatform, 'platform-database']] as const) {
        const [entry] = entriesAbout(jobs.lines, tenant.id);
        expect(entry, tenant.id).toMatchObject({ level: 50, reason });
        expect(entry?.msg).toContain(tenant.id);
      }
      expect(entriesAbout(jobs.lines, legit.id)).toEqual([]);
    } finally {
      await runner.stop();
    }
    expect(await waitingJobsOf(refusedServer.primaryOwnerUrl)).toEqual([{ attempts: 0 }]);
    for (const secret of [refusedServer.password, legitServer.password, appRolePassword(SECRETS_KEY)]) expect(jobs.lines.join('\n')).not.toContain(secret);
  });
});
