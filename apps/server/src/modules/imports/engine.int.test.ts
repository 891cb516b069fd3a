import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logIn, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { healthCenters } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { systemClock } from '../../lib/clock.js';
import { resolveSession } from '../auth/sessions.js';
import { ImportFiles } from './files.js';
import type { ImportKind } from './kind.js';
import { recoverStaleImports } from './recovery.js';
import { IMPORT_BATCH_ROWS, ImportRunner } from './runner.js';
import { startImport, type ImportCaller, type ImportEnvironment } from './service.js';
import { CENTER_HEADERS, centerImportKind, handMadeZip, PNG, rowsOf, workbookOf } from './test-support.js';

/**
 * The import engine with a small kind of its own (health centers by name): the file checks, the
 * background parse, batches, progress, the error file, one import at a time, failures mid-way and
 * recovery after a crash. The patient and device kinds are exercised through HTTP in
 * imports.int.test.ts.
 */
let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
let files: ImportFiles;
const runners: ImportRunner[] = [];
const silentLog = { error: () => undefined, warn: () => undefined };

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-imports-'));
  app = await createTestApp(testDb.database, { dataDir });
  files = new ImportFiles(path.join(dataDir, 'imports'));
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function environmentWith(kind: ImportKind<unknown>): ImportEnvironment {
  const runner = new ImportRunner({ database: testDb.database, clock: systemClock, files, log: silentLog });
  runners.push(runner);
  return {
    database: testDb.database,
    clock: systemClock,
    files,
    kinds: { PATIENT: kind, DEVICE: kind },
    runner,
  };
}

/** A tenant with an admin (whole tenant), signed in: the caller of the service and their token. */
async function signedInAdmin() {
  const tenant = await createTenant(testDb.database);
  const user = await createTenantUser(testDb.database, tenant.id, { role: 'ADMIN' });
  const token = await logIn(app, tenant.code, user.email ?? '');
  const auth = await resolveSession(testDb.database, systemClock, token);
  const caller: ImportCaller = {
    auth,
    audit: {
      actorUserId: auth.userId,
      actorTenantId: auth.tenantId,
      ip: '127.0.0.1',
      userAgent: 'test',
      requestId: null,
    },
    language: 'en',
  };
  return { tenant, user, token, caller };
}

const uploadOf =
  (content: Buffer, fileName = 'centers.xlsx') =>
  () =>
    Promise.resolve({ fileName, stream: Readable.from([content]), isTruncated: () => false });

async function errorCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

interface JobRow {
  status: string;
  rows_processed: number;
  rows_stored: number;
  rows_failed: number;
  bytes_read: string;
  file_size: string;
  failure_code: string | null;
  error_file_key: string | null;
}
const jobRow = async (id: string) =>
  (await asOwner<JobRow>(testDb.ownerUrl, 'SELECT * FROM import_jobs WHERE id = $1', [id]))[0];
const centerNames = async (tenantId: string) =>
  (
    await asOwner<{ name: string }>(
      testDb.ownerUrl,
      'SELECT name FROM health_centers WHERE tenant_id = $1 ORDER BY name',
      [tenantId],
    )
  ).map((row) => row.name);
const uploadsLeft = async (tenantId: string) =>
  (await readdir(path.join(dataDir, 'imports', tenantId)).catch(() => [])).filter((name) =>
    name.endsWith('.upload.xlsx'),
  );

