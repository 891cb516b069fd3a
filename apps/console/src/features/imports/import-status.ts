import type { ImportJob, ImportStatus } from '@rpm/contracts';

/** One colour per state, so an import that stored nothing never looks like one that stored all. */
export const IMPORT_STATUS_COLORS: Record<ImportStatus, string> = {
  QUEUED: 'gray',
  RUNNING: 'blue',
  SUCCEEDED: 'teal',
  PARTIAL: 'orange',
  FAILED: 'red',
};

/** A sentence of the result: a key of the imports catalogue and its values. */
export interface ResultLine {
  key: 'job.succeeded' | 'job.partial' | 'job.partialStopped' | 'job.failedNoRows';
  values: Record<string, number>;
}

/** What the result panel of a finished job says; null while it runs. */
export interface ImportResult {
  color: string;
  tone: 'success' | 'warning' | 'error';
  /** Why the job stopped before the end of its file (an error code), if it did. */
  failureCode: string | null;
  lines: ResultLine[];
}

export function importResultOf(job: ImportJob): ImportResult | null {
  const color = IMPORT_STATUS_COLORS[job.status];
  switch (job.status) {
    case 'QUEUED':
    case 'RUNNING':
      return null;
    case 'SUCCEEDED':
      return { color, tone: 'success', failureCode: null, lines: [{ key: 'job.succeeded', values: {} }] };
    case 'PARTIAL': {
      const lines: ResultLine[] = [];
      if (job.failureCode !== null)
        lines.push({ key: 'job.partialStopped', values: { count: job.rowsStored } });
      if (job.rowsFailed > 0)
        lines.push({ key: 'job.partial', values: { stored: job.rowsStored, count: job.rowsFailed } });
      return { color, tone: 'warning', failureCode: job.failureCode, lines };
    }
    case 'FAILED':
      return {
        color,
        tone: 'error',
        failureCode: job.failureCode,
        lines: job.rowsFailed > 0 ? [{ key: 'job.failedNoRows', values: { count: job.rowsFailed } }] : [],
      };
  }
}
