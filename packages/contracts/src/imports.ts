import { z } from 'zod';
import { errorCodeSchema, pageQuerySchema } from './envelope.js';
import { LIMITS } from './limits.js';
import type { Permission } from './permissions.js';

/** What a bulk import creates (spec §2: patient bulk import, device import). */
export const IMPORT_KINDS = ['PATIENT', 'DEVICE'] as const;
export type ImportKindCode = (typeof IMPORT_KINDS)[number];
export const importKindSchema = z.enum(IMPORT_KINDS);

/** The permission needed to import (and to see the imports of) each kind. */
export const IMPORT_PERMISSION: Record<ImportKindCode, Permission> = {
  PATIENT: 'user.import',
  DEVICE: 'device.import',
};

/** The kinds a holder of these permissions may import. */
export function importKindsAllowed(permissions: ReadonlySet<string>): ImportKindCode[] {
  return IMPORT_KINDS.filter((kind) => permissions.has(IMPORT_PERMISSION[kind]));
}

/**
 * QUEUED: accepted, not started; RUNNING: reading the file; SUCCEEDED: read to the end (rows may
 * have failed, see rowsFailed and the error file); FAILED: stopped before the end (failureCode),
 * the rows stored until then are kept. One QUEUED or RUNNING job per tenant at a time.
 */
export const IMPORT_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
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
  /** Why a FAILED job stopped; null otherwise. */
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

/** The console's client-side checks of a chosen file (the server checks the same and more). */
export type ImportFileProblem = 'unsupportedType' | 'tooLarge' | 'empty';
export function checkImportFile(file: { name: string; size: number }): ImportFileProblem | null {
  if (!file.name.trim().toLowerCase().endsWith(IMPORT_LIMITS.extension)) return 'unsupportedType';
  if (file.size === 0) return 'empty';
  if (file.size > IMPORT_LIMITS.maxBytes) return 'tooLarge';
  return null;
}
