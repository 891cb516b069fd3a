/**
 * A million patients: the demo tenant grown to 1,000,000 patients across 100 health centers
 * (generated inside PostgreSQL with INSERT … SELECT generate_series, two connections), with their
 * care-team doctors, watches (some silent), unresolved alerts, open and closed SOS cases and
 * tickets; then the p50/p95/p99 through HTTP of what the console asks for, as the staff who ask it:
 * the patient list (first page, search by name, phone and patient id, filters by center and
 * status, sort by severity both ways), the dashboard counts and the home's triage worklist.
 *
 *   npm run build && TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/million-patients.ts
 *
 * BENCH_PATIENTS (1000000), BENCH_CENTERS (100), BENCH_REQUESTS (200 per series, after 10 warm-up
 * ones). BENCH_KEEP_DATABASE=true keeps the database; BENCH_DATABASE=<name> times a kept one again
 * (seeding is skipped when it already holds the patients). BENCH_EXPLAIN=true prints EXPLAIN
 * (ANALYZE, BUFFERS) of each list series' statements, run as the app role under row-level
 * security with the caller's visibility, as a request runs them. Needs about 3 GB of disk.
 */
import os from 'node:os';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PatientListQuery } from '@rpm/contracts';
import { CONNECTION_OPTIONS, type TenantTransaction } from '../../apps/server/src/db/database.js';
import * as schema from '../../apps/server/src/db/schema.js';
import {
  isTotalKept,
  matchesQuery,
  pageQuery,
  searchPlanOfSetup,
  searchQuery,
  searchSetupQuery,
  totalQuery,
} from '../../apps/server/src/modules/patients/store.js';
import {
  getJson,
  loginCookie,
  machineLine,
  percentile,
  startBenchServer,
  writeResultsSection,
} from './bench-server.js';
import { DOCTORS_PER_CENTER, prepareDatabase } from './million-patients-seed.js';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 1_000_000);
const CENTERS = Number(process.env.BENCH_CENTERS ?? 100);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10);
/** Only the series whose caller and label match (a regular expression); the results are then only printed. */
const ONLY = process.env.BENCH_SERIES === undefined ? undefined : new RegExp(process.env.BENCH_SERIES, 'i');
// Timing ---------------------------------------------------------------------------------------

interface Caller {
  key: string;
  username: string;
  /** What the caller sees (as the session computes it): every center, or these. */
  centers: 'all' | string[];
  cookie?: string;
  userId?: string;
}

interface Series {
  label: string;
  caller: Caller;
  /** The request's path for the i-th request (values rotate where a person would vary them). */
  path: (index: number) => string;
  /** The list's query, for EXPLAIN (list series only). */
  list?: (index: number) => Omit<PatientListQuery, 'page' | 'size'> & { page: number; size: number };
}

interface Measured {
  series: Series;
  /** Sorted, one per timed request. */
  samples: number[];
  /** What the first timed answer said: total of a list, total of counts. */
  total: number;
  rows: number;
}

const listPath = (query: Record<string, string | number | undefined>) =>
  `/account/patients?${new URLSearchParams(
    Object.entries(query).flatMap(([key, value]): [string, string][] =>
      value === undefined ? [] : [[key, String(value)]],
    ),
  ).toString()}`;

/** A series whose warm-up requests take longer than this is timed SLOW_REQUESTS times only. */
const SLOW_MILLISECONDS = 500;
const SLOW_REQUESTS = Math.min(REQUESTS, 20);

async function timeSeries(baseUrl: string, series: Series): Promise<Measured> {
  const cookie = series.caller.cookie ?? '';
  let requests = REQUESTS;
  for (let index = 0; index < WARM_UP; index += 1) {
    const started = performance.now();
    await getJson(baseUrl, cookie, series.path(index));
    if (index >= 1 && performance.now() - started > SLOW_MILLISECONDS) {
      requests = SLOW_REQUESTS;
      break;
    }
  }
  const samples: number[] = [];
  let total = 0;
  let rows = 0;
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now();
    const data = await getJson<{ total?: number; items?: unknown[] }>(baseUrl, cookie, series.path(index));
    samples.push(performance.now() - started);
    if (index === 0) {
      total = data.total ?? 0;
      rows = data.items?.length ?? 0;
    }
  }
  samples.sort((a, b) => a - b);
  return { series, samples, total, rows };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a list request's statements as the server runs them: the app role,
 * the tenant and the caller's visibility set as withCaller sets them, the page and the total.
 */
