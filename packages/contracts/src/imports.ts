import { z } from 'zod';
import { errorCodeSchema, pageQuerySchema } from './envelope.js';
import { LIMITS } from './limits.js';
import { IMPORT_KINDS } from './import-kinds.js';

export { IMPORT_KINDS, IMPORT_PERMISSION, importKindsAllowed, type ImportKindCode } from './import-kinds.js';
export const importKindSchema = z.enum(IMPORT_KINDS);

/**
 * QUEUED: accepted, not started; RUNNING: reading the file. Then what happened to the rows:
 * SUCCEEDED: the file was read to the end and every row was stored; PARTIAL: some rows were stored
 * and some were not (refused rows are in the error file; or the job stopped, failureCode, keeping
 * the rows stored until then); FAILED: no row was stored (every row refused, or the job stopped
 * first). One QUEUED or RUNNING job per tenant at a time.
 */
export const IMPORT_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'PARTIAL', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export type FinishedImportStatus = Exclude<ImportStatus, 'QUEUED' | 'RUNNING'>;

/** The end state of a job from its counts and whether it stopped before the end of the file. */
export function importOutcome(job: {
  rowsStored: number;
  rowsFailed: number;
  isStopped: boolean;
}): FinishedImportStatus {
  if (job.rowsStored === 0) return 'FAILED';
  return job.rowsFailed > 0 || job.isStopped ? 'PARTIAL' : 'SUCCEEDED';
}
export const ACTIVE_IMPORT_STATUSES: readonly ImportStatus[] = ['QUEUED', 'RUNNING'];

/**
 * Limits of an uploaded workbook (spec §5 and §9: .xlsx only, at most 500 MB). An .xlsx is a zip:
 * its central directory is checked before anything is decompressed, so a "zip bomb" (a small file
 * that inflates to gigabytes) or a zip of countless entries is refused at once.
 */
export const IMPORT_LIMITS = {
  maxBytes: LIMITS.importMaxBytes,
  extension: '.xlsx',
  /** Entries of the zip (a workbook has a dozen or so, plus one per sheet, image, comment…). */
  maxEntries: 10_000,
  /** The sum of the entries' declared uncompressed sizes. */
  maxUncompressedBytes: 2 * 1024 * 1024 * 1024,
  /** Uncompressed / compressed size of one entry, for entries above ratioCheckMinBytes. */
  maxCompressionRatio: 200,
  ratioCheckMinBytes: 1024 * 1024,
} as const;

export const importFileNameSchema = z.string().trim().min(1).max(255);

export const importJobSchema = z.object({
  id: z.uuid(),
  kind: importKindSchema,
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string(),
  /** Bytes of the uploaded file. */
  fileSize: z.number().int(),
  /** Bytes of the file read so far: progress is bytesRead / fileSize. */
  bytesRead: z.number().int(),
  /** Data rows read so far (empty rows are skipped and not counted). */
  rowsProcessed: z.number().int(),
  rowsStored: z.number().int(),
  rowsFailed: z.number().int(),
  /** True when the error file (every refused row with its reasons) can be downloaded. */
  hasErrorFile: z.boolean(),
  /** Why a job stopped before the end of the file (PARTIAL or FAILED); null otherwise. */
  failureCode: errorCodeSchema.nullable(),
  createdBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

export const IMPORT_SORT_FIELDS = ['created', 'fileName', 'status'] as const;
export const importListQuerySchema = pageQuerySchema.extend({
  kind: importKindSchema.optional().describe('Only imports of this kind'),
  search: z
    .string()
    .trim()
    .max(80)
    .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters')
    .optional()
    .describe('Part of the file name'),
  sortField: z.enum(IMPORT_SORT_FIELDS).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type ImportListQuery = z.infer<typeof importListQuerySchema>;

export const importCurrentQuerySchema = z.object({ kind: importKindSchema });

/** Options of a patient import, sent with the upload. */
export const importUploadQuerySchema = z.object({
  defaultHealthCenterId: z
    .uuid()
    .optional()
    .describe('Patient imports: the health center of rows whose Health center cell is empty'),
});
export type ImportUploadQuery = z.infer<typeof importUploadQuerySchema>;

/** The console's client-side checks of a chosen file (the server checks the same and more). */
export type ImportFileProblem = 'unsupportedType' | 'tooLarge' | 'empty';
export function checkImportFile(file: { name: string; size: number }): ImportFileProblem | null {
  if (!file.name.trim().toLowerCase().endsWith(IMPORT_LIMITS.extension)) return 'unsupportedType';
  if (file.size === 0) return 'empty';
  if (file.size > IMPORT_LIMITS.maxBytes) return 'tooLarge';
  return null;
}
