import type { SupportedLanguage } from '@rpm/i18n';
import type { TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import type { Clock } from '../../lib/clock.js';

/**
 * One kind of bulk import (patients, devices). The import engine (modules/imports) owns the file:
 * upload, zip checks, streaming parse, header check, batching, progress, the error file and the
 * one-import-per-tenant rule. A kind owns the meaning of a row: the template headers, the checks
 * of one row, and storing a batch of valid rows.
 */
export interface ImportKind<Row> {
  /** Stored on the import job and shown in the console. */
  readonly kind: 'PATIENT' | 'DEVICE';
  /** The template's header row, in order. An uploaded file must have exactly these (trimmed). */
  readonly headers: readonly string[];
  /** Example rows written under the headers of the downloadable template (may be empty). */
  readonly exampleRows: readonly (readonly ImportCell[])[];
  /**
   * Checks one data row (cells in header order) without touching the database. Either the value to
   * store or every reason the row is refused, in the importing user's language.
   */
  parseRow(cells: readonly ImportCell[], context: ImportContext): ParsedRow<Row>;
  /**
   * Stores a batch of parsed rows inside the job's tenant transaction (visibility of the importing
   * user applies). Rows the database refuses (a duplicate phone, MAC, code — in the tenant or
   * earlier in the same file) are returned with their reasons; every other row must be stored.
   */
  insertBatch(
    tx: TenantTransaction,
    rows: readonly NumberedRow<Row>[],
    context: ImportContext,
  ): Promise<RowFailure[]>;
  /**
   * Work the kind leaves until its batches are stored (the patients' search terms, written in one
   * sorted pass), run in the job's tenant beside the batches once `finishEveryRows` more rows are
   * stored (one run at a time), and once when the import ends, however it ends. Optional. A
   * periodic task must cover it too: the process may stop before.
   */
  finish?(tx: TenantTransaction): Promise<unknown>;
  readonly finishEveryRows?: number;
}

/** A cell as read from the sheet: text and numbers as typed, dates as Date, empty as null. */
export type ImportCell = string | number | boolean | Date | null;

export type ParsedRow<Row> = { ok: true; value: Row } | { ok: false; reasons: string[] };

export interface NumberedRow<Row> {
  /** The row's number in the sheet (the header row is 1). */
  rowNumber: number;
  value: Row;
}

export interface RowFailure {
  rowNumber: number;
  reasons: string[];
}

export interface ImportContext {
  tenantId: string;
  auth: AuthContext;
  clock: Clock;
  /** The importing user's language: reasons are written in it. */
  language: SupportedLanguage;
  /**
   * Chosen with the upload (patients): the health center of rows that name none, one the
   * importing user sees. null: such rows are refused.
   */
  defaultHealthCenterId: string | null;
}
