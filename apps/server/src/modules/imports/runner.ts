import { importOutcome, type ErrorCode } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { ErrorFileWriter } from './error-file.js';
import type { ImportFiles } from './files.js';
import type { ImportCell, ImportContext, ImportKind, NumberedRow } from './kind.js';
import { readSheetRows, UnreadableWorkbookError } from './sheet-reader.js';
import { updateJob, type ImportJobRow } from './store.js';
import { openWorkbookFile, WorkbookRejectedError } from './workbook-file.js';

/** Valid rows stored per transaction. */
export const IMPORT_BATCH_ROWS = 1000;
/** Progress (and the job's heartbeat) is written at least this often while rows are read. */
export const PROGRESS_INTERVAL_MILLISECONDS = 500;

export interface RunnerDependencies {
  database: Database;
  clock: Clock;
  files: ImportFiles;
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
}

/** Everything a job needs to run, captured when its upload was accepted. */
export interface ImportTask {
  job: ImportJobRow;
  kind: ImportKind<unknown>;
  context: ImportContext;
  audit: AuditContext;
}

class ImportStopped extends Error {
  constructor() {
    super('import stopped');
    this.name = 'ImportStopped';
  }
}

/**
 * Reads a job's file to the end in the background: every row through the kind's checks, valid
 * rows stored in batches inside the tenant's transaction with the importing user's visibility,
 * refused rows into the error file. Counts, progress and the heartbeat are written with each
 * batch, at most every PROGRESS_INTERVAL_MILLISECONDS. Ends by what happened to the rows
 * (importOutcome): SUCCEEDED (all stored), PARTIAL (some stored) or FAILED (none stored); a job
 * stopped before the end of its file records why (failureCode) and keeps the batches stored.
 * The uploaded file is removed either way.
 */
async function runImport(
  dependencies: RunnerDependencies,
  task: ImportTask,
  signal: AbortSignal,
): Promise<void> {
  const { database, clock, files } = dependencies;
  const { job, kind, context } = task;
  const tenantId = job.tenantId;
  const visibility = context.auth.visibility;
  const uploadPath = files.uploadPath(tenantId, job.id);
  const errorFile = new ErrorFileWriter(
    files.errorFilePath(files.errorFileKey(tenantId, job.id)),
    kind.headers,
    context.language,
  );

  let bytesRead = 0;
  let rowsProcessed = 0;
  let rowsStored = 0;
  let pending: NumberedRow<unknown>[] = [];
  let pendingCells = new Map<number, ImportCell[]>();
  let lastWrite = Date.now();

  const progress = () => ({
    bytesRead,
    rowsProcessed,
    rowsStored,
    rowsFailed: errorFile.rowCount,
    heartbeatAt: clock.now(),
  });

  const flush = async () => {
    const batch = pending;
    const cells = pendingCells;
    pending = [];
    pendingCells = new Map();
    lastWrite = Date.now();
    await database.withTenant(
      tenantId,
      async (tx) => {
        const refused = batch.length === 0 ? [] : await kind.insertBatch(tx, batch, context);
        const refusedNumbers = new Set<number>();
        for (const failure of refused) {
          if (refusedNumbers.has(failure.rowNumber) || !cells.has(failure.rowNumber)) continue;
          refusedNumbers.add(failure.rowNumber);
          errorFile.add(failure.rowNumber, cells.get(failure.rowNumber) ?? [], failure.reasons);
        }
        rowsStored += batch.length - refusedNumbers.size;
        await updateJob(tx, job.id, progress());
      },
      visibility,
    );
  };

  let failureCode: ErrorCode | null = null;
  try {
    await database.withTenant(tenantId, (tx) =>
      updateJob(tx, job.id, { status: 'RUNNING', startedAt: clock.now(), heartbeatAt: clock.now() }),
    );
    const workbook = await openWorkbookFile(uploadPath);
    try {
      let isHeader = true;
      for await (const row of readSheetRows(workbook, {
        columns: kind.headers.length,
        onBytesRead: (bytes) => (bytesRead = bytes),
      })) {
        if (signal.aborted) throw new ImportStopped();
        // The header row was checked when the file was accepted.
        if (isHeader) {
          isHeader = false;
          continue;
        }
        rowsProcessed++;
        const parsed = kind.parseRow(row.cells, context);
        if (parsed.ok) {
          pending.push({ rowNumber: row.rowNumber, value: parsed.value });
          pendingCells.set(row.rowNumber, row.cells);
        } else {
          errorFile.add(row.rowNumber, row.cells, parsed.reasons);
        }
        if (pending.length >= IMPORT_BATCH_ROWS || Date.now() - lastWrite >= PROGRESS_INTERVAL_MILLISECONDS)
          await flush();
      }
    } finally {
      workbook.close();
    }
    await flush();
  } catch (error) {
    const isFileProblem = error instanceof UnreadableWorkbookError || error instanceof WorkbookRejectedError;
    failureCode = isFileProblem ? 'import.invalidFile' : 'import.interrupted';
    if (!(error instanceof ImportStopped) && !isFileProblem)
      dependencies.log.error({ err: error, jobId: job.id, tenantId }, 'import: job failed');
  }

  let hasErrorFile = false;
  try {
    hasErrorFile = await errorFile.finish();
  } catch (error) {
    dependencies.log.error({ err: error, jobId: job.id }, 'import: could not complete the error file');
    await errorFile.discard();
    failureCode ??= 'import.interrupted';
  }
  await files.remove(uploadPath);

  const now = clock.now();
  const status = importOutcome({
    rowsStored,
    rowsFailed: errorFile.rowCount,
    isStopped: failureCode !== null,
  });
  const errorFileKey = hasErrorFile ? files.errorFileKey(tenantId, job.id) : null;
  await database.withTenant(tenantId, async (tx) => {
    await updateJob(tx, job.id, { ...progress(), status, failureCode, errorFileKey, finishedAt: now });
    await recordAudit(tx, tenantId, task.audit, {
      action: 'IMPORT_FINISHED',
      targetType: 'import',
      targetId: job.id,
      details: {
        kind: kind.kind,
        status,
        failureCode,
        rowsProcessed,
        rowsStored,
        rowsFailed: errorFile.rowCount,
      },
      at: now,
    });
  });
}

/**
 * The jobs running in this process. Each job runs once, in the background of the request that
 * accepted it; stopping the runner (server shutdown) stops every job at its next row and marks it
 * FAILED (import.interrupted), keeping what was stored.
 */
export class ImportRunner {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  constructor(private readonly dependencies: RunnerDependencies) {}

  start(task: ImportTask): void {
    const controller = new AbortController();
    const done = runImport(this.dependencies, task, controller.signal)
      .catch((error: unknown) => {
        // Even the final status could not be written: the recovery pass will fail the job.
        this.dependencies.log.error(
          { err: error, jobId: task.job.id },
          'import: could not record the end of a job',
        );
      })
      .finally(() => {
        this.running.delete(task.job.id);
      });
    this.running.set(task.job.id, { controller, done });
  }

  isRunning(jobId: string): boolean {
    return this.running.has(jobId);
  }

  /** Resolves when the job (or every job) running here has ended. */
  async settled(jobId?: string): Promise<void> {
    if (jobId !== undefined) {
      await this.running.get(jobId)?.done;
      return;
    }
    await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  async stop(): Promise<void> {
    for (const entry of this.running.values()) entry.controller.abort();
    await this.settled();
  }
}
