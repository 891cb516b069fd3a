import { PassThrough, type Readable, type Stream } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * Spreadsheet output shared by every export and error file. Rows are streamed (exceljs'
 * WorkbookWriter commits each row), so a list of any length is written in constant memory.
 *
 * Every text cell goes through {@link escapeCellText}: a value starting with = + - @ (or a tab or
 * carriage return) would be run as a formula by Excel or LibreOffice ("CSV/formula injection"),
 * so it is prefixed with an apostrophe and stays text.
 */

export type XlsxValue = string | number | boolean | Date | null | undefined;

export interface XlsxColumn {
  header: string;
  /** Width in characters; defaults to the header's length, at least 12. */
  width?: number;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text that a spreadsheet would not evaluate. Non-text values are returned as they are. */
export function escapeCellText<T extends XlsxValue>(value: T): T | string {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A Content-Disposition header for a download with a safe ASCII name and the exact UTF-8 one. */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Writes one sheet to `output`: the header row, then every row of `rows` as it comes. Resolves when
 * the workbook is complete; rejects (and destroys `output`) if reading the rows fails.
 */
export async function writeXlsx(
  output: NodeJS.WritableStream & Stream,
  sheetName: string,
  columns: readonly XlsxColumn[],
  rows: Iterable<readonly XlsxValue[]> | AsyncIterable<readonly XlsxValue[]>,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width ?? Math.max(12, column.header.length + 2) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const row of rows) {
    sheet.addRow(row.map((value) => escapeCellText(value ?? null))).commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** {@link writeXlsx} as a readable stream, for a Fastify reply: `reply.send(xlsxStream(...))`. */
export function xlsxStream(
  sheetName: string,
  columns: readonly XlsxColumn[],
  rows: Iterable<readonly XlsxValue[]> | AsyncIterable<readonly XlsxValue[]>,
): Readable {
  const output = new PassThrough();
  writeXlsx(output, sheetName, columns, rows).catch((error: unknown) => {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
