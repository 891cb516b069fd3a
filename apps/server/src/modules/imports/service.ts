import {
  IMPORT_LIMITS,
  importKindsAllowed,
  type ErrorCode,
  type ImportJob,
  type ImportKindCode,
  type ImportListQuery,
  type ImportUploadQuery,
} from '@rpm/contracts';
import type { SupportedLanguage } from '@rpm/i18n';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Readable } from 'node:stream';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { acceptUploadName } from '../../lib/upload-name.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { drain, UploadTooLargeError, type ImportFiles } from './files.js';
import type { ImportContext, ImportKind } from './kind.js';
import type { ImportRunner } from './runner.js';
import { headerText, readSheetRows, UnreadableWorkbookError } from './sheet-reader.js';
import {
  findActiveJob,
  findCurrentJob,
  findJob,
  insertJob,
  listJobs,
  type ImportJobRow,
  type JobVisibility,
} from './store.js';
import { openWorkbookFile, WorkbookRejectedError } from './workbook-file.js';

export type ImportKindRegistry = Readonly<Record<ImportKindCode, ImportKind<unknown>>>;

export interface ImportEnvironment {
  database: Database;
  clock: Clock;
  files: ImportFiles;
  kinds: ImportKindRegistry;
  runner: ImportRunner;
}

/** The caller of one request. */
export interface ImportCaller {
  auth: AuthContext;
  audit: AuditContext;
  language: SupportedLanguage;
}

/** The uploaded file, received once the caller is known to be allowed. */
export interface Upload {
  fileName: string;
  stream: Readable;
  /** True when the transport cut the file at its size limit. */
  isTruncated: () => boolean;
}
export type ReceiveUpload = () => Promise<Upload>;

/**
 * Which jobs a caller sees: those of the kinds they may import; everyone's when their level sees
 * the whole tenant, else only their own (an error file repeats the rows of the upload, which may
 * concern patients of other health centers).
 */
export function jobVisibilityOf(auth: AuthContext): JobVisibility {
  return {
    kinds: importKindsAllowed(auth.permissions),
    ownerId: 'all' in auth.visibility ? null : auth.userId,
  };
}

