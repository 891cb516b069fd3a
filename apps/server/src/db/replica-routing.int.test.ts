/**
 * A DEDICATED tenant's replica connection serves reads (patient lists, dashboards, charts,
 * exports) while it replays within REPLICA_MAX_LAG_MS, and the primary serves them when it lags
 * further: tested against a real streaming replica (test/streaming-replica.ts), paused with
 * pg_wal_replay_pause() to make it lag.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import type { TenantDetail } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../test/factories.js';
import { postgresBinaries, startStreamingReplica, type StreamingReplica } from '../../test/streaming-replica.js';
import { TEST_SECRETS_KEY_HEX } from '../../test/test-config.js';
import { FRESH_READS_COOKIE } from '../http/read-your-writes.js';
import { dataOf, staffSession } from '../modules/tenants/test-support.js';
import { connectDatabase, type Database } from './database.js';
import { REPLICA_CHECK_INTERVAL_MILLISECONDS } from './replica-freshness.js';

const binaries = postgresBinaries();
const bin = 'bin' in binaries ? binaries.bin : null;
if ('problem' in binaries) console.warn(`replica-routing.int.test.ts skipped: ${binaries.problem}`);

/** The allowed lag of the strict server; the lenient one allows ten minutes (the replica always serves). */
const STRICT_LAG_MS = 1_000;
const LENIENT_LAG_MS = 600_000;

let testDb: TestDatabase;
let replica: StreamingReplica;
/** Two servers on the same platform database that differ only in REPLICA_MAX_LAG_MS. */
let strict: { database: Database; app: FastifyInstance };
let lenient: { database: Database; app: FastifyInstance };
let tenant: TenantDetail;
let adminToken: string;
let patientId: string;
const tenantDatabase = 'tenant_main';

const serverWith = async (lag: number) => {
  const database = connectDatabase(testDb.appUrl, { maxConnections: 5, secretsKey: Buffer.from(TEST_SECRETS_KEY_HEX, 'hex'), replicaMaxLagMilliseconds: lag });
  return { database, app: await createTestApp(database, { replicaMaxLagMilliseconds: lag }) };
};

