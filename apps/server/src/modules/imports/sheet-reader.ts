import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import type { ImportCell } from './kind.js';
import { SheetXmlReader } from './sheet-xml.js';
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
 *
 * The sheet itself is read by sheetRows below rather than by exceljs' worksheet reader, which
 * builds a Row and Cell objects (addresses, styles) for every cell: for a large file that was
 * half of the time spent in this process. The workbook parts stay exceljs' (shared strings,
 * styles, the 1904 date flag).
 */
interface WorkbookReaderParts {
  _parseRels(entry: AsyncIterable<unknown>): Promise<void>;
  _parseWorkbook(entry: AsyncIterable<unknown>): Promise<void>;
  _parseSharedStrings(entry: AsyncIterable<unknown>): AsyncGenerator;
  _parseStyles(entry: AsyncIterable<unknown>): Promise<void>;
  workbookRels?: { Id: string; Target: string; Type: string }[];
  model?: { sheets?: { id: number; name: string; rId: string; state?: string }[] };
  /** With sharedStrings 'cache': the strings (text, or { richText } for formatted ones) by index. */
  sharedStrings?: unknown[];
  styles?: { getStyleModel(id: number): { numFmt?: string } | null | undefined };
  properties?: { model?: { date1904?: boolean } };
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
    // Decoded here as one stream: exceljs decodes each chunk on its own, which breaks a character
    // whose UTF-8 bytes straddle two chunks (Vietnamese text came out with U+FFFD in it).
    stream.setEncoding('utf8');
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
  let sheetStream: Readable;
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
      sheetStream = await file.openEntry(sheetName, (bytes) =>
        options.onBytesRead?.(Math.min(file.size, bytesBeforeSheet + bytes)),
      );
      opened.push(sheetStream);
      sheetStream.setEncoding('utf8');
    } catch (error) {
      if (error instanceof WorkbookRejectedError) throw error;
      throw new UnreadableWorkbookError(error);
    }
    const rows = sheetRows(sheetStream, {
      columns: options.columns,
      sharedStrings: reader.sharedStrings,
      styles: reader.styles,
      date1904: reader.properties?.model?.date1904 === true,
    });
    for (;;) {
      let next: IteratorResult<SheetRow>;
      try {
        next = await rows.next();
      } catch (error) {
        if (error instanceof WorkbookRejectedError) throw error;
        throw new UnreadableWorkbookError(error);
      }
      if (next.done === true) break;
      yield next.value;
    }
    options.onBytesRead?.(file.size);
  } finally {
    for (const stream of opened) (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

interface SheetContext {
  columns: number;
  sharedStrings: unknown[] | undefined;
  styles: WorkbookReaderParts['styles'];
  date1904: boolean;
}

/** The number of a column from the letters of a cell reference ("AB12" -> 28); 0 when none. */
function columnOf(reference: string): number {
  let column = 0;
  for (let index = 0; index < reference.length; index++) {
    const code = reference.charCodeAt(index);
    if (code >= 65 && code <= 90) column = column * 26 + code - 64;
    else if (code >= 97 && code <= 122) column = column * 26 + code - 96;
    else break;
  }
  return column;
}

/**
 * The same text in memory of its own. A longer piece cut from a chunk of the sheet is, in V8, a
 * view that keeps the whole chunk alive: a batch of rows waiting to be stored would hold every
 * chunk it was read from, which the garbage collector then copies and promotes.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** exceljs' utils.xmlDecode: the five named entities, once more (its inline strings go through it). */
function xmlDecode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([a-z]*);/g, (entity) => XML_ENTITIES[entity] ?? entity);
}
const XML_ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
  '&apos;': "'",
  '&quot;': '"',
};

/** exceljs' utils.isDateFmt: a number format that shows a date or a time. */
function isDateFormat(format: string | undefined): boolean {
  if (format === undefined || format === '') return false;
  return /[ymdhMsb]+/.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** exceljs' utils.excelToDate. */
function excelToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}

/**
 * The rows of a sheet's XML as it streams in, with the values exceljs 4.4's streaming worksheet
 * reader gives for them (WorksheetReader.parse, mirrored step for step, down to its handling of
 * text and of number formats: the cell's style, else the row's), then normalised (normaliseCell).
 * Only the first `columns` cells of a row are kept and no object is made per cell. Two
 * departures, where exceljs gives no usable answer: a row without its number (r) follows the one
 * before, and a cell without its reference follows the cell before.
 */
