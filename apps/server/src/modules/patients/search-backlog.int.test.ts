import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createHealthCenter, createTenant } from '../../../test/factories.js';
import { FLUSH_SEARCH_TERMS_TASK, flushSearchBacklogs } from './search-backlog.js';
import { call, documentsApartFromTerms, logInAs, patientOrganisation, type PatientOrganisation } from './test-support.js';

/**
 * Deferred search terms (migration 0065): patients inserted with app.search_terms = 'deferred' (an
 * import's batches) are listed at once and found by search once patient_search_flush() has written
 * their terms in one sorted pass; changes and deletions before or during a flush leave exactly the
 * terms of what is stored.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let admin = '';

/** The ids the tenant admin's search lists. */
async function found(search: string): Promise<string[]> {
  const response = await call(app, admin, 'GET', `/account/patients?size=100&search=${encodeURIComponent(search)}`);
  expect(response.statusCode).toBe(200);
  return response
    .json<{ data: { items: { id: string }[] } }>()
    .data.items.map((item) => item.id)
    .sort();
}

/** A connection as the database owner, in a transaction of `tenant` (as an import batch sets it). */
async function ownerTransaction(tenant: string, deferred: boolean) {
  const client = new pg.Client({ connectionString: testDb.ownerUrl });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT set_config('app.tenant_id', $1, true), set_config('app.search_terms', $2, true)`, [
    tenant,
    deferred ? 'deferred' : '',
  ]);
  return client;
}

let nextCode = 1;

/** Inserts patients named `names` (first and last name; patient ids DEF1, DEF2, …) in one statement, terms deferred. */
async function insertDeferred(tenant: string, center: string, names: [string, string][]): Promise<string[]> {
  const ids = names.map(() => uuidv7());
  const codes = names.map(() => `DEF${String(nextCode++)}`);
  const client = await ownerTransaction(tenant, true);
  await client.query(
    `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, health_center_id)
     SELECT $1, id, code, first_name, last_name, $2
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) AS given (id, code, first_name, last_name)`,
    [tenant, center, ids, codes, names.map(([first]) => first), names.map(([, last]) => last)],
  );
  await client.query('COMMIT');
  await client.end();
  return ids;
}

async function backlogSize(tenant: string): Promise<number> {
  const [row] = await asOwner<{ n: number }>(
    testDb.ownerUrl,
    'SELECT count(*)::int AS n FROM patient_search_backlog WHERE tenant_id = $1',
    [tenant],
  );
  return row?.n ?? -1;
}

const backendPid = async (client: pg.Client) =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? -1;

/** Whether the connection with process id `pid` waits for a lock. */
async function isWaiting(pid: number): Promise<boolean> {
  const [row] = await asOwner<{ waiting: boolean }>(
    testDb.ownerUrl,
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted) AS waiting`,
    [pid],
  );
  return row?.waiting ?? false;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await patientOrganisation(testDb);
  admin = await logInAs(app, org.tenant.code, org.admin);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('deferred search terms', () => {
  it('lists the patients at once, finds them after the flush, and empties the backlog', async () => {
    const [zephyr] = await insertDeferred(org.tenant.id, org.centerA.id, [['Zephyr', 'Quang']]);
    const listed = await call(app, admin, 'GET', `/account/patients/${zephyr ?? ''}`);
    expect(listed.statusCode).toBe(200);
    expect(await found('zephyr')).toEqual([]);
    expect(await backlogSize(org.tenant.id)).toBe(1);
    // Another tenant's backlog is flushed by the same pass, and only with its own terms.
    const other = await createTenant(testDb.database);
    const otherCenter = await createHealthCenter(testDb.database, other.id);
    await insertDeferred(other.id, otherCenter.id, [['Zephyr', 'Other']]);

    expect(FLUSH_SEARCH_TERMS_TASK).toBe('patients.flushSearchTerms');
    expect(await flushSearchBacklogs(testDb.database)).toBe(2);
    expect(await found('zephyr')).toEqual([zephyr]);
    expect(await found('zephyr quang')).toEqual([zephyr]);
    expect(await backlogSize(org.tenant.id)).toBe(0);
    expect(await backlogSize(other.id)).toBe(0);
    const terms = await asOwner<{ tenant_id: string; term: string }>(
      testDb.ownerUrl,
      `SELECT tenant_id, term FROM patient_search_terms WHERE term = 'other'`,
    );
    expect(terms).toEqual([{ tenant_id: other.id, term: 'other' }]);
    // Nothing left: the next pass takes nothing.
    expect(await flushSearchBacklogs(testDb.database)).toBe(0);
  });

  it('writes what is stored when it runs: a rename, a move or a deletion before it', async () => {
    const [renamed, deleted, disabled] = await insertDeferred(org.tenant.id, org.centerA.id, [
      ['Yarrow', 'Before'],
      ['Yarrow', 'Gone'],
      ['Yarrow', 'Off'],
    ]);
    await asOwner(testDb.ownerUrl, `UPDATE patients SET last_name = 'After', health_center_id = $2 WHERE id = $1`, [
      renamed,
      org.centerB.id,
    ]);
    await asOwner(testDb.ownerUrl, `DELETE FROM patients WHERE id = $1`, [deleted]);
    await asOwner(testDb.ownerUrl, `UPDATE patients SET account_state = 'DISABLED', deletion_requested_at = now(), purge_after = now() + interval '30 days' WHERE id = $1`, [disabled]);
    await flushSearchBacklogs(testDb.database);
    expect(await found('yarrow')).toEqual([renamed]);
    expect(await found('before')).toEqual([]);
    const terms = await asOwner<{ patient_id: string; term: string; health_center_id: string }>(
      testDb.ownerUrl,
      `SELECT patient_id, term, health_center_id FROM patient_search_terms WHERE patient_id = ANY ($1::uuid[]) ORDER BY term`,
      [[renamed, deleted, disabled]],
    );
    const [{ code } = { code: '' }] = await asOwner<{ code: string }>(testDb.ownerUrl, 'SELECT patient_code AS code FROM patients WHERE id = $1', [renamed]);
    expect(terms.map((row) => row.term).sort()).toEqual(['after', code.toLowerCase(), code.slice(3), 'yarrow'].sort());
    expect(new Set(terms.map((row) => `${row.patient_id}:${row.health_center_id}`))).toEqual(
      new Set([`${renamed}:${org.centerB.id}`]),
    );
    expect(await documentsApartFromTerms(testDb.ownerUrl)).toEqual([]);
  });

  it('orders a rename against a running flush: the old name never stays', async () => {
    // The rename waits for the flush, then replaces what the flush wrote from the old name.
    const [first] = await insertDeferred(org.tenant.id, org.centerA.id, [['Wisteria', 'Early']]);
    const flush = await ownerTransaction(org.tenant.id, false);
    await flush.query('SELECT patient_search_flush()');
    const rename = await ownerTransaction(org.tenant.id, false);
    const renamePid = await backendPid(rename);
    const renameDone = rename.query(`UPDATE patients SET last_name = 'Late' WHERE id = $1`, [first]);
    await expect.poll(() => isWaiting(renamePid), { timeout: 5_000 }).toBe(true);
    await flush.query('COMMIT');
    await renameDone;
    await rename.query('COMMIT');
    expect(await found('wisteria early')).toEqual([]);
    expect(await found('wisteria late')).toEqual([first]);

    // A flush that comes while a rename is open waits for it, and writes the new name.
    const [second] = await insertDeferred(org.tenant.id, org.centerA.id, [['Verbena', 'Early']]);
    const renaming = await ownerTransaction(org.tenant.id, false);
    await renaming.query(`UPDATE patients SET last_name = 'Late' WHERE id = $1`, [second]);
    const flushing = await ownerTransaction(org.tenant.id, false);
    const flushingPid = await backendPid(flushing);
    const flushDone = flushing.query('SELECT patient_search_flush()');
    await expect.poll(() => isWaiting(flushingPid), { timeout: 5_000 }).toBe(true);
    await renaming.query('COMMIT');
    await flushDone;
    await flushing.query('COMMIT');
    expect(await found('verbena early')).toEqual([]);
    expect(await found('verbena late')).toEqual([second]);
    expect(await backlogSize(org.tenant.id)).toBe(0);
    expect(await documentsApartFromTerms(testDb.ownerUrl)).toEqual([]);
    await Promise.all([flush.end(), rename.end(), renaming.end(), flushing.end()]);
  });

  it('is not written nor flushed by the application role directly', async () => {
    const client = new pg.Client({ connectionString: testDb.appUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`SELECT set_config('app.tenant_id', $1, true)`, [org.tenant.id]);
    await expect(
      client.query(`INSERT INTO patient_search_backlog (tenant_id, patient_id) VALUES ($1, $2)`, [org.tenant.id, uuidv7()]),
    ).rejects.toMatchObject({ code: '42501' });
    await client.query('ROLLBACK');
    // Without a tenant the flush does nothing.
    await client.query('BEGIN');
    expect(Number((await client.query<{ taken: string }>('SELECT patient_search_flush() AS taken')).rows[0]?.taken)).toBe(0);
    await client.query('ROLLBACK');
    await client.end();
  });
});
