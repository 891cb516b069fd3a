import { rename, unlink } from 'node:fs/promises';
import type { SupportedLanguage } from '@rpm/i18n';
import ExcelJS from 'exceljs';
import { escapeCellText } from '../../lib/xlsx.js';
import type { ImportCell } from './kind.js';

/** The two columns added after the template's: the row's number in the uploaded file, and why. */
const EXTRA_HEADERS: Record<SupportedLanguage, [string, string]> = {
  en: ['Row', 'Reason'],
  vi: ['Dòng', 'Lý do'],
};

/**
 * The error file of an import: the template's columns with the refused rows as they were in the
 * upload, plus "Row" and "Reason". Rows are written to disk as they come (exceljs' streaming
 * writer commits each one), so a file with many refused rows costs no memory. Created on the
 * first refused row; text that a spreadsheet would run as a formula is escaped.
 */
export class ErrorFileWriter {
  private workbook: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  private sheet: ExcelJS.Worksheet | undefined;
  private rows = 0;

  constructor(
    private readonly path: string,
    private readonly headers: readonly string[],
    private readonly language: SupportedLanguage,
  ) {}

  private get partialPath() {
    return `${this.path}.part`;
  }

  get rowCount(): number {
    return this.rows;
  }

  add(rowNumber: number, cells: readonly ImportCell[], reasons: readonly string[]): void {
    if (this.sheet === undefined) {
      this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        filename: this.partialPath,
        useStyles: true,
        useSharedStrings: false,
      });
      this.sheet = this.workbook.addWorksheet('Errors');
      const [rowHeader, reasonHeader] = EXTRA_HEADERS[this.language];
      this.sheet.columns = [...this.headers, rowHeader, reasonHeader].map((header, index) => ({
        header: escapeCellText(header),
        width: index === this.headers.length + 1 ? 60 : Math.max(12, header.length + 2),
      }));
      this.sheet.getRow(1).font = { bold: true };
      this.sheet.getRow(1).commit();
    }
    const values = this.headers.map((_header, index) => escapeCellText(cells[index] ?? null));
    this.sheet.addRow([...values, rowNumber, escapeCellText(reasons.join('; '))]).commit();
    this.rows++;
  }

  /** Completes the file; true when there is one (some row was refused). */
  async finish(): Promise<boolean> {
    if (this.workbook === undefined || this.sheet === undefined) return false;
    this.sheet.commit();
    await this.workbook.commit();
    await rename(this.partialPath, this.path);
    return true;
  }

  /** Drops an unfinished file. */
  async discard(): Promise<void> {
    if (this.workbook !== undefined && this.sheet !== undefined) {
      try {
        this.sheet.commit();
        await this.workbook.commit();
      } catch {
        // The file is being dropped: a failure to complete it does not matter.
      }
    }
    await unlink(this.partialPath).catch(() => undefined);
  }
}
