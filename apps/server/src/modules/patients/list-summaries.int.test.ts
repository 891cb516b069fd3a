import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient } from '../../../test/factories.js';
import { ManualClock } from '../../lib/clock.js';
import { registeredPeriodicTasks } from '../jobs/registry.js';
import { FOLD_PATIENT_COUNTS_TASK, foldPatientCounts } from './counts-job.js';
import { call, logInAs, patientBody, patientOrganisation, type PatientOrganisation } from './test-support.js';

/**
 * What migration 0062 keeps beside the patient rows for the list at scale, checked against the
 * rows themselves: patient_counts (live patients per center and status) under inserts, status
 * changes, moves between centers, deletions and purges, folded or not, with concurrent writers;
 * and the severity columns (open SOS case, silent watch, rank) under SOS cases and watches.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: PatientOrganisation;
let tenantId = '';
const clock = new ManualClock(new Date(Date.now() - (Date.now() % 1000)));

interface CenterCount {
  center: string | null;
  status: string;
  n: number;
}
const keyOf = (row: CenterCount) => `${row.center ?? '-'}|${row.status}`;
const sorted = (rows: CenterCount[]) => [...rows].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));

/** Live patients per center and status, counted in the patients table. */
async function counted(): Promise<CenterCount[]> {
  return sorted(
    await asOwner<CenterCount>(
      testDb.ownerUrl,
      `SELECT health_center_id AS center, status, count(*)::int AS n FROM patients
        WHERE tenant_id = $1 AND account_state = 'ACTIVE' GROUP BY 1, 2`,
      [tenantId],
    ),
  );
}

/** The same as patient_counts says it (the sum of each key's rows; a zero is no row). */
async function summarised(): Promise<CenterCount[]> {
  return sorted(
    await asOwner<CenterCount>(
      testDb.ownerUrl,
      `SELECT health_center_id AS center, status, sum(patients)::int AS n FROM patient_counts
        WHERE tenant_id = $1 GROUP BY 1, 2 HAVING sum(patients) <> 0`,
      [tenantId],
    ),
  );
}

async function expectExact() {
  expect(await summarised()).toEqual(await counted());
}

async function fold(): Promise<number> {
  return testDb.database.withTenant(tenantId, async (tx) => {
    const result = await tx.execute<{ removed: number }>(sql`SELECT fold_patient_counts() AS removed`);
    return result.rows[0]?.removed ?? 0;
  });
}

async function owner(text: string, values: unknown[] = []) {
  return asOwner(testDb.ownerUrl, text, values);
}

/** A connection as the app role in a transaction of the tenant, as a request makes it. */
async function appTransaction(centers = '*', subject = '') {
  const client = new pg.Client({ connectionString: testDb.appUrl });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `SELECT set_config('app.tenant_id', $1, true), set_config('app.center_ids', $2, true), set_config('app.subject', $3, true)`,
    [tenantId, centers, subject],
  );
  return client;
}

