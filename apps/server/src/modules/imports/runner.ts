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

/** A refused row on its way to the error file. */
interface RefusedRow {
  rowNumber: number;
  cells: ImportCell[];
  reasons: string[];
}

/** Rows read from the file and handed to storage together: one transaction. */
interface Batch {
  rows: NumberedRow<unknown>[];
  /** The cells of each valid row, by row number (a row the database refuses goes to the error file as it was). */
  cells: Map<number, ImportCell[]>;
  /** Rows the kind's checks refused, in file order: written to the error file before the batch is stored. */
  refused: RefusedRow[];
  /** How far the file had been read when the batch was closed (the progress it records). */
  bytesRead: number;
  rowsProcessed: number;
}

const emptyBatch = (): Batch => ({ rows: [], cells: new Map(), refused: [], bytesRead: 0, rowsProcessed: 0 });

/**
 * Reads a job's file to the end in the background: every row through the kind's checks, valid
 * rows stored in batches inside the tenant's transaction with the importing user's visibility,
 * refused rows into the error file. Counts, progress and the heartbeat are written with each
 * batch, at most every PROGRESS_INTERVAL_MILLISECONDS. Ends by what happened to the rows
 * (importOutcome): SUCCEEDED (all stored), PARTIAL (some stored) or FAILED (none stored); a job
 * stopped before the end of its file records why (failureCode) and keeps the batches stored.
 * The uploaded file is removed either way.
 *
 * Reading and storing overlap: while one batch is being stored (in PostgreSQL), the next is read
 * and checked (here); a full batch waits for the one before to be stored, so at most two batches
 * are held whatever the size of the file, and batches are stored one after the other, in file
 * order. Each batch writes its refused rows to the error file when its turn to be stored comes,
 * so the error file, the counts and the stop on a failed batch are what reading and storing one
 * batch after the other gives.
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
  let filling = emptyBatch();
  let lastHandOff = Date.now();
  let storedSinceFinish = 0;
  /** The kind's finish running beside the batches, if any. */
  let finishing: Promise<void> | undefined;
  const runFinish = async () => {
    try {
      await database.withTenant(tenantId, (tx) => kind.finish?.(tx) ?? Promise.resolve());
    } catch (error) {
      // The rows are stored; what finish leaves is done by its next run or its periodic task.
      dependencies.log.error({ err: error, jobId: job.id, tenantId }, 'import: finishing the stored rows failed');
    }
  };
  /** The batch being stored, if any; a failure is kept to stop the reading. */
  let storing: Promise<void> | undefined;
  let storeFailure: { error: unknown } | undefined;

  const progress = () => ({
    bytesRead,
    rowsProcessed,
    rowsStored,
    rowsFailed: errorFile.rowCount,
    heartbeatAt: clock.now(),
  });

  const store = async (batch: Batch) => {
    for (const row of batch.refused) errorFile.add(row.rowNumber, row.cells, row.reasons);
    await database.withTenant(
      tenantId,
      async (tx) => {
        const refused = batch.rows.length === 0 ? [] : await kind.insertBatch(tx, batch.rows, context);
        const refusedNumbers = new Set<number>();
        for (const failure of refused) {
          if (refusedNumbers.has(failure.rowNumber) || !batch.cells.has(failure.rowNumber)) continue;
          refusedNumbers.add(failure.rowNumber);
          errorFile.add(failure.rowNumber, batch.cells.get(failure.rowNumber) ?? [], failure.reasons);
        }
        rowsStored += batch.rows.length - refusedNumbers.size;
        storedSinceFinish += batch.rows.length - refusedNumbers.size;
        await updateJob(tx, job.id, {
          ...progress(),
          bytesRead: batch.bytesRead,
          rowsProcessed: batch.rowsProcessed,
        });
      },
      visibility,
    );
    // The kind's deferred work for what is stored so far, beside the next batches (one at a time).
    if (kind.finish !== undefined && finishing === undefined && storedSinceFinish >= (kind.finishEveryRows ?? Infinity)) {
      storedSinceFinish = 0;
      finishing = runFinish().finally(() => {
        finishing = undefined;
      });
    }
  };

  /**
   * Starts storing the batch being filled once the one before is stored (its failure, or a stop
   * meanwhile, ends the reading here) and begins the next batch.
   */
  const handOff = async () => {
    await storing;
    if (signal.aborted) throw new ImportStopped();
    const batch = filling;
    batch.bytesRead = bytesRead;
    batch.rowsProcessed = rowsProcessed;
    filling = emptyBatch();
    // The interval counts from the start of a batch's storing, as the reading goes on from there.
    lastHandOff = Date.now();
    storing = store(batch);
    storing.catch((error: unknown) => {
      storeFailure ??= { error };
    });
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
        if (storeFailure !== undefined) throw storeFailure.error;
        // The header row was checked when the file was accepted.
        if (isHeader) {
          isHeader = false;
          continue;
        }
        rowsProcessed++;
        const parsed = kind.parseRow(row.cells, context);
        if (parsed.ok) {
          filling.rows.push({ rowNumber: row.rowNumber, value: parsed.value });
          filling.cells.set(row.rowNumber, row.cells);
        } else {
          filling.refused.push({ rowNumber: row.rowNumber, cells: row.cells, reasons: parsed.reasons });
        }
        if (
          filling.rows.length >= IMPORT_BATCH_ROWS ||
          filling.refused.length >= IMPORT_BATCH_ROWS ||
          Date.now() - lastHandOff >= PROGRESS_INTERVAL_MILLISECONDS
        )
          await handOff();
      }
    } finally {
      workbook.close();
    }
    await handOff();
    await storing;
  } catch (error) {
    // A batch may still be being stored: let it end, so that what it stored is counted below.
    await storing?.catch(() => undefined);
    // Reading stopped (a stop, a broken file): the rows read and refused so far are reported, as
    // they are when each row is handled in turn. After a failed batch nothing beyond it was reached.
    if (storeFailure === undefined)
      for (const row of filling.refused) errorFile.add(row.rowNumber, row.cells, row.reasons);
    const isFileProblem = error instanceof UnreadableWorkbookError || error instanceof WorkbookRejectedError;
    failureCode = isFileProblem ? 'import.invalidFile' : 'import.interrupted';
    if (!(error instanceof ImportStopped) && !isFileProblem)
      dependencies.log.error({ err: error, jobId: job.id, tenantId }, 'import: job failed');
  }

  if (kind.finish !== undefined) {
    await finishing;
    await runFinish();
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