async function explainList(appUrl: string, tenantId: string, series: Series): Promise<string> {
  const make = series.list;
  if (make === undefined) return '';
  const query = make(0);
  const { page, size, ...filter } = query;
  const pool = new pg.Pool({ connectionString: appUrl, max: 1, options: CONNECTION_OPTIONS });
  const db = drizzle(pool, { schema }) as unknown as TenantTransaction;
  const visibility =
    series.caller.centers === 'all' ? { all: true as const } : { centerIds: series.caller.centers };
  const listFilter = { ...filter, callerId: series.caller.userId ?? '', visibility };
  const dialect = new PgDialect();
  type Statement = SQL | { toSQL: () => { sql: string; params: unknown[] } };
  const statements: [string, Statement | ((client: pg.PoolClient) => Promise<Statement>)][] = isTotalKept(
    listFilter,
  )
    ? [
        ['page', pageQuery(db, listFilter, { page, size }, new Date())],
        ['total', totalQuery(db, listFilter)],
      ]
    : listFilter.search
      ? [
          [
            'search: page ids and total',
            // As the server runs a search (list-queries.ts searchedPage): its setup row picks the plan.
            async (client) => {
              const setup = dialect.sqlToQuery(searchSetupQuery(listFilter));
              const row = (await client.query<Record<string, unknown>>(setup.sql, setup.params)).rows[0];
              return searchQuery(listFilter, { page, size }, searchPlanOfSetup(listFilter, row));
            },
          ],
        ]
      : [['page ids and total', matchesQuery(listFilter, { page, size })]];
  const client = await pool.connect();
  let out = '';
  try {
    for (const [name, made] of statements) {
      await client.query('BEGIN');
      await client.query(`SET LOCAL statement_timeout = '${process.env.BENCH_EXPLAIN_TIMEOUT ?? '300s'}'`);
      await client.query(
        `SELECT set_config('app.tenant_id', $1, true), set_config('app.center_ids', $2, true), set_config('app.subject', '', true), set_config('app.user_id', '', true)`,
        [tenantId, series.caller.centers === 'all' ? '*' : series.caller.centers.join(',')],
      );
      const statement = typeof made === 'function' ? await made(client) : made;
      const { sql: text, params } =
        statement instanceof SQL ? dialect.sqlToQuery(statement) : statement.toSQL();
      const plan = await client
        .query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)
        .catch((error: unknown) => ({ rows: [{ 'QUERY PLAN': `(${String(error)})` }] }));
      await client.query('ROLLBACK');
      out += `-- ${series.label}: ${name}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n\n`;
    }
  } finally {
    client.release();
    await pool.end();
  }
  return out;
}

const loadLine = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