describe('a file with good and bad rows', () => {
  it('stores the good rows and lists exactly the refused rows, with their reasons, in the error file', async () => {
    const { tenant, token, caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const file = await workbookOf(CENTER_HEADERS, [
      ['Alpha', 10],
      [null, 5],
      ['Beta', 'many'],
      [],
      ['Gamma', null],
      ['Alpha', 3],
      ['=HYPERLINK("http://evil")', 1],
    ]);
    const job = await startImport(environment, caller, 'PATIENT', uploadOf(file));
    expect(job).toMatchObject({ status: 'QUEUED', fileName: 'centers.xlsx', fileSize: file.length });
    await environment.runner.settled(job.id);

    const stored = await jobRow(job.id);
    // Row 5 is empty: skipped and not counted.
    expect(stored).toMatchObject({
      status: 'PARTIAL',
      rows_processed: 6,
      rows_stored: 3,
      rows_failed: 3,
      failure_code: null,
    });
    expect(Number(stored?.bytes_read)).toBe(file.length);
    expect(await centerNames(tenant.id)).toEqual(['=HYPERLINK("http://evil")', 'Alpha', 'Gamma']);

    const download = await app.inject({
      url: `/account/imports/${job.id}/error-file`,
      ...withSession(token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('spreadsheetml');
    expect(await rowsOf(download.rawPayload)).toEqual([
      ['Name', 'Beds', 'Row', 'Reason'],
      [undefined, 5, 3, 'Name is required'],
      ['Beta', 'many', 4, 'Beds must be a whole number'],
      ['Alpha', 3, 7, 'Name already exists'],
    ]);
    expect(await uploadsLeft(tenant.id)).toEqual([]);

    const audits = await asOwner<{ action: string; details: Record<string, unknown> }>(
      testDb.ownerUrl,
      `SELECT action, details FROM audit_log WHERE target_id = $1 ORDER BY occurred_at, action DESC`,
      [job.id],
    );
    expect(audits.map((audit) => audit.action)).toEqual(['IMPORT_STARTED', 'IMPORT_FINISHED']);
    expect(audits[1]?.details).toMatchObject({ status: 'PARTIAL', rowsStored: 3, rowsFailed: 3 });
  });

  it('escapes formula text in the error file', async () => {
    const { token, caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const job = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(await workbookOf(CENTER_HEADERS, [['=1+1', 'x']])),
    );
    await environment.runner.settled(job.id);
    const download = await app.inject({
      url: `/account/imports/${job.id}/error-file`,
      ...withSession(token),
    });
    expect((await rowsOf(download.rawPayload))[1]).toEqual(["'=1+1", 'x', 2, 'Beds must be a whole number']);
  });

  it('is FAILED, not finished, when the file was read to the end and no row was stored', async () => {
    const { caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const job = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(
        await workbookOf(CENTER_HEADERS, [
          [null, 1],
          ['Bad', 'x'],
        ]),
      ),
    );
    await environment.runner.settled(job.id);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'FAILED',
      rows_processed: 2,
      rows_stored: 0,
      rows_failed: 2,
      failure_code: null,
    });
    expect((await jobRow(job.id))?.error_file_key).not.toBeNull();
  });

  it('runs the kind’s finish beside the batches every so many rows, and once when the import ends', async () => {
    const { caller } = await signedInAdmin();
    const finished: number[] = [];
    const kind = centerImportKind();
    const environment = environmentWith({
      ...kind,
      finishEveryRows: 1000,
      async finish(tx) {
        // What the job's tenant stored so far: the finish runs in its transaction, after the batches it follows.
        const [row] = await tx.select({ count: sql<number>`count(*)::int` }).from(healthCenters).where(sql`name LIKE 'Finish %'`);
        finished.push(row?.count ?? -1);
      },
    });
    const rows = Array.from({ length: 2500 }, (_, index) => [`Finish ${String(index)}`, 1]);
    const job = await startImport(environment, caller, 'PATIENT', uploadOf(await workbookOf(CENTER_HEADERS, rows)));
    await environment.runner.settled(job.id);
    expect(await jobRow(job.id)).toMatchObject({ status: 'SUCCEEDED', rows_stored: 2500 });
    // After the first or second batch of 1,000 (one run at a time), and at the end with every row.
    expect(finished.length).toBeGreaterThanOrEqual(2);
    expect(finished.at(-1)).toBe(2500);
    expect(finished.slice(0, -1).every((count) => count >= 1000 && count < 2500)).toBe(true);
  });

  it('has no error file when every row is stored', async () => {
    const { token, caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const job = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(await workbookOf(CENTER_HEADERS, [['Solo', 1]])),
    );
    await environment.runner.settled(job.id);
    expect(await jobRow(job.id)).toMatchObject({ status: 'SUCCEEDED', rows_stored: 1, error_file_key: null });
    const download = await app.inject({
      url: `/account/imports/${job.id}/error-file`,
      ...withSession(token),
    });
    expect(download.statusCode).toBe(404);
    expect(download.json()).toMatchObject({ code: 'import.noErrorFile' });
  });
});

describe('files refused before a job exists', () => {
  const cases: [string, () => Promise<Buffer> | Buffer, string, string?][] = [
    ['wrong headers', () => workbookOf(['Name', 'Bed count'], [['A', 1]]), 'import.wrongHeaders'],
    ['headers in another order', () => workbookOf(['Beds', 'Name'], [[1, 'A']]), 'import.wrongHeaders'],
    [
      'an extra header column',
      () => workbookOf([...CENTER_HEADERS, 'Notes'], [['A', 1, 'x']]),
      'import.wrongHeaders',
    ],
    ['headers only', () => workbookOf(CENTER_HEADERS, []), 'import.empty'],
    ['a workbook with no rows at all', () => workbookOf([], []), 'import.empty'],
    ['an empty file', () => Buffer.alloc(0), 'import.empty'],
    ['a PNG renamed .xlsx', () => PNG, 'import.invalidFile'],
    ['a text file renamed .xlsx', () => Buffer.from('Name,Beds\nA,1\n'), 'import.invalidFile'],
    [
      'a zip that is not a workbook',
      () => handMadeZip([{ name: 'hello.txt', content: Buffer.from('hello') }]),
      'import.invalidFile',
    ],
    [
      'a zip bomb (an entry inflating a thousand times)',
      () => handMadeZip([{ name: 'xl/workbook.xml', content: Buffer.alloc(20 * 1024 * 1024) }]),
      'import.invalidFile',
    ],
    [
      'a zip claiming more than 2 GB uncompressed',
      () =>
        handMadeZip([
          { name: 'xl/workbook.xml', content: Buffer.from('<workbook/>') },
          {
            name: 'xl/worksheets/sheet1.xml',
            content: Buffer.from('<worksheet/>'),
            declaredSize: 3 * 1024 * 1024 * 1024,
          },
        ]),
      'import.invalidFile',
    ],
    [
      'a zip of more than 10,000 entries',
      () =>
        handMadeZip([
          { name: 'xl/workbook.xml', content: Buffer.from('<workbook/>') },
          ...Array.from({ length: 10_001 }, (_, index) => ({ name: `x/${index}`, content: Buffer.from('') })),
        ]),
      'import.invalidFile',
    ],
    [
      'a name that is not .xlsx',
      () => workbookOf(CENTER_HEADERS, [['A', 1]]),
      'file.unsupportedType',
      'centers.csv',
    ],
  ];
  it.each(cases)('refuses %s and creates nothing', async (_label, content, code, fileName) => {
    const { tenant, caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    expect(
      await errorCodeOf(startImport(environment, caller, 'PATIENT', uploadOf(await content(), fileName))),
    ).toBe(code);
    expect(
      await asOwner(testDb.ownerUrl, 'SELECT id FROM import_jobs WHERE tenant_id = $1', [tenant.id]),
    ).toEqual([]);
    expect(await uploadsLeft(tenant.id)).toEqual([]);
  });

  it('refuses a workbook whose sheet inflates beyond what its zip declares', async () => {
    const { caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${'<row><c t="inlineStr"><is><t>Name</t></is></c></row>'.repeat(2000)}</sheetData></worksheet>`;
    const zip = handMadeZip([
      {
        name: 'xl/workbook.xml',
        content: Buffer.from(
          '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>',
        ),
      },
      { name: 'xl/worksheets/sheet1.xml', content: Buffer.from(sheet), declaredSize: 100 },
    ]);
    expect(await errorCodeOf(startImport(environment, caller, 'PATIENT', uploadOf(zip)))).toBe(
      'import.invalidFile',
    );
  });

  it('stops counting at the size limit while streaming', async () => {
    const target = path.join(dataDir, 'limit-test.xlsx');
    await expect(
      files.save(Readable.from([Buffer.alloc(64), Buffer.alloc(64)]), target, 100, () => false),
    ).rejects.toThrow('upload over the size limit');
    await expect(readFile(target)).rejects.toThrow();
  });
});

describe('one import at a time, progress, failures', () => {
  it('shows progress while running, refuses a second import meanwhile, and accepts one again after', async () => {
    const { tenant, token, caller } = await signedInAdmin();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const environment = environmentWith(
      centerImportKind({ beforeBatch: (batch) => (batch === 2 ? held : Promise.resolve()) }),
    );
    const rows = Array.from({ length: IMPORT_BATCH_ROWS * 2 + 10 }, (_, index) => [`Center ${index}`, index]);
    const file = await workbookOf(CENTER_HEADERS, rows);
    const job = await startImport(environment, caller, 'PATIENT', uploadOf(file));

    // The second batch is held: the first one's progress is visible to the console.
    let seen:
      | { status: string; rowsProcessed: number; rowsStored: number; bytesRead: number; fileSize: number }
      | undefined;
    for (let attempt = 0; attempt < 200; attempt++) {
      const current = await app.inject({
        url: '/account/imports/current?kind=PATIENT',
        ...withSession(token),
      });
      seen = current.json<{ data: NonNullable<typeof seen> }>().data;
      if (seen.rowsStored >= IMPORT_BATCH_ROWS) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(seen).toMatchObject({ status: 'RUNNING', rowsStored: IMPORT_BATCH_ROWS });
    expect(seen?.rowsProcessed).toBeGreaterThanOrEqual(IMPORT_BATCH_ROWS);
    expect(seen?.bytesRead).toBeGreaterThan(0);
    expect(seen?.bytesRead).toBeLessThan(file.length);

    const second = startImport(
      environment,
      caller,
      'DEVICE',
      uploadOf(await workbookOf(CENTER_HEADERS, [['Other', 1]])),
    );
    expect(await errorCodeOf(second)).toBe('import.inProgress');

    release();
    await environment.runner.settled(job.id);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'SUCCEEDED',
      rows_stored: rows.length,
      rows_failed: 0,
    });
    expect(await centerNames(tenant.id)).toHaveLength(rows.length);

    const next = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(await workbookOf(CENTER_HEADERS, [['After', 1]])),
    );
    await environment.runner.settled(next.id);
    expect((await jobRow(next.id))?.status).toBe('SUCCEEDED');
  });

  it('lets exactly one of two racing uploads start', async () => {
    const { tenant, caller } = await signedInAdmin();
    const environment = environmentWith(centerImportKind());
    const file = await workbookOf(CENTER_HEADERS, [['Race', 1]]);
    const results = await Promise.allSettled([
      startImport(environment, caller, 'PATIENT', uploadOf(file)),
      startImport(environment, caller, 'PATIENT', uploadOf(file)),
      startImport(environment, caller, 'DEVICE', uploadOf(file)),
    ]);
    const started = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) =>
      result.status === 'rejected' && result.reason instanceof AppError ? [result.reason.code] : [],
    );
    expect(started).toHaveLength(1);
    expect(refused).toEqual(['import.inProgress', 'import.inProgress']);
    await environment.runner.settled();
    expect(
      await asOwner(testDb.ownerUrl, 'SELECT id FROM import_jobs WHERE tenant_id = $1', [tenant.id]),
    ).toHaveLength(1);
    expect(await uploadsLeft(tenant.id)).toEqual([]);
  });

  it('marks a job PARTIAL when storing fails mid-way, keeping the batches stored before', async () => {
    const { tenant, caller } = await signedInAdmin();
    const environment = environmentWith(
      centerImportKind({
        beforeBatch: (batch) =>
          batch === 2 ? Promise.reject(new Error('database went away')) : Promise.resolve(),
      }),
    );
    const rows = Array.from({ length: IMPORT_BATCH_ROWS + 500 }, (_, index) => [`Kept ${index}`, 1]);
    const job = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(await workbookOf(CENTER_HEADERS, rows)),
    );
    await environment.runner.settled(job.id);
    expect(await jobRow(job.id)).toMatchObject({
      status: 'PARTIAL',
      failure_code: 'import.interrupted',
      rows_stored: IMPORT_BATCH_ROWS,
    });
    expect(await centerNames(tenant.id)).toHaveLength(IMPORT_BATCH_ROWS);
    expect(await uploadsLeft(tenant.id)).toEqual([]);
  });

  it('ends running jobs when the server stops: PARTIAL with the rows stored, else FAILED', async () => {
    const { caller } = await signedInAdmin();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const environment = environmentWith(centerImportKind({ beforeBatch: () => held }));
    const job = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(
        await workbookOf(
          CENTER_HEADERS,
          Array.from({ length: 3000 }, (_, index) => [`Stop ${index}`, 1]),
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = environment.runner.stop();
    release();
    await stopping;
    // The batch held when the server stopped may still commit: what was stored decides the status.
    const stopped = await jobRow(job.id);
    expect(stopped).toMatchObject({ failure_code: 'import.interrupted' });
    expect(stopped?.status).toBe((stopped?.rows_stored ?? 0) > 0 ? 'PARTIAL' : 'FAILED');
    expect(stopped?.rows_stored).toBeLessThan(3000);
  });
});

describe('recovery after a crash', () => {
  it('ends a job whose heartbeat stopped, leaves a live one alone, and lets the tenant import again', async () => {
    const { tenant, user, caller } = await signedInAdmin();
    const other = await signedInAdmin();
    const insert = (tenantId: string, createdBy: string, heartbeat: string) =>
      asOwner<{ id: string }>(
        testDb.ownerUrl,
        `INSERT INTO import_jobs (tenant_id, id, kind, status, file_name, file_size, created_by, started_at, heartbeat_at, rows_stored)
         VALUES ($1, gen_random_uuid(), 'PATIENT', 'RUNNING', 'crashed.xlsx', 100, $2, now(), now() - $3::interval, 40) RETURNING id`,
        [tenantId, createdBy, heartbeat],
      );
    const [crashed] = await insert(tenant.id, user.id, '5 minutes');
    const [live] = await insert(other.tenant.id, other.user.id, '1 second');

    expect(await recoverStaleImports(testDb.database, systemClock, files)).toBe(1);
    // It had stored 40 rows: they stay, and the job says it stored part of its file.
    expect(await jobRow(crashed?.id ?? '')).toMatchObject({
      status: 'PARTIAL',
      failure_code: 'import.interrupted',
      rows_stored: 40,
    });
    expect((await jobRow(live?.id ?? ''))?.status).toBe('RUNNING');
    const audit = await asOwner<{ details: Record<string, unknown> }>(
      testDb.ownerUrl,
      `SELECT details FROM audit_log WHERE target_id = $1`,
      [crashed?.id ?? ''],
    );
    expect(audit[0]?.details).toMatchObject({ trigger: 'recovery', status: 'PARTIAL' });

    const environment = environmentWith(centerImportKind());
    const next = await startImport(
      environment,
      caller,
      'PATIENT',
      uploadOf(await workbookOf(CENTER_HEADERS, [['Again', 1]])),
    );
    await environment.runner.settled(next.id);
    expect((await jobRow(next.id))?.status).toBe('SUCCEEDED');
  });

  it('runs the recovery when the server starts', async () => {
    const { tenant, user } = await signedInAdmin();
    const [crashed] = await asOwner<{ id: string }>(
      testDb.ownerUrl,
      `INSERT INTO import_jobs (tenant_id, id, kind, status, file_name, file_size, created_by, heartbeat_at)
       VALUES ($1, gen_random_uuid(), 'DEVICE', 'QUEUED', 'queued.xlsx', 100, $2, now() - interval '10 minutes') RETURNING id`,
      [tenant.id, user.id],
    );
    const restarted = await createTestApp(testDb.database, { dataDir });
    await restarted.ready();
    try {
      let status: string | undefined;
      for (let attempt = 0; attempt < 100 && status !== 'FAILED'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await jobRow(crashed?.id ?? ''))?.status;
      }
      expect(status).toBe('FAILED');
    } finally {
      await restarted.close();
    }
  });
});
