import ExcelJS from 'exceljs';
import type { ImportCell } from './kind.js';
import { WorkbookRejectedError, type WorkbookFile } from './workbook-file.js';

/** One non-empty row of the sheet: its number (the first row is 1) and its cells from column A. */
export interface SheetRow {
  rowNumber: number;
  cells: ImportCell[];
}

export interface SheetReadOptions {
  /** Cells beyond this many columns are not read (the template's width). */
  columns: number;
  /** Called with the number of bytes of the file read so far (an estimate until the end). */
  onBytesRead?: (bytes: number) => void;
}

/** The workbook could not be read as a spreadsheet (broken zip data, broken XML). */
export class UnreadableWorkbookError extends Error {
  constructor(cause: unknown) {
    super('the workbook could not be read', { cause });
    this.name = 'UnreadableWorkbookError';
  }
}

/**
 * The parts of exceljs' streaming WorkbookReader used here. Its public iteration reads the zip
 * front to back and copies every sheet that comes before the workbook index (as in files from
 * streaming writers and from Excel itself) to a temporary file, so the first row is seen only
 * after the whole sheet has been inflated to disk. Feeding the same parsers the entries in the
 * order they need (index, shared strings, styles, then the sheet as a stream) keeps the parse
 * streaming from the first byte: the header check reads a few rows only, progress is real, and
 * nothing is copied. exceljs 4.4 is pinned; sheet-reader.test.ts covers these calls.
 */
interface WorkbookReaderParts {
  _parseRels(entry: AsyncIterable<unknown>): Promise<void>;
  _parseWorkbook(entry: AsyncIterable<unknown>): Promise<void>;
  _parseSharedStrings(entry: AsyncIterable<unknown>): AsyncGenerator;
  _parseStyles(entry: AsyncIterable<unknown>): Promise<void>;
  _parseWorksheet(
    entry: AsyncIterable<unknown>,
    sheetNo: string,
  ): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
  workbookRels?: { Id: string; Target: string; Type: string }[];
  model?: { sheets?: { id: number; name: string; rId: string; state?: string }[] };
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const STYLES = 'xl/styles.xml';

/** The zip entry of the workbook's first sheet (in tab order). */
function firstSheetEntry(file: WorkbookFile, reader: WorkbookReaderParts): string {
  const first = reader.model?.sheets?.[0];
  const relation = first === undefined ? undefined : reader.workbookRels?.find((rel) => rel.Id === first.rId);
  if (relation !== undefined) {
    const target = relation.Target.startsWith('/') ? relation.Target.slice(1) : `xl/${relation.Target}`;
    if (file.has(target)) return target;
  }
  if (file.has('xl/worksheets/sheet1.xml')) return 'xl/worksheets/sheet1.xml';
  throw new WorkbookRejectedError('notWorkbook');
}

/**
 * Every non-empty row of the workbook's first sheet, read as a stream: exceljs' streaming parsers
 * read the sheet's XML as it is inflated, so memory does not grow with the file (only the shared
 * strings are kept, since the sheet refers to them by index). Fully empty rows are skipped.
 * Stopping the iteration early stops reading the file. Formulas are never evaluated: a formula
 * cell gives the result the file has stored.
 */
export async function* readSheetRows(
  file: WorkbookFile,
  options: SheetReadOptions,
): AsyncGenerator<SheetRow> {
  let bytesBeforeSheet = 0;
  const opened: NodeJS.ReadableStream[] = [];
  const openPart = async (name: string) => {
    const stream = await file.openEntry(name);
    opened.push(stream);
    bytesBeforeSheet += file.compressedSizeOf(name);
    return stream;
  };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(WORKBOOK, {
    sharedStrings: 'cache',
    styles: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookReaderParts;
  let sheet: ExcelJS.stream.xlsx.WorksheetReader | undefined;
  try {
    try {
      if (file.has(WORKBOOK_RELS)) await reader._parseRels(await openPart(WORKBOOK_RELS));
      await reader._parseWorkbook(await openPart(WORKBOOK));
      if (file.has(SHARED_STRINGS)) {
        for await (const _event of reader._parseSharedStrings(await openPart(SHARED_STRINGS))) {
          // With sharedStrings 'cache' the parser keeps the strings itself and emits nothing.
        }
      }
      if (file.has(STYLES)) await reader._parseStyles(await openPart(STYLES));
      const sheetName = firstSheetEntry(file, reader);
      const sheetStream = await file.openEntry(sheetName, (bytes) =>
        options.onBytesRead?.(Math.min(file.size, bytesBeforeSheet + bytes)),
      );
      opened.push(sheetStream);
      const sheetNo = /sheet(\d+)\.xml$/.exec(sheetName)?.[1] ?? '1';
      for (const event of reader._parseWorksheet(sheetStream, sheetNo)) {
        if (event.eventType === 'worksheet') sheet = event.value;
      }
    } catch (error) {
      if (error instanceof WorkbookRejectedError) throw error;
      throw new UnreadableWorkbookError(error);
    }
    if (sheet === undefined) return;
    const rows = sheet[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<ExcelJS.Row>;
      try {
        next = await rows.next();
      } catch (error) {
        if (error instanceof WorkbookRejectedError) throw error;
        throw new UnreadableWorkbookError(error);
      }
      if (next.done === true) break;
      const cells = cellsOf(next.value, options.columns);
      if (cells.some((cell) => cell !== null)) yield { rowNumber: next.value.number, cells };
    }
    options.onBytesRead?.(file.size);
  } finally {
    for (const stream of opened) (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

function cellsOf(row: ExcelJS.Row, columns: number): ImportCell[] {
  const values = row.values as unknown[];
  const cells: ImportCell[] = [];
  for (let column = 1; column <= columns; column++) cells.push(normaliseCell(values[column]));
  return cells;
}

/** Text our exports and error files wrote with an apostrophe so it is not run as a formula (lib/xlsx.ts). */
const ESCAPED_FORMULA_TEXT = /^'[=+\-@\t\r]/;

/**
 * A cell as kinds see it: rich text and hyperlinks become their text, formulas their cached result
 * (never evaluated), errors their text (#N/A), blank text null. Dates stay Date. Text escaped as
 * our exports escape it ('+84...) is read without the apostrophe, so an export imports unchanged.
 */
export function normaliseCell(value: unknown): ImportCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    return ESCAPED_FORMULA_TEXT.test(value) ? value.slice(1) : value;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) {
      return normaliseCell(
        value.richText
          .map((run: unknown) =>
            typeof run === 'object' && run !== null && 'text' in run ? String(run.text) : '',
          )
          .join(''),
      );
    }
    if ('formula' in value || 'sharedFormula' in value)
      return 'result' in value ? normaliseCell(value.result) : null;
    if ('text' in value) return normaliseCell(value.text);
    if ('error' in value && typeof value.error === 'string') return value.error;
  }
  return null;
}

/** The text of a header cell, trimmed ('' for an empty or non-text cell that has no text). */
export function headerText(cell: ImportCell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}
