import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant } from '../../../test/factories.js';
import {
  conditionsOf,
  type PatientFilter,
  searchPlanOfSetup,
  searchQuery,
  searchSetupQuery,
  SEARCH_WORK_MEM,
} from './store.js';
import { searchWordsOf, type SearchPlan } from './search.js';
import {
  call,
  documentsApartFromTerms,
  logInAs,
  patientBody,
  patientOrganisation,
  type PatientOrganisation,
} from './test-support.js';

/**
 * The list's search through patient_search_terms (migration 0063): word prefixes without
 * diacritics or case, the phone from its start or end, the email from its start, the patient id;
 * within the caller's tenant and centers only; following renames, moves and deletions; and by
 * the terms' index under row-level security.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let tenantId = '';
let admin = '';
let adminA = '';
const ids: Record<'hongA' | 'hongB' | 'hongNone' | 'deleted' | 'otherTenant', string> = {
  hongA: '',
  hongB: '',
  hongNone: '',
  deleted: '',
  otherTenant: '',
};

/** The ids a caller's search lists (all of them: size 100). */
async function found(token: string, search: string, extra = ''): Promise<string[]> {
  const response = await call(
    app,
    token,
    'GET',
    `/account/patients?size=100&search=${encodeURIComponent(search)}${extra}`,
  );
  expect(response.statusCode).toBe(200);
  const page = response.json<{ data: { items: { id: string }[]; total: number } }>().data;
  expect(page.total).toBe(page.items.length);
  return page.items.map((item) => item.id).sort();
}
const sorted = (...list: string[]) => [...list].sort();