export function toImportJob(row: ImportJobRow): ImportJob {
  return {
    id: row.id,
    kind: row.kind as ImportJob['kind'],
    status: row.status as ImportJob['status'],
    fileName: row.fileName,
    fileSize: row.fileSize,
    bytesRead: row.bytesRead,
    rowsProcessed: row.rowsProcessed,
    rowsStored: row.rowsStored,
    rowsFailed: row.rowsFailed,
    hasErrorFile: row.errorFileKey !== null,
    failureCode: row.failureCode as ErrorCode | null,
    createdBy: { id: row.createdBy, fullName: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function isActiveJobConflict(error: unknown): boolean {
  let current: unknown = error;
  while (current instanceof Error) {
    if (
      current instanceof pg.DatabaseError &&
      current.code === '23505' &&
      current.constraint === 'import_jobs_one_active'
    )
      return true;
    current = current.cause;
  }
  return false;
}

/**
 * Checks the accepted file before any job exists: a zip within the entry, size and ratio limits
 * with a workbook in it, whose first non-empty row is exactly the kind's headers (trimmed, same
 * order) and which has at least one data row. Reads only as far as the first data row.
 */
async function checkWorkbook(path: string, kind: ImportKind<unknown>): Promise<void> {
  let workbook;
  try {
    workbook = await openWorkbookFile(path);
  } catch (error) {
    if (error instanceof WorkbookRejectedError)
      throw new AppError('import.invalidFile', { cause: error, detail: error.reason });
    throw error;
  }
  try {
    let headers: string[] | undefined;
    let hasData = false;
    for await (const row of readSheetRows(workbook, { columns: Math.max(kind.headers.length + 1, 1) })) {
      if (headers === undefined) {
        headers = row.cells.map(headerText);
        continue;
      }
      hasData = true;
      break;
    }
    if (headers === undefined) throw new AppError('import.empty');
    const expected = kind.headers.map((header) => header.trim());
    // One column more than the template is read, so an extra header column is noticed too.
    const given = headers.slice(0, expected.length + 1);
    while (given.length > expected.length && given.at(-1) === '') given.pop();
    if (given.length !== expected.length || given.some((header, index) => header !== expected[index]))
      throw new AppError('import.wrongHeaders');
    if (!hasData) throw new AppError('import.empty');
  } catch (error) {
    if (error instanceof UnreadableWorkbookError || error instanceof WorkbookRejectedError)
      throw new AppError('import.invalidFile', { cause: error });
    throw error;
  } finally {
    workbook.close();
  }
}

/** A default health center must be one the importing user sees (center.notFound otherwise). */
async function checkDefaultCenter(database: Database, auth: AuthContext, centerId: string): Promise<void> {
  const found = await database.withTenant(
    auth.tenantId,
    (tx) => tx.execute<{ id: string }>(sql`SELECT id FROM health_centers WHERE id = ${centerId}`),
    auth.visibility,
  );
  if (found.rows.length === 0) throw new AppError('center.notFound');
}

/**
 * POST /account/imports/<KIND>: receives the file (streamed to disk, at most 500 MB, .xlsx by name
 * and by content), checks it (checkWorkbook), then creates the job — refused with
 * import.inProgress while another job of the tenant is QUEUED or RUNNING, which the database
 * guarantees even for racing uploads — and starts reading it in the background.
 */
export async function startImport(
  environment: ImportEnvironment,
  caller: ImportCaller,
  kindCode: ImportKindCode,
  receive: ReceiveUpload,
  options: ImportUploadQuery = {},
): Promise<ImportJob> {
  const { database, files, clock } = environment;
  const { auth } = caller;
  const kind = environment.kinds[kindCode];
  const defaultHealthCenterId = options.defaultHealthCenterId ?? null;
  const upload = await receive();
  if (defaultHealthCenterId !== null) {
    try {
      await checkDefaultCenter(database, auth, defaultHealthCenterId);
    } catch (error) {
      await drain(upload.stream);
      throw error;
    }
  }
  // Refusals before the file is stored still read the request to its end, so the client gets the
  // answer rather than a broken connection.
  const active = await database.withTenant(auth.tenantId, (tx) => findActiveJob(tx));
  if (active !== undefined) {
    await drain(upload.stream);
    throw new AppError('import.inProgress');
  }
  if (!upload.fileName.toLowerCase().endsWith(IMPORT_LIMITS.extension)) {
    await drain(upload.stream);
    throw new AppError('file.unsupportedType');
  }
  const fileName = await acceptUploadName(upload);

  const jobId = uuidv7();
  const uploadPath = files.uploadPath(auth.tenantId, jobId);
  let size: number;
  try {
    size = await files.save(upload.stream, uploadPath, IMPORT_LIMITS.maxBytes, upload.isTruncated);
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw new AppError('file.tooLarge', { cause: error });
    throw new AppError('common.invalidParameter', { cause: error });
  }

  let job: ImportJobRow;
  try {
    if (size === 0) throw new AppError('import.empty');
    await checkWorkbook(uploadPath, kind);
    const now = clock.now();
    job = await database.withTenant(auth.tenantId, async (tx) => {
      const created = await insertJob(tx, {
        tenantId: auth.tenantId,
        id: jobId,
        kind: kindCode,
        status: 'QUEUED',
        fileName: fileName.trim().slice(0, 255) || 'import.xlsx',
        fileSize: size,
        createdBy: auth.userId,
        createdByName: auth.fullName,
        language: caller.language,
        createdAt: now,
        heartbeatAt: now,
      });
      await recordAudit(tx, auth.tenantId, caller.audit, {
        action: 'IMPORT_STARTED',
        targetType: 'import',
        targetId: jobId,
        details: { kind: kindCode, fileName: created.fileName, fileSize: size },
        at: now,
      });
      return created;
    });
  } catch (error) {
    await files.remove(uploadPath);
    if (isActiveJobConflict(error)) throw new AppError('import.inProgress', { cause: error });
    throw error;
  }

  const context: ImportContext = {
    tenantId: auth.tenantId,
    auth,
    clock,
    language: caller.language,
    defaultHealthCenterId,
  };
  environment.runner.start({ job, kind, context, audit: caller.audit });
  return toImportJob(job);
}

export async function listImports(environment: ImportEnvironment, auth: AuthContext, query: ImportListQuery) {
  const { items, total } = await environment.database.withTenant(auth.tenantId, (tx) =>
    listJobs(tx, query, jobVisibilityOf(auth)),
  );
  return { items: items.map(toImportJob), page: query.page, size: query.size, total };
}

export async function currentImport(
  environment: ImportEnvironment,
  auth: AuthContext,
  kind: ImportKindCode,
): Promise<ImportJob | null> {
  const row = await environment.database.withTenant(auth.tenantId, (tx) =>
    findCurrentJob(tx, kind, jobVisibilityOf(auth)),
  );
  return row === undefined ? null : toImportJob(row);
}

async function visibleJob(
  environment: ImportEnvironment,
  auth: AuthContext,
  id: string,
): Promise<ImportJobRow> {
  const row = await environment.database.withTenant(auth.tenantId, (tx) =>
    findJob(tx, id, jobVisibilityOf(auth)),
  );
  if (row === undefined) throw new AppError('import.notFound');
  return row;
}

export async function readImport(
  environment: ImportEnvironment,
  auth: AuthContext,
  id: string,
): Promise<ImportJob> {
  return toImportJob(await visibleJob(environment, auth, id));
}

/** The error file of a job the caller sees: a stream, its size and a download name. */
export async function openErrorFile(environment: ImportEnvironment, auth: AuthContext, id: string) {
  const job = await visibleJob(environment, auth, id);
  const file =
    job.errorFileKey === null ? undefined : await environment.files.openErrorFile(job.errorFileKey);
  if (file === undefined) throw new AppError('import.noErrorFile');
  const baseName = job.fileName.replace(/\.xlsx$/i, '');
  return { ...file, fileName: `${baseName}-errors.xlsx` };
}
