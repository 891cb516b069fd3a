import type { ImportJob } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { IMPORT_STATUS_COLORS, importResultOf } from './import-status';

const job = (changes: Partial<ImportJob>): ImportJob => ({
  id: '01890000-0000-7000-8000-000000000001',
  kind: 'PATIENT',
  status: 'SUCCEEDED',
  fileName: 'patients.xlsx',
  fileSize: 1000,
  bytesRead: 1000,
  rowsProcessed: 5008,
  rowsStored: 5008,
  rowsFailed: 0,
  hasErrorFile: false,
  failureCode: null,
  createdBy: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  ...changes,
});

describe('import results', () => {
  it('gives every finished state its own colour', () => {
    const colors = ['SUCCEEDED', 'PARTIAL', 'FAILED'].map(
      (status) => IMPORT_STATUS_COLORS[status as ImportJob['status']],
    );
    expect(new Set(colors).size).toBe(3);
    expect(IMPORT_STATUS_COLORS.FAILED).toBe('red');
  });

  it('says an import that stored none of 5,008 rows failed, in red', () => {
    expect(
      importResultOf(job({ status: 'FAILED', rowsStored: 0, rowsFailed: 5008, hasErrorFile: true })),
    ).toEqual({
      color: 'red',
      tone: 'error',
      failureCode: null,
      lines: [{ key: 'job.failedNoRows', values: { count: 5008 } }],
    });
  });

  it('says how many rows of a partial import were stored and refused, and why one stopped', () => {
    expect(importResultOf(job({ status: 'PARTIAL', rowsStored: 5000, rowsFailed: 8 }))).toMatchObject({
      tone: 'warning',
      lines: [{ key: 'job.partial', values: { stored: 5000, count: 8 } }],
    });
    expect(
      importResultOf(
        job({ status: 'PARTIAL', rowsStored: 1000, rowsFailed: 0, failureCode: 'import.interrupted' }),
      ),
    ).toMatchObject({
      failureCode: 'import.interrupted',
      lines: [{ key: 'job.partialStopped', values: { count: 1000 } }],
    });
  });

  it('says nothing of a result while the job runs', () => {
    expect(importResultOf(job({ status: 'RUNNING' }))).toBeNull();
    expect(importResultOf(job({}))).toMatchObject({ tone: 'success', color: 'teal' });
  });
});
