/**
 * What auditing a read of patient data costs. On a fresh database with the demo tenant:
 *
 * 1. The database work of the patient list, 500 times without and 500 times with its audit row:
 *    one transaction as a request makes it (tenant and visibility set, a page of 20 patients and
 *    the total), with or without the one INSERT naming the 20
 *    patients (`recordPatientReads`), alternating request by request; and the same with
 *    synchronous_commit off (not what the route does: it shows the share of the commit flush).
 * 2. The same "with" run after dropping the GIN index on details.patientIds (migration 0023), to
 *    show what the index adds to each insert.
 * 3. 500 GET /account/patients?size=20 through the whole app (in-process inject: session check,
 *    schema, transaction, audit, serialisation) for the end-to-end time the audit is part of.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/bench/phi-audit.ts
 *   (without TEST_DATABASE_URL an embedded PostgreSQL is started); BENCH_REQUESTS (500).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { pino } from 'pino';
import { uuidv7 } from 'uuidv7';
import { buildApp } from '../../apps/server/src/app.js';
import { ALL_CENTERS, connectDatabase } from '../../apps/server/src/db/database.js';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.js';
import { deriveAppUrl, ensureDatabase, migrate } from '../../apps/server/src/db/migrator.js';
import { recordPatientReads } from '../../apps/server/src/modules/audit/reads.js';
import type { AuditContext } from '../../apps/server/src/modules/audit/store.js';
import { listPatients } from '../../apps/server/src/modules/patients/store.js';
import { DEMO_PASSWORD, DEMO_TENANT_CODE, seedDemo } from '../../apps/server/src/seed/demo.js';
import { testConfig, TEST_SECRETS_KEY_HEX } from '../../apps/server/test/test-config.js';
import { machineLine, percentile, writeResultsSection } from './bench-server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? '500');
const SECRETS_KEY = Buffer.from(TEST_SECRETS_KEY_HEX, 'hex');
// The list as a center's staff sees it (the caller only matters to the `mine` scope).
const FILTER = {
  scope: 'center',
  sortField: 'created',
  sortType: 'desc',
  callerId: '00000000-0000-0000-0000-000000000000',
} as const;

interface Timing {
  label: string;
  samples: number[];
}

const summary = ({ samples }: Timing) => {
  const sorted = [...samples].sort((left, right) => left - right);
  const total = samples.reduce((sum, value) => sum + value, 0);
  return { total, mean: total / samples.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

async function main() {
  let adminUrl = process.env.TEST_DATABASE_URL;
  const work = await mkdtemp(path.join(os.tmpdir(), 'rpm-bench-'));
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (adminUrl === undefined || adminUrl === '') {
    const embedded = await startEmbeddedPostgres({
      directory: path.join(work, 'pg'),
      port: 54000 + Math.floor(Math.random() * 900),
    });
    adminUrl = embedded.adminUrl;
    stopEmbedded = () => embedded.stop();
  }
  const databaseName = `rpm_bench_phi_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, databaseName);
  const ownerUrl = new URL(adminUrl);
  ownerUrl.pathname = `/${databaseName}`;
  await migrate({ ownerUrl: ownerUrl.toString(), secretsKey: SECRETS_KEY });
  const database = connectDatabase(deriveAppUrl(ownerUrl.toString(), SECRETS_KEY), { maxConnections: 4 });
  const owner = new pg.Client({ connectionString: ownerUrl.toString() });
  await owner.connect();
  try {
    await seedDemo(database);
    const tenant = await owner.query<{ id: string }>('SELECT id FROM tenants WHERE code = $1', [
      DEMO_TENANT_CODE,
    ]);
    const tenantId = tenant.rows[0]?.id ?? '';
    const context: AuditContext = {
      actorUserId: uuidv7(),
      actorTenantId: tenantId,
      ip: '127.0.0.1',
      userAgent: 'bench',
      requestId: 'bench',
    };

    // One request's database work, as the list route does it.
    const listOnce = async (audit: 'none' | 'audit' | 'audit-async-commit') => {
      const started = performance.now();
      await database.withTenant(
        tenantId,
        async (tx) => {
          const { items, total } = await listPatients(tx, FILTER, { page: 0, size: 20 });
          if (audit === 'none') return;
          // Only to show where the cost lies: the route keeps synchronous commit.
          if (audit === 'audit-async-commit') await tx.execute(sql`SET LOCAL synchronous_commit = off`);
          await recordPatientReads(tx, tenantId, context, {
            action: 'PATIENT_LISTED',
            patientIds: items.map((row) => row.patient.id),
            details: { ...FILTER, page: 0, size: 20, shown: items.length, total },
          });
        },
        ALL_CENTERS,
      );
      return performance.now() - started;
    };
    for (let warm = 0; warm < 60; warm++) await listOnce(warm % 2 === 0 ? 'none' : 'audit');

    // The variants alternate request by request, so load from elsewhere falls on all of them alike.
    const without: Timing = { label: 'list, no audit', samples: [] };
    const withAudit: Timing = { label: 'list + audit row (20 patient ids)', samples: [] };
    const asyncCommit: Timing = {
      label: 'list + audit row, synchronous_commit off (not used; shows the commit flush)',
      samples: [],
    };
    for (let index = 0; index < REQUESTS; index++) {
      without.samples.push(await listOnce('none'));
      withAudit.samples.push(await listOnce('audit'));
      asyncCommit.samples.push(await listOnce('audit-async-commit'));
    }
    await owner.query('DROP INDEX audit_log_patient_ids');
    const noIndexControl: Timing = { label: 'list, no audit (control of the next row)', samples: [] };
    const noIndex: Timing = { label: 'list + audit row, no patientIds index', samples: [] };
    for (let index = 0; index < REQUESTS; index++) {
      noIndexControl.samples.push(await listOnce('none'));
      noIndex.samples.push(await listOnce('audit'));
    }
    await owner.query(
      `CREATE INDEX audit_log_patient_ids ON audit_log USING gin ((details -> 'patientIds') jsonb_path_ops) WHERE details ? 'patientIds'`,
    );

    // End to end through the app.
    const dataDir = path.join(work, 'data');
    const app = await buildApp({
      config: testConfig({ dataDir }),
      database,
      logger: pino({ level: 'silent' }),
    });
    const login = await app.inject({
      method: 'POST',
      url: '/auth/oauth-token',
      payload: {
        tenant: DEMO_TENANT_CODE,
        username: 'admin@demo.example',
        password: DEMO_PASSWORD,
        grant_type: 'password',
      },
    });
    const cookie = login.cookies.find((candidate) => candidate.name === 'rpm_session')?.value ?? '';
    const http: Timing = { label: 'GET /account/patients?size=20 (in-process, audited)', samples: [] };
    for (let index = 0; index < 50 + REQUESTS; index++) {
      const started = performance.now();
      const response = await app.inject({
        url: '/account/patients?size=20',
        cookies: { rpm_session: cookie },
      });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`list answered ${String(response.statusCode)}`);
      if (index >= 50) http.samples.push(elapsed);
    }
    await app.close();

    const size = await owner.query<{ rows: number; bytes: number; index_bytes: number }>(
      `SELECT count(*)::int AS rows, pg_total_relation_size('audit_log')::bigint AS bytes,
              pg_relation_size('audit_log_patient_ids')::bigint AS index_bytes
         FROM audit_log WHERE details ? 'patientIds'`,
    );
    const stored = size.rows[0];

    const lines = [without, withAudit, asyncCommit, noIndexControl, noIndex, http].map((timing) => {
      const { total, mean, p50, p95 } = summary(timing);
      return `| ${timing.label} | ${String(timing.samples.length)} | ${(total / 1000).toFixed(2)} s | ${mean.toFixed(3)} ms | ${p50.toFixed(3)} ms | ${p95.toFixed(3)} ms |`;
    });
    // Paired: request i of one variant against request i of the other (they ran side by side).
    const pairedMedian = (left: Timing, right: Timing) => {
      const differences = left.samples.map((value, index) => value - (right.samples[index] ?? 0));
      return percentile(
        differences.sort((a, b) => a - b),
        0.5,
      );
    };
    const cost = pairedMedian(withAudit, without);
    const costAsync = pairedMedian(asyncCommit, without);
    const costNoIndex = pairedMedian(noIndex, noIndexControl);
    const databaseLabel =
      process.env.TEST_DATABASE_URL === undefined ? 'embedded PostgreSQL' : 'PostgreSQL at TEST_DATABASE_URL';
    const body = [
      `Run ${new Date().toISOString()} on ${machineLine()}, ${databaseLabel} on the same machine${process.env.BENCH_NOTE === undefined ? '' : ` (${process.env.BENCH_NOTE})`}.`,
      '',
      `The demo tenant (40 patients). Each database row is one request's transaction as the patient list makes it (tenant and visibility set, a page of 20 and the total), sequential, without and with its audit row (one INSERT; details.patientIds names the 20 patients), ${String(REQUESTS)} of each alternating request by request. The HTTP row is the whole route in-process (app.inject: session, schema, transaction with the audit, JSON).`,
      '',
      '| what | requests | total | mean | p50 | p95 |',
      '|---|---:|---:|---:|---:|---:|',
      ...lines,
      '',
      `Audit cost per list request (median of paired differences): ${cost.toFixed(3)} ms, against a median of ${summary(without).p50.toFixed(3)} ms for the list's database work without it; without the patientIds index ${costNoIndex.toFixed(3)} ms; with synchronous_commit off ${costAsync.toFixed(3)} ms (a read-only transaction commits without flushing the WAL, one that writes its audit row waits for the flush).`,
      `Stored: ${String(stored?.rows ?? 0)} read rows; audit_log with its indexes ${((stored?.bytes ?? 0) / 1024).toFixed(0)} kB, the patientIds index ${((stored?.index_bytes ?? 0) / 1024).toFixed(0)} kB.`,
    ].join('\n');
    console.log(body);
    await writeResultsSection('## Audit of patient-data reads (`npx tsx tools/bench/phi-audit.ts`)', body);
  } finally {
    await owner.end();
    await database.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(databaseName)} WITH (FORCE)`);
    await admin.end();
    await stopEmbedded?.();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