async function* sheetRows(source: AsyncIterable<string>, context: SheetContext): AsyncGenerator<SheetRow> {
  const { columns, sharedStrings, styles, date1904 } = context;
  const ready: SheetRow[] = [];

  const dateFormats = new Map<number, boolean>();
  /** Whether a style's number format shows dates (exceljs: a style id without a style leaves the row's). */
  const styleFormat = (id: number): string | undefined | null => {
    const model = styles?.getStyleModel(id);
    return model === null || model === undefined ? null : (model.numFmt ?? undefined);
  };
  const showsDate = (id: number, rowFormat: string | undefined): boolean => {
    if (id === 0 || Number.isNaN(id)) return isDateFormat(rowFormat);
    let known = dateFormats.get(id);
    if (known === undefined) {
      const format = styleFormat(id);
      if (format === null) return isDateFormat(rowFormat);
      known = isDateFormat(format);
      dateFormats.set(id, known);
    }
    return known;
  };

  let inRows = false;
  let rowNumber = 0;
  let rowFormat: string | undefined;
  let cells: ImportCell[] | undefined;
  let hasValue = false;
  // The cell being read: exceljs' `c` (reference, style, type, formula and value text).
  let inCell = false;
  let column = 0;
  let styleId = Number.NaN;
  let type: string | undefined;
  let formula: string | undefined;
  let value: string | undefined;
  // Where text goes: exceljs' `current`, which an opening v, f, is or t points at the cell's
  // formula or value. Text that exceljs adds to a cell already read (current still points there
  // when the next <c> opens) is dropped here by pointing nowhere at each <c>.
  let target: 'none' | 'formula' | 'value' = 'none';

  const reader = new SheetXmlReader({
    open(name, attributes) {
      switch (name) {
        case 'sheetData':
          inRows = true;
          break;
        case 'row':
          if (inRows) {
            const number = Number.parseInt(attributes.get('r') ?? '', 10);
            rowNumber = Number.isNaN(number) ? rowNumber + 1 : number;
            const style = attributes.get('s');
            rowFormat =
              style === undefined ? undefined : (styleFormat(Number.parseInt(style, 10)) ?? undefined);
            cells = new Array<ImportCell>(columns).fill(null);
            hasValue = false;
            column = 0;
          }
          break;
        case 'c':
          if (cells !== undefined) {
            inCell = true;
            const reference = attributes.get('r');
            column = reference === undefined ? column + 1 : columnOf(reference);
            styleId = Number.parseInt(attributes.get('s') ?? '', 10);
            type = attributes.get('t');
            formula = undefined;
            value = undefined;
            target = 'none';
          }
          break;
        case 'f':
          if (inCell) {
            formula = '';
            target = 'formula';
          }
          break;
        case 'v':
        case 'is':
        case 't':
          if (inCell) {
            value = '';
            target = 'value';
          }
          break;
        default:
          break;
      }
    },
    wantsText: () => target !== 'none',
    text(text) {
      if (target === 'formula') formula = (formula ?? '') + text;
      else if (target === 'value') value = (value ?? '') + text;
    },
    close(name) {
      switch (name) {
        case 'sheetData':
          inRows = false;
          break;
        case 'row':
          if (cells !== undefined) {
            if (hasValue) ready.push({ rowNumber, cells });
            cells = undefined;
          }
          break;
        case 'c':
          if (cells !== undefined && inCell) {
            inCell = false;
            if (column < 1 || column > columns) break;
            const cell = normaliseCell(cellValue());
            cells[column - 1] = cell;
            if (cell !== null) hasValue = true;
          }
          break;
        default:
          break;
      }
    },
  });

  /** The value of the cell just read, as exceljs' worksheet reader sets it. */
  const cellValue = (): unknown => {
    if (formula !== undefined) {
      const result =
        value === undefined ? undefined : type === 'str' ? xmlDecode(value) : Number.parseFloat(value);
      // A cell of a shared formula (<f t="shared" si="0"/>) has no text: exceljs then keeps the
      // object as it is (a JSON value). Otherwise it is a formula value, which keeps only its
      // truthy parts (FormulaValue._copyModel): a result of 0 or '' reads as none.
      if (formula === '') return value === undefined ? { formula: '' } : { formula: '', result };
      return result ? { formula, result } : { formula };
    }
    if (value === undefined) return null;
    switch (type) {
      case 's':
        return sharedStrings === undefined ? null : sharedStrings[Number.parseInt(value, 10)];
      case 'inlineStr':
      case 'str':
        return detached(xmlDecode(value));
      case 'e':
        return { error: value };
      case 'b':
        return Number.parseInt(value, 10) !== 0;
      default: {
        const number = Number.parseFloat(value);
        return showsDate(styleId, rowFormat) ? excelToDate(number, date1904) : number;
      }
    }
  };

  for await (const chunk of source) {
    reader.write(chunk);
    for (const row of ready) yield row;
    ready.length = 0;
  }
  reader.end();
  for (const row of ready) yield row;
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