beforeAll(async () => {
  testDb = await createTestDatabase({ maxConnections: 8 });
  app = await createTestApp(testDb.database, {}, clock);
  org = await patientOrganisation(testDb);
  tenantId = org.tenant.id;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('patient_counts', () => {
  it('stays exact under inserts, status changes, moves between centers, deletions and purges, folded or not', async () => {
    await expectExact();
    const admin = await logInAs(app, org.tenant.code, org.admin);
    const adminA = await logInAs(app, org.tenant.code, org.adminA);

    // Inserts: through the API (a center, and none: a tenant admin may leave it empty) and in bulk.
    const created: string[] = [];
    for (const center of [org.centerA.id, org.centerA.id, org.centerB.id, null]) {
      const response = await call(app, admin, 'POST', '/account/patients', patientBody(center));
      expect(response.statusCode).toBe(200);
      created.push(response.json<{ data: { id: string } }>().data.id);
    }
    await owner(
      `INSERT INTO patients (tenant_id, id, patient_code, first_name, last_name, status, health_center_id)
       SELECT $1, gen_random_uuid(), 'BULK' || n, 'Bulk', 'Patient', (ARRAY['NORMAL', 'AT_RISK', 'HIGH_RISK', 'SOS'])[1 + n % 4],
              CASE WHEN n % 3 = 0 THEN $2::uuid WHEN n % 3 = 1 THEN $3::uuid END
         FROM generate_series(1, 40) n`,
      [tenantId, org.centerA.id, org.centerB.id],
    );
    await expectExact();

    // Status changes: one through the API, many at once by the status engine's own statements.
    const [first, second, third, fourth] = created as [string, string, string, string];
    expect(
      (
        await call(app, admin, 'PUT', `/account/patients/${first}/status`, {
          status: 'HIGH_RISK',
          reason: 'Chest pain',
        })
      ).statusCode,
    ).toBe(200);
    await owner(
      `UPDATE patients SET status = CASE status WHEN 'NORMAL' THEN 'AT_RISK' WHEN 'AT_RISK' THEN 'NORMAL' ELSE status END
        WHERE tenant_id = $1 AND patient_code LIKE 'BULK%'`,
      [tenantId],
    );
    await expectExact();
    expect(await fold()).toBeGreaterThan(0);
    await expectExact();

    // Moves: through the API (the whole record, center B) and several at once.
    const moved = await call(app, admin, 'PUT', `/account/patients/${second}`, patientBody(org.centerB.id));
    expect(moved.statusCode).toBe(200);
    await owner(
      `UPDATE patients SET health_center_id = CASE WHEN health_center_id = $2 THEN $3 WHEN health_center_id IS NULL THEN $2 ELSE NULL END
        WHERE tenant_id = $1 AND patient_code LIKE 'BULK1%'`,
      [tenantId, org.centerA.id, org.centerB.id],
    );
    // Fields that are not counted change nothing (and append nothing).
    const [before] = await owner(`SELECT count(*)::int AS n FROM patient_counts WHERE tenant_id = $1`, [
      tenantId,
    ]);
    await owner(`UPDATE patients SET last_reading_at = now(), first_name = 'Renamed' WHERE tenant_id = $1`, [
      tenantId,
    ]);
    expect(
      await owner(`SELECT count(*)::int AS n FROM patient_counts WHERE tenant_id = $1`, [tenantId]),
    ).toEqual([before]);
    await expectExact();

    // Deletions (the account is disabled at once, the row purged later) and purges.
    const third_ = await call(app, admin, 'GET', `/account/patients/${third}`);
    const code = third_.json<{ data: { patientCode: string } }>().data.patientCode;
    expect(
      (await call(app, admin, 'DELETE', `/account/patients/${third}`, { confirmPatientCode: code }))
        .statusCode,
    ).toBe(200);
    await expectExact();
    await owner(
      `DELETE FROM patients WHERE tenant_id = $1 AND (id = $2 OR patient_code IN ('BULK7', 'BULK8', 'BULK9'))`,
      [tenantId, third],
    );
    await expectExact();
    // The periodic task folds every tenant (every minute, on the job queue's crontab).
    expect(registeredPeriodicTasks().get(FOLD_PATIENT_COUNTS_TASK)?.schedule).toBe('* * * * *');
    expect(await foldPatientCounts(testDb.database)).toBeGreaterThan(0);
    await expectExact();
    // Folded: one row per center and status at most.
    const [rows] = await owner(
      `SELECT count(*)::int AS n, count(DISTINCT (health_center_id, status))::int AS keys FROM patient_counts WHERE tenant_id = $1`,
      [tenantId],
    );
    expect(rows).toMatchObject({ n: (rows as { keys: number }).keys });

    // The answers built on it equal the rows: the dashboard counts and the list's totals of each
    // caller, by status and center.
    const live = await counted();
    const sum = (keep: (row: CenterCount) => boolean) =>
      live.filter(keep).reduce((total, row) => total + row.n, 0);
    const counts = await call(app, admin, 'GET', '/account/operator/getCountPatientStatus');
    expect(counts.json<{ data: Record<string, number> }>().data).toEqual({
      NORMAL: sum((row) => row.status === 'NORMAL'),
      AT_RISK: sum((row) => row.status === 'AT_RISK'),
      HIGH_RISK: sum((row) => row.status === 'HIGH_RISK'),
      SOS: sum((row) => row.status === 'SOS'),
      total: sum(() => true),
    });
    const ofCenterA = await call(
      app,
      adminA,
      'GET',
      `/account/smadmin/mhsc/getCountPatientStatus?mhscId=${org.centerA.id}`,
    );
    expect(ofCenterA.json<{ data: { total: number; AT_RISK: number } }>().data).toMatchObject({
      total: sum((row) => row.center === org.centerA.id),
      AT_RISK: sum((row) => row.center === org.centerA.id && row.status === 'AT_RISK'),
    });
    const total = async (token: string, query: string) =>
      (await call(app, token, 'GET', `/account/patients?size=1&${query}`)).json<{ data: { total: number } }>()
        .data.total;
    expect(await total(admin, '')).toBe(sum(() => true));
    expect(await total(admin, 'status=SOS')).toBe(sum((row) => row.status === 'SOS'));
    expect(await total(admin, `centerId=${org.centerB.id}&status=NORMAL`)).toBe(
      sum((row) => row.center === org.centerB.id && row.status === 'NORMAL'),
    );
    expect(await total(adminA, '')).toBe(sum((row) => row.center === org.centerA.id));
    // A center the caller does not see counts nothing, as its rows list nothing.
    expect(await total(adminA, `centerId=${org.centerB.id}`)).toBe(0);
    expect(fourth).toBeDefined();
  });

  it('lets concurrent changes in one center go on without waiting for each other, and folds beside them', async () => {
    const make = (status: string) =>
      createPatient(testDb.database, tenantId, {
        healthCenterId: org.centerA.id,
        status,
        firstName: 'Con',
        lastName: 'Current',
      });
    const up = await make('NORMAL');
    const down = await make('AT_RISK');
    const other = await make('HIGH_RISK');
    await fold();

    // One writer holds its change open; the other changes the same center's same two statuses the
    // other way round. With one counter row per key the second would wait (and the two could
    // deadlock); appended rows conflict with nothing: under a short lock_timeout it still commits.
    const holding = await appTransaction();
    await holding.query(`UPDATE patients SET status = 'AT_RISK' WHERE id = $1`, [up.id]);
    const crossing = await appTransaction();
    await crossing.query(`SET LOCAL lock_timeout = '200ms'`);
    await crossing.query(`UPDATE patients SET status = 'NORMAL' WHERE id = $1`, [down.id]);
    await crossing.query(`UPDATE patients SET status = 'NORMAL' WHERE id = $1`, [other.id]);
    await crossing.query('COMMIT');
    // A fold while a change is uncommitted: that change's rows stay for the next fold.
    await fold();
    await holding.query('COMMIT');
    await expectExact();

    // Two folds at once: the second waits for the rows the first removes, then skips them.
    await owner(`UPDATE patients SET status = 'SOS' WHERE id = ANY ($1::uuid[])`, [[up.id, down.id]]);
    const folding = await appTransaction('');
    await folding.query('SELECT fold_patient_counts()');
    const second = fold();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await folding.query('COMMIT');
    await second;
    await Promise.all([holding.end(), crossing.end(), folding.end()]);
    await expectExact();
  });

  it('is read by center like the patients it counts, by no patient account, and written by nobody but its triggers', async () => {
    const ofCenterA = await appTransaction(org.centerA.id);
    const centers = await ofCenterA.query<{ center: string | null }>(
      'SELECT DISTINCT health_center_id AS center FROM patient_counts',
    );
    expect(centers.rows.map((row) => row.center)).toEqual([org.centerA.id]);
    await ofCenterA.query('ROLLBACK');
    const patient = await appTransaction('none', 'patient');
    expect((await patient.query('SELECT * FROM patient_counts')).rows).toEqual([]);
    await patient.query('ROLLBACK');
    const writer = await appTransaction();
    await expect(
      writer.query(`INSERT INTO patient_counts (tenant_id, status, patients) VALUES ($1, 'NORMAL', 1000)`, [
        tenantId,
      ]),
    ).rejects.toMatchObject({ code: '42501' });
    await writer.query('ROLLBACK');
    await Promise.all([ofCenterA.end(), patient.end(), writer.end()]);
  });
});

describe('severity columns', () => {
  interface Triage {
    open_sos_opened_at: Date | null;
    no_data: boolean;
    triage_rank: number;
  }
  const triageOf = async (id: string) =>
    (
      await owner(`SELECT open_sos_opened_at, no_data, triage_rank FROM patients WHERE id = $1`, [id])
    )[0] as Triage;

  it('follow the open SOS case', async () => {
    const patient = await createPatient(testDb.database, tenantId, {
      healthCenterId: org.centerA.id,
      status: 'AT_RISK',
    });
    expect(await triageOf(patient.id)).toMatchObject({ open_sos_opened_at: null, triage_rank: 2 });
    const caseId = randomUUID();
    const openedAt = new Date('2025-03-01T10:00:00Z');
    // Opened by a caller of the patient's center: the trigger sees past it and gives its settings back.
    const opener = await appTransaction(org.centerA.id);
    await opener.query(
      `INSERT INTO sos_cases (tenant_id, id, patient_id, status, reason, source, opened_at, kpi_due_at)
       VALUES ($1, $2, $3, 'NEW', 'SOS_BUTTON', 'SOS_BUTTON', $4, $4)`,
      [tenantId, caseId, patient.id, openedAt],
    );
    const settings = await opener.query<{ centers: string; subject: string }>(
      `SELECT current_setting('app.center_ids', true) AS centers, current_setting('app.subject', true) AS subject`,
    );
    expect(settings.rows[0]).toEqual({ centers: org.centerA.id, subject: '' });
    await opener.query('COMMIT');
    await opener.end();
    expect(await triageOf(patient.id)).toEqual({
      open_sos_opened_at: openedAt,
      no_data: false,
      triage_rank: 5,
    });
    await owner(`UPDATE sos_cases SET status = 'RESOLVED' WHERE id = $1`, [caseId]);
    expect((await triageOf(patient.id)).triage_rank).toBe(5);
    await owner(`UPDATE sos_cases SET status = 'CLOSED', closed_at = now() WHERE id = $1`, [caseId]);
    expect(await triageOf(patient.id)).toMatchObject({ open_sos_opened_at: null, triage_rank: 2 });
    const again = randomUUID();
    await owner(
      `INSERT INTO sos_cases (tenant_id, id, patient_id, status, reason, source, opened_at, kpi_due_at)
       VALUES ($1, $2, $3, 'IN_PROCESS', 'FALL', 'FALL', $4, $4)`,
      [tenantId, again, patient.id, openedAt],
    );
    expect((await triageOf(patient.id)).triage_rank).toBe(5);
    await owner(`DELETE FROM sos_cases WHERE id = $1`, [again]);
    expect(await triageOf(patient.id)).toMatchObject({ open_sos_opened_at: null, triage_rank: 2 });
    await owner(`UPDATE patients SET status = 'SOS' WHERE id = $1`, [patient.id]);
    expect((await triageOf(patient.id)).triage_rank).toBe(4);
  });

  it('follow the patient’s watches: bound, silent, synced, moved, unbound, removed', async () => {
    const patient = await createPatient(testDb.database, tenantId, { healthCenterId: org.centerA.id });
    const other = await createPatient(testDb.database, tenantId, { healthCenterId: org.centerB.id });
    const watch = uuidv7();
    const spare = uuidv7();
    const insert = `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id, app_status)
                    VALUES ($1, $2, 'V19', $3, $4, $5, $6)`;
    await owner(insert, [tenantId, watch, `SN-${watch}`, 'A0:00:00:00:00:01', patient.id, 'ONLINE']);
    expect(await triageOf(patient.id)).toMatchObject({ no_data: false, triage_rank: 0 });
    await owner(`UPDATE devices SET app_status = 'NO_SYNC' WHERE id = $1`, [watch]);
    expect(await triageOf(patient.id)).toMatchObject({ no_data: true, triage_rank: 1 });
    // A second, synced watch does not hide the silent one.
    await owner(insert, [tenantId, spare, `SN-${spare}`, 'A0:00:00:00:00:02', patient.id, 'ONLINE']);
    expect((await triageOf(patient.id)).no_data).toBe(true);
    await owner(`UPDATE devices SET app_status = 'ONLINE' WHERE id = $1`, [watch]);
    expect((await triageOf(patient.id)).no_data).toBe(false);
    await owner(`UPDATE devices SET app_status = 'NO_SYNC' WHERE id = $1`, [spare]);
    expect((await triageOf(patient.id)).no_data).toBe(true);
    // Moved to another patient: the silence goes with it.
    await owner(`UPDATE devices SET patient_id = $2 WHERE id = $1`, [spare, other.id]);
    expect((await triageOf(patient.id)).no_data).toBe(false);
    expect(await triageOf(other.id)).toMatchObject({ no_data: true, triage_rank: 1 });
    await owner(`UPDATE devices SET patient_id = NULL WHERE id = $1`, [spare]);
    expect((await triageOf(other.id)).no_data).toBe(false);
    await owner(`UPDATE devices SET app_status = 'NO_SYNC' WHERE id = $1`, [watch]);
    expect((await triageOf(patient.id)).no_data).toBe(true);
    await owner(`DELETE FROM devices WHERE id = $1`, [watch]);
    expect(await triageOf(patient.id)).toMatchObject({ no_data: false, triage_rank: 0 });
  });
});

describe('search', () => {
  it('answers a page and the total of a search in one reading, past the end and without a match too', async () => {
    const admin = await logInAs(app, org.tenant.code, org.admin);
    for (const firstName of ['Xuyen', 'Xuyen', 'Xuyen'])
      await createPatient(testDb.database, tenantId, {
        healthCenterId: org.centerA.id,
        firstName,
        lastName: 'Search',
      });
    const page = async (query: string) =>
      (await call(app, admin, 'GET', `/account/patients?${query}`)).json<{
        data: { items: { id: string; firstName: string }[]; total: number };
      }>().data;
    const first = await page('search=xuyen%20search&size=2&sortField=name');
    expect(first.items.map((item) => item.firstName)).toEqual(['Xuyen', 'Xuyen']);
    expect(first.total).toBe(3);
    expect(await page('search=xuyen%20search&size=2&page=1&sortField=name')).toMatchObject({ total: 3 });
    expect((await page('search=xuyen%20search&size=2&page=1')).items).toHaveLength(1);
    expect(await page('search=xuyen%20search&size=2&page=5')).toEqual({
      items: [],
      total: 3,
      isTotalExact: true,
      page: 5,
      size: 2,
    });
    expect(await page('search=nobody%20by%20that%20name')).toMatchObject({ items: [], total: 0 });
  });
});
