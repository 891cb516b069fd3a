import { PassThrough, type Readable } from 'node:stream';
import type { ImportKindCode } from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import ExcelJS from 'exceljs';
import { escapeCellText } from '../../lib/xlsx.js';
import type { ImportKind } from './kind.js';

/** The sheet the rows go on: the first of the workbook, the only one an import reads. */
export const TEMPLATE_DATA_SHEET = 'Import';
export const TEMPLATE_INSTRUCTIONS_SHEET = 'Instructions';

/**
 * The downloadable template: a first sheet with the header row only, where the rows are filled
 * in, and an instructions sheet (in the user's language) with the example rows under the same
 * headers. An import reads the first sheet only, so the example is never imported.
 */
export function templateStream(
  kindCode: ImportKindCode,
  kind: ImportKind<unknown>,
  language: SupportedLanguage,
): Readable {
  const output = new PassThrough();
  const write = async () => {
    const texts = resources[language].imports.template;
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    const columns = kind.headers.map((header) => ({ width: Math.max(14, header.length + 2) }));

    const data = workbook.addWorksheet(TEMPLATE_DATA_SHEET);
    data.columns = columns;
    const headerRow = data.addRow([...kind.headers]);
    headerRow.font = { bold: true };
    headerRow.commit();
    data.commit();

    const instructions = workbook.addWorksheet(TEMPLATE_INSTRUCTIONS_SHEET);
    instructions.columns = columns;
    const lines = [texts.howTo, texts.exampleNotImported, texts.notes[kindCode]];
    for (const line of lines) instructions.addRow([line]).commit();
    instructions.addRow([]).commit();
    const exampleTitle = instructions.addRow([texts.exampleTitle]);
    exampleTitle.font = { bold: true };
    exampleTitle.commit();
    const exampleHeaders = instructions.addRow([...kind.headers]);
    exampleHeaders.font = { bold: true };
    exampleHeaders.commit();
    for (const row of kind.exampleRows)
      instructions.addRow(row.map((value) => escapeCellText(value))).commit();
    instructions.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