async function main() {
  const server = await startBenchServer('million');
  try {
    const { tenantId, centers, facts, seedSeconds, seedNote, samplePatients, userIds } =
      await prepareDatabase(server.databaseUrl, PATIENTS, CENTERS);
    const mainCenter = centers[0] ?? '';

    // The callers, as they log in.
    const admin: Caller = { key: 'admin', username: 'admin@demo.example', centers: 'all' };
    const dutyOperator: Caller = {
      key: 'duty-operator',
      username: 'duty-operator@demo.example',
      centers: 'all',
    };
    const centerAdmin: Caller = {
      key: 'center-admin',
      username: 'main-admin@demo.example',
      centers: [mainCenter],
    };
    const centerOperator: Caller = {
      key: 'center-operator',
      username: 'operator@demo.example',
      centers: [mainCenter],
    };
    const doctor: Caller = { key: 'doctor', username: 'doctor@demo.example', centers: [mainCenter] };
    const callers = [admin, dutyOperator, centerAdmin, centerOperator, doctor];
    for (const caller of callers) {
      caller.cookie = await loginCookie(server.baseUrl, caller.username);
      caller.userId = userIds.get(caller.username) ?? '';
    }

    const rotate = <T>(values: readonly T[], index: number): T => {
      const value = values[index % values.length];
      if (value === undefined) throw new Error('nothing to rotate');
      return value;
    };
    const list = (query: Partial<PatientListQuery> & { size?: number }) => ({
      page: 0,
      size: 20,
      scope: 'center' as const,
      sortField: 'created' as const,
      sortType: 'desc' as const,
      ...query,
    });
    const series = (
      label: string,
      caller: Caller,
      make: (index: number) => ReturnType<typeof list>,
    ): Series => ({
      label,
      caller,
      list: make,
      path: (index) => listPath(make(index)),
    });
    // Search terms: a patient's family and given name ("Tran Lan": the list matches "last first"),
    // a given name alone, the commonest family name, the last 7 digits of a phone, a patient id.
    const fullNames = samplePatients.map((row) => `${row.family} ${row.given}`);
    const givenNames = ['Khoa', 'Tuyet', 'Quynh', 'Nghia', 'Oanh', 'Thinh', 'Diep', 'Uyen'];
    const phones = samplePatients.map((row) => row.phone.slice(-7));
    const codes = samplePatients.map((row) => row.code);
    const STATUSES = ['HIGH_RISK', 'AT_RISK', 'SOS'] as const;

    const all: Series[] = [
      series('list, first page (newest first)', admin, () => list({})),
      series('search: family + given name', admin, (index) => list({ search: rotate(fullNames, index) })),
      series('search: given name', admin, (index) => list({ search: rotate(givenNames, index) })),
      series('search: "Nguyen" (38 % of patients)', admin, () => list({ search: 'Nguyen' })),
      series('search: 7 digits of a phone', admin, (index) => list({ search: rotate(phones, index) })),
      series('search: patient id', admin, (index) => list({ search: rotate(codes, index) })),
      series('filter: one center', admin, (index) => list({ centerId: rotate(centers, index * 7) })),
      series('filter: status', admin, (index) => list({ status: rotate(STATUSES, index) })),
      series('filter: center + status', admin, (index) =>
        list({ centerId: rotate(centers, index * 7), status: rotate(STATUSES, index) }),
      ),
      series('sort: severity, worst first', admin, () => list({ sortField: 'severity', sortType: 'desc' })),
      series('sort: severity, reverse (quietest, oldest reading first)', admin, () =>
        list({ sortField: 'severity', sortType: 'asc' }),
      ),
      series('sort: severity, page 50', admin, () =>
        list({ sortField: 'severity', sortType: 'desc', page: 50 }),
      ),
      {
        label: 'dashboard counts (GET /account/operator/getCountPatientStatus)',
        caller: admin,
        path: () => '/account/operator/getCountPatientStatus?scope=center',
      },
      series('worklist (10 by severity)', dutyOperator, () =>
        list({ size: 10, sortField: 'severity', sortType: 'desc' }),
      ),
      {
        label: 'dashboard counts',
        caller: dutyOperator,
        path: () => '/account/operator/getCountPatientStatus?scope=center',
      },
      series('list, first page (newest first)', centerAdmin, () => list({})),
      series('search: given name', centerAdmin, (index) => list({ search: rotate(givenNames, index) })),
      series('sort: severity, worst first', centerAdmin, () =>
        list({ sortField: 'severity', sortType: 'desc' }),
      ),
      {
        label: 'dashboard counts (GET /account/smadmin/mhsc/getCountPatientStatus)',
        caller: centerAdmin,
        path: () => `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${mainCenter}`,
      },
      series('worklist (10 by severity)', centerOperator, () =>
        list({ size: 10, sortField: 'severity', sortType: 'desc' }),
      ),
      {
        label: 'dashboard counts',
        caller: centerOperator,
        path: () => '/account/operator/getCountPatientStatus?scope=center',
      },
      series('worklist (10 by severity, own patients)', doctor, () =>
        list({ size: 10, scope: 'mine', sortField: 'severity', sortType: 'desc' }),
      ),
      series('list, own patients by severity', doctor, () =>
        list({ scope: 'mine', sortField: 'severity', sortType: 'desc' }),
      ),
      {
        label: 'dashboard counts (GET /account/doctor/getCountPatientStatus, own patients)',
        caller: doctor,
        path: () => '/account/doctor/getCountPatientStatus?scope=mine',
      },
    ];

    const chosen = all.filter((one) => ONLY === undefined || ONLY.test(`${one.caller.key} ${one.label}`));
    if (process.env.BENCH_EXPLAIN === 'true') {
      const appUrl = new URL(server.databaseUrl);
      appUrl.username = 'rpm_app';
      appUrl.password = '';
      for (const one of chosen) {
        try {
          console.log(await explainList(appUrl.toString(), tenantId, one));
        } catch (error) {
          console.log(`-- ${one.label}: EXPLAIN failed: ${String(error)}`);
        }
      }
    }

    const loadBefore = loadLine();
    console.log(`load average before timing: ${loadBefore}`);
    const measured: Measured[] = [];
    for (const one of REQUESTS > 0 ? chosen : []) {
      const result = await timeSeries(server.baseUrl, one);
      measured.push(result);
      console.log(
        `${one.caller.key.padEnd(16)} ${one.label.padEnd(58)} p50 ${percentile(result.samples, 0.5).toFixed(1).padStart(7)} ms  p95 ${percentile(result.samples, 0.95).toFixed(1).padStart(7)} ms  p99 ${percentile(result.samples, 0.99).toFixed(1).padStart(7)} ms  (total ${String(result.total)})`,
      );
    }
    const loadAfter = loadLine();
    console.log(`load average after timing: ${loadAfter}`);

    if (ONLY !== undefined || REQUESTS === 0) return;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const callerText: Record<string, string> = {
      admin: 'tenant admin (all centers)',
      'duty-operator': 'operator, whole tenant',
      'center-admin': 'center admin (one center)',
      'center-operator': 'operator of one center',
      doctor: 'doctor (own care team)',
    };
    const worst = Math.max(...measured.map((result) => percentile(result.samples, 0.95)));
    const missed = measured.filter((result) => percentile(result.samples, 0.95) >= 50);
    await writeResultsSection(
      '## 1 M-patient list, counts and worklist latencies (`npx tsx tools/bench/million-patients.ts`)',
      [
        `Run ${new Date().toISOString()} on ${machineLine()}, PostgreSQL at TEST_DATABASE_URL on the same machine (server, PostgreSQL and client share the cores). Load average (1, 5, 15 min) when timing started: ${loadBefore}; when it ended: ${loadAfter}${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}.`,
        '',
        `Stored: ${Number(facts?.patients).toLocaleString('en')} patients of the demo tenant (${Number(facts?.active).toLocaleString('en')} active, the rest deleted and waiting for the purge) across ${String(centers.length)} health centers, ${String(DOCTORS_PER_CENTER)} care-team doctors per center, ${Number(facts?.sub_users).toLocaleString('en')} sub-users held by patients' app accounts; ${Number(facts?.devices).toLocaleString('en')} bound watches (${Number(facts?.silent).toLocaleString('en')} silent), ${Number(facts?.open_alerts).toLocaleString('en')} unresolved alerts, ${Number(facts?.open_cases).toLocaleString('en')} open SOS cases, ${Number(facts?.open_tickets).toLocaleString('en')} open tickets; the patients table ${facts?.size ?? ''} with its indexes.${seedSeconds === undefined ? '' : ` Generated inside PostgreSQL (INSERT … SELECT generate_series, two connections, triggers and checks on) in ${seedSeconds.toFixed(0)} s${seedNote}.`}`,
        '',
        `Timed: ${String(REQUESTS)} sequential requests per row after ${String(WARM_UP)} warm-up ones (${String(SLOW_REQUESTS)} after two when a warm-up request took over ${String(SLOW_MILLISECONDS)} ms; the "requests" column), through HTTP to the built server (production mode) with each caller's session: session check, row-level security with the caller's visibility, the page with its triage columns, the total, the audit row of the read, JSON. Search terms, centers and statuses rotate over 50 sampled patients, 8 given names, every 7th center and 3 statuses.`,
        '',
        '| caller | request | total | requests | p50 | p95 | p99 |',
        '|---|---|---:|---:|---:|---:|---:|',
        ...measured.map(
          (result) =>
            `| ${callerText[result.series.caller.key] ?? result.series.caller.key} | ${result.series.label} | ${result.total.toLocaleString('en')} | ${String(result.samples.length)} | ${ms(percentile(result.samples, 0.5))} | ${ms(percentile(result.samples, 0.95))} | ${ms(percentile(result.samples, 0.99))} |`,
        ),
        '',
        `Goal: p95 under 50 ms for every row — ${missed.length === 0 ? `met in this run (worst p95 ${ms(worst)})` : `missed by ${String(missed.length)} row(s): ${missed.map((result) => `${result.series.label} (${ms(percentile(result.samples, 0.95))})`).join('; ')}`}. "total" is what the first answer said (a list's total, the counts' total).`,
      ].join('\n'),
    );
    console.log('written tools/bench/RESULTS.md');
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