/** A connection as the app role in a transaction of the tenant, as a request makes it. */
async function appTransaction(tenant: string, centers: string) {
  const client = new pg.Client({ connectionString: testDb.appUrl });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `SELECT set_config('app.tenant_id', $1, true), set_config('app.center_ids', $2, true), set_config('app.subject', '', true)`,
    [tenant, centers],
  );
  return client;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await patientOrganisation(testDb);
  tenantId = org.tenant.id;
  admin = await logInAs(app, org.tenant.code, org.admin);
  adminA = await logInAs(app, org.tenant.code, org.adminA);
  const hong = { firstName: 'Hồng', middleName: 'Thị', lastName: 'Nguyễn' };
  ids.hongA = (
    await createPatient(testDb.database, tenantId, {
      ...hong,
      healthCenterId: org.centerA.id,
      patientCode: 'BNCS20417',
      phone: '0912345678',
      email: 'Hong.Nguyen@Clinic.example',
    })
  ).id;
  ids.hongB = (
    await createPatient(testDb.database, tenantId, {
      firstName: 'HỒNG',
      lastName: 'NGUYỄN',
      healthCenterId: org.centerB.id,
    })
  ).id;
  // NFD: the accents as separate combining marks.
  ids.hongNone = (
    await createPatient(testDb.database, tenantId, { firstName: 'Ho\u0302\u0300ng', lastName: 'Nguye\u0302\u0303n' })
  ).id;
  ids.deleted = (
    await createPatient(testDb.database, tenantId, {
      ...hong,
      healthCenterId: org.centerA.id,
      accountState: 'DISABLED',
      deletionRequestedAt: new Date(),
      purgeAfter: new Date(Date.now() + 30 * 86_400_000),
    })
  ).id;
  const other = await createTenant(testDb.database);
  ids.otherTenant = (await createPatient(testDb.database, other.id, { ...hong, phone: '0912345678' })).id;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('patient search', () => {
  it('finds every word as the start of a name word, without diacritics or case, in any order', async () => {
    const everyHong = sorted(ids.hongA, ids.hongB, ids.hongNone);
    expect(await found(admin, 'hong nguyen')).toEqual(everyHong);
    expect(await found(admin, 'NGUY  hồ')).toEqual(everyHong);
    expect(await found(admin, 'Nguyễn, Hồng')).toEqual(everyHong);
    expect(await found(admin, 'thi')).toEqual([ids.hongA]);
    // Every word must be found: one that is no word's start finds nobody.
    expect(await found(admin, 'hong nguyen x')).toEqual([]);
    // Inside a word is not a start (the search was a contains-search before migration 0063).
    expect(await found(admin, 'guyen')).toEqual([]);
    expect(await found(admin, '%')).toEqual([]);
  });

  it('finds the phone by its first or last digits, the email from its start, the patient id and its number', async () => {
    for (const search of ['0912', '0912345678', '091 234 5678', '912345678', '5678', 'Hong.Nguyen@clinic', 'bncs2041', 'BNCS20417', '20417'])
      expect(await found(admin, search), search).toEqual([ids.hongA]);
    // The middle of a number is neither its start nor its end.
    expect(await found(admin, '1234')).toEqual([]);
    // An email is found from its start only, by what is typed with its @.
    expect(await found(admin, 'clinic.example')).toEqual([]);
    // A page and its total agree past the first page too.
    const page = await call(app, admin, 'GET', '/account/patients?size=1&page=1&search=hong&sortField=name');
    expect(page.json<{ data: { items: unknown[]; total: number } }>().data).toMatchObject({ total: 3 });
    expect(page.json<{ data: { items: unknown[] } }>().data.items).toHaveLength(1);
  });

  it('never lists another tenant’s patients, nor a center’s the caller does not see', async () => {
    expect(await found(admin, '0912345678')).toEqual([ids.hongA]);
    expect(await found(adminA, 'hong')).toEqual([ids.hongA]);
    expect(await found(adminA, 'hong', `&centerId=${org.centerB.id}`)).toEqual([]);
    expect(await found(admin, 'hong', `&centerId=${org.centerB.id}`)).toEqual([ids.hongB]);
    // The terms themselves: a center's caller reads its center's, another tenant reads none.
    const ofCenterA = await appTransaction(tenantId, org.centerA.id);
    const centers = await ofCenterA.query<{ center: string | null }>(
      'SELECT DISTINCT health_center_id AS center FROM patient_search_terms',
    );
    expect(centers.rows.map((row) => row.center)).toEqual([org.centerA.id]);
    await ofCenterA.query('ROLLBACK');
    const otherTenant = await createTenant(testDb.database);
    const outsider = await appTransaction(otherTenant.id, '*');
    expect((await outsider.query(`SELECT * FROM patient_search_terms WHERE term >= 'hong'`)).rows).toEqual([]);
    await outsider.query('ROLLBACK');
    // Nobody writes them but the triggers.
    const writer = await appTransaction(tenantId, '*');
    await expect(
      writer.query(`INSERT INTO patient_search_terms (tenant_id, term, patient_id) VALUES ($1, 'x', $2)`, [
        tenantId,
        ids.hongA,
      ]),
    ).rejects.toMatchObject({ code: '42501' });
    await writer.query('ROLLBACK');
    await Promise.all([ofCenterA.end(), outsider.end(), writer.end()]);
  });

  it('finds through the documents only what the caller sees, and the app role cannot read them', async () => {
    const matching = async (tenant: string, centers: string, subject = '') => {
      const client = await appTransaction(tenant, centers);
      await client.query(`SELECT set_config('app.subject', $1, true)`, [subject]);
      const rows = await client.query<{ id: string }>(
        `SELECT id FROM patient_search_matching($1::jsonb, NULL, NULL) AS matched (id) ORDER BY id`,
        [JSON.stringify([['hong'], ['nguyen']])],
      );
      await client.query('ROLLBACK');
      await client.end();
      return rows.rows.map((row) => row.id);
    };
    expect(await matching(tenantId, '*')).toEqual(sorted(ids.hongA, ids.hongB, ids.hongNone));
    expect(await matching(tenantId, org.centerA.id)).toEqual([ids.hongA]);
    expect(await matching(tenantId, 'none')).toEqual([]);
    expect(await matching(tenantId, '*', 'patient')).toEqual([]);
    const other = await asOwner<{ tenant_id: string }>(testDb.ownerUrl, 'SELECT tenant_id FROM patients WHERE id = $1', [ids.otherTenant]);
    expect(await matching(other[0]?.tenant_id ?? '', '*')).toEqual([ids.otherTenant]);
    const client = await appTransaction(tenantId, '*');
    await expect(client.query('SELECT count(*) FROM patient_search_documents')).rejects.toMatchObject({ code: '42501' });
    await client.query('ROLLBACK');
    await client.end();
  });

  it('finds a renamed patient by the new name and not the old, follows moves and deletions', async () => {
    const renamed = await createPatient(testDb.database, tenantId, {
      firstName: 'Quỳnh',
      lastName: 'Đặng',
      healthCenterId: org.centerA.id,
    });
    expect(await found(adminA, 'dang quynh')).toEqual([renamed.id]);
    const body = patientBody(org.centerA.id, { firstName: 'Xuân', lastName: 'Đỗ', phone: '0966001122' });
    expect((await call(app, admin, 'PUT', `/account/patients/${renamed.id}`, body)).statusCode).toBe(200);
    expect(await found(adminA, 'quynh')).toEqual([]);
    expect(await found(adminA, 'dang')).toEqual([]);
    expect(await found(adminA, 'xuan do')).toEqual([renamed.id]);
    expect(await found(adminA, '1122')).toEqual([renamed.id]);
    // Moved to center B: center A's caller no longer finds it.
    const moved = patientBody(org.centerB.id, { firstName: 'Xuân', lastName: 'Đỗ', phone: '0966001122' });
    expect((await call(app, admin, 'PUT', `/account/patients/${renamed.id}`, moved)).statusCode).toBe(200);
    expect(await found(adminA, 'xuan do')).toEqual([]);
    expect(await found(admin, 'xuan do')).toEqual([renamed.id]);
    // Renamed by a statement of its own (the triggers, not the service, keep the terms).
    await asOwner(testDb.ownerUrl, `UPDATE patients SET last_name = 'Vũ' WHERE id = $1`, [renamed.id]);
    expect(await found(admin, 'xuan do')).toEqual([]);
    expect(await found(admin, 'xuan vu')).toEqual([renamed.id]);
    // Deleted (the account disabled at once, the row purged later): found no more.
    const { patientCode } = (await call(app, admin, 'GET', `/account/patients/${renamed.id}`)).json<{
      data: { patientCode: string };
    }>().data;
    const deleted = await call(app, admin, 'DELETE', `/account/patients/${renamed.id}`, {
      confirmPatientCode: patientCode,
    });
    expect(deleted.statusCode).toBe(200);
    expect(await found(admin, 'xuan vu')).toEqual([]);
    // Each change kept the patient's document of terms with its terms.
    expect(await documentsApartFromTerms(testDb.ownerUrl)).toEqual([]);
    // A term added to a patient who has a document already is merged into it, and taken out again.
    const addTerm = `INSERT INTO patient_search_terms (tenant_id, term, patient_id, health_center_id)
                     SELECT tenant_id, 'zzextra', id, health_center_id FROM patients WHERE id = $1`;
    await asOwner(testDb.ownerUrl, addTerm, [ids.hongA]);
    expect(await documentsApartFromTerms(testDb.ownerUrl)).toEqual([]);
    expect(await found(admin, 'hong zzextra')).toEqual([ids.hongA]);
    await asOwner(testDb.ownerUrl, `DELETE FROM patient_search_terms WHERE term = 'zzextra'`);
    expect(await documentsApartFromTerms(testDb.ownerUrl)).toEqual([]);
    expect(await found(admin, 'hong nguyen')).toContain(ids.hongA);
    await asOwner(testDb.ownerUrl, `DELETE FROM patients WHERE id = $1`, [renamed.id]);
    const [left] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      `SELECT count(*)::int AS n FROM patient_search_terms WHERE patient_id = ANY ($1::uuid[])`,
      [[renamed.id, ids.deleted]],
    );
    expect(left?.n).toBe(0);
  });

  it('reads several words from the rarest one, probing the others, with the answer intersecting every word gives', async () => {
    // Family names common and rare, given names that share prefixes, and more than 16 distinct
    // terms starting "k" (a word with that many terms is not probed: the ranges are intersected).
    const families = ['Pham', 'Pham', 'Pham', 'Pham', 'Vo', 'Vo', 'Dang'];
    const givens = ['Lan', 'Lanh', 'Loan', 'Linh', 'Long', 'Kha', 'Khoa', 'Kim'];
    for (let index = 0; index < 56; index += 1)
      await createPatient(testDb.database, tenantId, {
        patientCode: `SRCH${String(index)}`,
        firstName: givens[index % givens.length],
        middleName: index % 3 === 0 ? `K${String.fromCharCode(97 + index / 3)}x` : undefined,
        lastName: families[index % families.length],
        healthCenterId: index % 2 === 0 ? org.centerA.id : org.centerB.id,
      });
    const dialect = new PgDialect();
    const run = async (client: pg.Client, statement: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(statement);
      return (await client.query<Record<string, unknown>>(text, params)).rows[0];
    };
    const searches = ['pham lan', 'lan pham', 'pham l', 'vo k', 'dang kh', 'p l', 'pham lan srch', 'lan pham vo', 'lan vo', 'k pham', 'vo ka', 'pham x', 'vo kim', 'kim pham dang', 'pham 1', 'lan 2'];
    // The plans a whole-tenant caller's first look picks; a center's caller gets none (its look would
    // read whole ranges), but the plan's statement must still keep to the center's rows: tried too.
    const plans: Record<string, SearchPlan | undefined> = {};
    for (const [centers, visibility] of [
      ['*', { all: true as const }],
      [org.centerA.id, { centerIds: [org.centerA.id] }],
    ] as const) {
      const client = await appTransaction(tenantId, centers);
      for (const search of searches) {
        for (const sortField of ['created', 'name'] as const) {
          const filter: PatientFilter = { search, scope: 'center', sortField, sortType: 'asc', callerId: org.admin.id, visibility };
          const first = searchPlanOfSetup(filter, await run(client, searchSetupQuery(filter)));
          if (centers === '*') plans[search] = first;
          else expect(first).toBeUndefined();
          // The plan looked up, and each other plan the words allow, against the ranges intersected.
          const looked = plans[search];
          // Each word probed from; through the documents, the words checked in either order.
          const others: SearchPlan[] =
            looked === undefined
              ? []
              : [
                  ...looked.terms.map((_, driver): SearchPlan => ({ terms: looked.terms, kind: 'probe', driver })),
                  // (A word of digits or an email is not in the documents: no such plan for it.)
                  ...(looked.terms.every((terms) => terms.length <= 16) && searchWordsOf(search).every((word) => word.kind === 'word')
                    ? [{ terms: looked.terms, kind: 'documents' as const, rarestFirst: looked.terms.map((_, index) => index).reverse() }]
                    : []),
                ];
          for (const [index, plan] of [looked, ...others].entries())
            for (const page of [0, 1]) {
              const planned = await run(client, searchQuery(filter, { page, size: 5 }, plan));
              const intersected = await run(client, searchQuery(filter, { page, size: 5 }));
              expect(planned, `${search} in ${centers}, plan ${String(index)}, page ${String(page)}`).toEqual(intersected);
            }
        }
      }
      await client.query('ROLLBACK');
      await client.end();
    }
    // Found through the documents where every word names at most 16 terms; otherwise (a word "k"
    // of 17 terms or more: Kha, Khoa, Kim, Kax…; "srch": 56 terms, one a patient) counted, and
    // intersected here, as neither word with more terms is the rarest one (searchPlanOf's other
    // choices: search.test.ts).
    const kinds = Object.fromEntries(Object.entries(plans).map(([search, plan]) => [search, plan?.kind ?? 'intersect']));
    expect(kinds).toEqual({
      'pham lan': 'documents',
      'lan pham': 'documents',
      'pham l': 'documents',
      'vo k': 'intersect',
      'dang kh': 'documents',
      'p l': 'documents',
      'pham lan srch': 'intersect',
      'lan pham vo': 'documents',
      'lan vo': 'documents',
      'k pham': 'intersect',
      'vo ka': 'documents',
      'pham x': 'documents',
      'vo kim': 'documents',
      'kim pham dang': 'documents',
      // A word of digits (the ids' numbers) is not in the documents: counted, and probed from.
      'pham 1': 'probe',
      'lan 2': 'probe',
    });
    // The words' order for a walk's checks: Pham (32 of the 56) after Dang (8), as the statistics tell.
    await asOwner(testDb.ownerUrl, 'ANALYZE patient_search_documents');
    const orderOf = async (words: string[][]) => {
      const client = await appTransaction(tenantId, '*');
      const [row] = (await client.query<{ order: number[] }>('SELECT patient_search_rarest_first($1::jsonb) AS order', [JSON.stringify(words)])).rows;
      await client.query('ROLLBACK');
      await client.end();
      return row?.order;
    };
    expect(await orderOf([['pham'], ['dang']])).toEqual([1, 0]);
    expect(await orderOf([['dang'], ['pham']])).toEqual([0, 1]);
    // The answers themselves, through the list: Lan, Lanh and Loan's Phams (4 of 7 families, 3 of 8 given names).
    const phamLan = await found(admin, 'pham lan');
    expect(await found(admin, 'lan pham')).toEqual(phamLan);
    const phamLanh = await found(admin, 'pham lanh');
    expect(phamLanh.length).toBeGreaterThan(0);
    expect(phamLan).toEqual(expect.arrayContaining(phamLanh));
    expect(phamLan.length).toBeGreaterThan(phamLanh.length);
  });

  it('stops counting a search’s matches past what its page needs, and says there are more', async () => {
    // 1,600 Tallis Rowe and 200 Tallis Oakes, half in each center.
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, health_center_id)
       SELECT $1, gen_random_uuid(), 'TR' || lpad(n::text, 4, '0'), 'Tallis', CASE WHEN n <= 1600 THEN 'Rowe' ELSE 'Oakes' END,
              CASE WHEN n % 2 = 0 THEN $2::uuid ELSE $3::uuid END
         FROM generate_series(1, 1800) n`,
      [tenantId, org.centerA.id, org.centerB.id],
    );
    const listed = async (token: string, query: string, sortType = 'asc') => {
      const response = await call(app, token, 'GET', `/account/patients?sortField=code&sortType=${sortType}&${query}`);
      expect(response.statusCode, query).toBe(200);
      const page = response.json<{ data: { items: { patientCode: string }[]; total: number; isTotalExact: boolean } }>().data;
      return { codes: page.items.map((item) => item.patientCode), total: page.total, isTotalExact: page.isTotalExact };
    };
    // One word: counted up to 1,500 × the page's end, then the list is walked.
    expect(await listed(admin, 'search=rowe&size=1')).toEqual({ codes: ['TR0001'], total: 1500, isTotalExact: false });
    expect(await listed(admin, 'search=rowe&size=1&page=1')).toEqual({ codes: ['TR0002'], total: 1600, isTotalExact: true });
    // Two words, found through the documents: up to 500 × the page's end, then walked with key probes.
    expect(await listed(admin, 'search=tallis+rowe&size=1')).toEqual({ codes: ['TR0001'], total: 500, isTotalExact: false });
    expect(await listed(admin, 'search=rowe+tallis&size=1&page=1')).toEqual({ codes: ['TR0002'], total: 1000, isTotalExact: false });
    // All 1,600 read (below 500 × 5): the walk checks the matches' hash.
    expect(await listed(admin, 'search=rowe+tallis&size=1&page=4')).toEqual({ codes: ['TR0005'], total: 1600, isTotalExact: true });
    // From the other end the walk passes the Oakes first: each word is checked.
    expect(await listed(admin, 'search=tallis+rowe&size=1', 'desc')).toEqual({ codes: ['TR1600'], total: 500, isTotalExact: false });
    expect(await listed(admin, 'search=rowe&size=1', 'desc')).toEqual({ codes: ['TR1600'], total: 1500, isTotalExact: false });
    expect(await listed(admin, 'search=tallis+oakes&size=1&page=2')).toEqual({ codes: ['TR1603'], total: 200, isTotalExact: true });
    const last = await listed(admin, 'search=tallis+rowe&size=100&page=15');
    expect(last).toMatchObject({ total: 1600, isTotalExact: true });
    expect(last.codes).toEqual(Array.from({ length: 100 }, (_, index) => `TR${String(1501 + index)}`));
    // A status filter is checked on the patients: counted exactly.
    expect(await listed(admin, 'search=rowe&size=1&status=NORMAL')).toEqual({ codes: ['TR0001'], total: 1600, isTotalExact: true });
    // A center's caller: its 800 Rowes, counted exactly below the bound; two words intersected (no first look).
    expect(await listed(adminA, 'search=rowe&size=1')).toEqual({ codes: ['TR0002'], total: 800, isTotalExact: true });
    expect(await listed(adminA, 'search=tallis+rowe&size=1')).toEqual({ codes: ['TR0002'], total: 800, isTotalExact: true });
    await asOwner(testDb.ownerUrl, `DELETE FROM patients WHERE patient_code LIKE 'TR%' AND tenant_id = $1`, [tenantId]);
  });

  it('is read from the terms index under row-level security, not from every patient', async () => {
    // Enough patients for the planner to prefer an index to reading the tables.
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, phone, health_center_id)
       SELECT $1, gen_random_uuid(), 'BULK' || n, 'Bulk' || n, 'Patient', '07' || lpad(n::text, 8, '0'),
              CASE WHEN n % 2 = 0 THEN $2::uuid ELSE $3::uuid END
         FROM generate_series(1, 5000) n`,
      [tenantId, org.centerA.id, org.centerB.id],
    );
    await asOwner(testDb.ownerUrl, 'ANALYZE patients, patient_search_terms');
    const filter: PatientFilter = {
      search: 'hong nguyen',
      scope: 'center',
      sortField: 'created',
      sortType: 'desc',
      callerId: org.adminA.id,
      visibility: { centerIds: [org.centerA.id] },
    };
    const dialect = new PgDialect();
    const client = await appTransaction(tenantId, org.centerA.id);
    await client.query(`SELECT set_config('work_mem', $1, true)`, [SEARCH_WORK_MEM]);
    const plan = async (statement: SQL, options: string) => {
      const { sql: text, params } = dialect.sqlToQuery(statement);
      const rows = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (${options}) ${text}`, params);
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    // The list's statement, run: what it read (nodes it did not run say "never executed").
    const searched = await plan(searchQuery(filter, { page: 0, size: 20 }), 'ANALYZE, COSTS OFF');
    const ran = searched.split('\n').filter((line) => !line.includes('never executed')).join('\n');
    expect(ran).not.toMatch(/Seq Scan on patients/);
    // The search as a condition of other statements (the export, a filtered count).
    const counted = await plan(sql`SELECT count(*) FROM patients WHERE ${conditionsOf(filter)}`, 'COSTS OFF');
    for (const text of [ran, counted]) {
      expect(text).toMatch(/Index (Only )?Scan using patient_search_terms_pkey on patient_search_terms/);
      // The word's range is the index's condition: the comparison runs ahead of the policies.
      expect(text).toMatch(/Index Cond: \(\(tenant_id = .*\) AND \(term >= /);
      expect(text).not.toMatch(/Seq Scan on patient_search_terms/);
    }
    // With the plan a whole-tenant caller's first look picks (each word names one term: found
    // through the documents), run as this center's caller: the documents' inverted index, not
    // their rows one by one, and only center A's patient.
    const { sql: setupText, params: setupParams } = dialect.sqlToQuery(searchSetupQuery({ ...filter, visibility: { all: true } }));
    const searchPlan = searchPlanOfSetup(filter, (await client.query<Record<string, unknown>>(setupText, setupParams)).rows[0]);
    expect(searchPlan).toMatchObject({ kind: 'documents', terms: [['hong'], ['nguyen']] });
    if (searchPlan === undefined) return;
    await asOwner(testDb.ownerUrl, 'ANALYZE patient_search_documents');
    const documentsRead = async () =>
      (
        await client.query<{ seq: number; index: number }>(
          `SELECT seq_scan::int AS seq, idx_scan::int AS index FROM pg_stat_xact_user_tables WHERE relname = 'patient_search_documents'`,
        )
      ).rows[0] ?? { seq: 0, index: 0 };
    const before = await documentsRead();
    const documented = dialect.sqlToQuery(searchQuery(filter, { page: 0, size: 20 }, searchPlan));
    expect((await client.query(documented.sql, documented.params)).rows[0]).toEqual({ total: 1, exact: true, ids: [ids.hongA] });
    const after = await documentsRead();
    expect(after.seq - before.seq).toBe(0);
    expect(after.index - before.index).toBeGreaterThan(0);
    // Probed: the rarest word's range, and a key probe per row for the other word's terms.
    const probed = await plan(searchQuery(filter, { page: 0, size: 20 }, { terms: searchPlan.terms, kind: 'probe', driver: 0 }), 'ANALYZE, COSTS OFF');
    expect(probed).toMatch(/Index Cond: \(\(tenant_id = .*\) AND \(term >= /);
    expect(probed).toMatch(/Index Cond: \(\(tenant_id = term\.tenant_id\) AND \(term = ANY .*\) AND \(patient_id = term\.patient_id\)\)/);
    expect(probed).not.toMatch(/Seq Scan on patient/);
    const statement = dialect.sqlToQuery(searchQuery(filter, { page: 0, size: 20 }));
    const result = await client.query<{ total: number; ids: string[] }>(statement.sql, statement.params);
    expect(result.rows[0]).toEqual({ total: 1, exact: true, ids: [ids.hongA] });
    await client.query('ROLLBACK');
    await client.end();
  });
});