beforeAll(async () => {
  if (bin === null) return;
  testDb = await createTestDatabase();
  replica = await startStreamingReplica(bin);
  // The tenant's server as an operator hands it over: an unprivileged owner of its database, and
  // rpm_app present for the migrations' grants.
  const role = `rpm_ded_${randomBytes(4).toString('hex')}`;
  const password = `Dedicated#${randomBytes(4).toString('hex')}`;
  await replica.onPrimary(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD '${password}'`);
  await replica.onPrimary('CREATE ROLE rpm_app NOLOGIN');
  await replica.onPrimary(`CREATE DATABASE ${tenantDatabase} OWNER ${role}`);
  strict = await serverWith(STRICT_LAG_MS);
  lenient = await serverWith(LENIENT_LAG_MS);

  const acting = await createTenant(testDb.database);
  const superAdmin = (await staffSession(lenient.app, { ...testDb, database: lenient.database }, 'SUPER_ADMIN', acting.code)).token;
  const code = `r-${randomBytes(4).toString('hex')}`;
  tenant = dataOf<TenantDetail>(await lenient.app.inject({ method: 'POST', url: '/manage/sadmin/tenant', payload: { name: `Replica ${code}`, code }, ...withSession(superAdmin) }));
  const connection = (port: number) => ({ host: '127.0.0.1', port, database: tenantDatabase, user: role, password, sslMode: 'disable' });
  const saved = await lenient.app.inject({
    method: 'PUT',
    url: `/manage/sadmin/tenant/${tenant.id}/connections`,
    payload: {
      connectionType: 'DEDICATED',
      connections: [
        { kind: 'primary', ...connection(replica.primaryPort) },
        { kind: 'replica', ...connection(replica.replicaPort) },
        // The time series beside the rest: this file is about the replica.
        { kind: 'vitals', ...connection(replica.primaryPort) },
      ],
    },
    ...withSession(superAdmin),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  strict.database.invalidateTenant(tenant.id);

  const admin = await createTenantUser(lenient.database, tenant.id, { role: 'ADMIN' });
  adminToken = await logIn(lenient.app, tenant.code, admin.email ?? '');
  patientId = (await createPatient(lenient.database, tenant.id, { firstName: 'Before' })).id;
  await replica.waitForReplay();
}, 120_000);

afterAll(async () => {
  if (bin === null) return;
  for (const server of [strict, lenient]) {
    await server.app.close();
    await server.database.close();
  }
  await testDb.drop();
  await replica.stop();
});

/** Where a routed read ran: a standby or not, and whether its transaction was READ ONLY. */
const whereReads = async (database: Database, tenantId = tenant.id) => {
  const result = await database.readTenant(tenantId, (tx) =>
    tx.execute<{ standby: boolean; readOnly: string }>(sql`SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS "readOnly"`),
  );
  return result.rows[0];
};
const firstNamesOf = (response: LightMyRequestResponse) => {
  const items = dataOf<{ items: { id: string; fullName: string }[] }>(response).items;
  return items.filter((item) => item.id === patientId).map((item) => item.fullName.split(' ')[0]);
};
const listPatients = (app: FastifyInstance, cookies: Record<string, string> = {}) =>
  app.inject({ url: '/account/patients?page=0&size=50', cookies: { ...withSession(adminToken).cookies, ...cookies } });
/** Runs one statement as the superuser in the tenant's database on the primary. */
const inTenantPrimary = async (statement: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: replica.primaryUrl(tenantDatabase) });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(statement, values)).rows;
  } finally {
    await client.end();
  }
};
const renameOnPrimary = (name: string) => inTenantPrimary('UPDATE patients SET first_name = $1 WHERE id = $2', [name, patientId]);
/** Waits until the paused replica's last replayed commit is older than `milliseconds`. */
const lagBeyond = async (milliseconds: number) => {
  await expect
    .poll(async () => Number((await replica.onReplica(`SELECT extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 AS lag`))[0]?.lag), { timeout: 10_000, interval: 100 })
    .toBeGreaterThan(milliseconds);
};

describe.skipIf(bin === null)('reads of a DEDICATED tenant with a streaming replica', () => {
  it('go to the replica in a READ ONLY transaction while it replays, never writes; other work stays on the primary', async () => {
    expect(await whereReads(lenient.database)).toEqual({ standby: true, readOnly: 'on' });
    expect(await whereReads(strict.database)).toEqual({ standby: true, readOnly: 'on' });
    const primary = await lenient.database.withTenant(tenant.id, (tx) => tx.execute<{ standby: boolean }>(sql`SELECT pg_is_in_recovery() AS standby`));
    expect(primary.rows[0]?.standby).toBe(false);
    const write = await lenient.database
      .readTenant(tenant.id, (tx) => tx.execute(sql`UPDATE patients SET first_name = 'Written' WHERE id = ${patientId}`))
      .then(() => null, (error: unknown) => error);
    // 25006: read_only_sql_transaction.
    expect(write).toMatchObject({ cause: { code: '25006' } });
    // A SHARED tenant's reads stay where they always were: the platform database, one ordinary transaction.
    const shared = await createTenant(testDb.database);
    expect(await whereReads(lenient.database, shared.id)).toEqual({ standby: false, readOnly: 'off' });
  });

  it('counts an idle primary as no lag: a replica that replayed everything serves reads however old its last commit', async () => {
    await replica.waitForReplay();
    await lagBeyond(STRICT_LAG_MS + 200);
    // Background WAL of an idle server (a checkpoint, a snapshot record) can be in flight for a moment.
    await expect.poll(async () => (await whereReads(strict.database))?.standby, { timeout: 5_000, interval: 200 }).toBe(true);
  });

  it('serves a patient list from the replica within the allowed lag (audited on the primary), from the primary past it, and to a caller who just wrote', async () => {
    await replica.waitForReplay();
    await replica.onReplica('SELECT pg_wal_replay_pause()');
    try {
      await renameOnPrimary('After');
      // Within ten minutes of lag: the replica answers, with what it replayed.
      const served = await listPatients(lenient.app);
      expect(firstNamesOf(served)).toEqual(['Before']);
      // The PHI read's audit row is on the primary, written after the read.
      const audits = await inTenantPrimary(`SELECT details->'patientIds' AS "patientIds" FROM audit_log WHERE action = 'PATIENT_LISTED'`);
      expect(audits.some((row) => (row.patientIds as string[]).includes(patientId))).toBe(true);
      // The dashboard counts come from the replica too (the same read path).
      expect((await lenient.app.inject({ url: '/account/operator/getCountPatientStatus', ...withSession(adminToken) })).statusCode).toBe(200);

      // Past the strict server's setting, its reads go to the primary (once its last look, at most
      // one check interval old, has expired).
      await lagBeyond(STRICT_LAG_MS + 200);
      await setTimeout(REPLICA_CHECK_INTERVAL_MILLISECONDS);
      expect(firstNamesOf(await listPatients(strict.app))).toEqual(['After']);
      expect((await whereReads(strict.database))?.standby).toBe(false);

      // Read-your-writes: a write answers with the cookie; with it, the lenient server reads on the primary.
      const wrote = await lenient.app.inject({ method: 'POST', url: '/account/me/profile/update-language', payload: { lang: 'vi' }, ...withSession(adminToken) });
      expect(wrote.statusCode, wrote.body).toBe(200);
      const mark = wrote.cookies.find((cookie) => cookie.name === FRESH_READS_COOKIE);
      expect(mark).toMatchObject({ httpOnly: true, sameSite: 'Strict', maxAge: Math.ceil((LENIENT_LAG_MS + 1_000) / 1000) });
      expect(firstNamesOf(await listPatients(lenient.app, { [FRESH_READS_COOKIE]: mark?.value ?? '' }))).toEqual(['After']);
      expect(firstNamesOf(await listPatients(lenient.app))).toEqual(['Before']);
      // A read answers without it.
      expect((await listPatients(lenient.app)).cookies.some((cookie) => cookie.name === FRESH_READS_COOKIE)).toBe(false);
    } finally {
      await replica.onReplica('SELECT pg_wal_replay_resume()');
    }
    await replica.waitForReplay();
    expect(firstNamesOf(await listPatients(lenient.app))).toEqual(['After']);
  });

  it('sets no read-your-writes cookie for a tenant without a replica of its own', async () => {
    const shared = await createTenant(testDb.database);
    const user = await createTenantUser(testDb.database, shared.id, { role: 'ADMIN' });
    const token = await logIn(lenient.app, shared.code, user.email ?? '');
    const wrote = await lenient.app.inject({ method: 'POST', url: '/account/me/profile/update-language', payload: { lang: 'vi' }, ...withSession(token) });
    expect(wrote.statusCode, wrote.body).toBe(200);
    expect(wrote.cookies.some((cookie) => cookie.name === FRESH_READS_COOKIE)).toBe(false);
  });
});
