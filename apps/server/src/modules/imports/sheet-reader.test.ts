import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseCell, readSheetRows, type SheetRow } from './sheet-reader.js';
import { handMadeZip } from './test-support.js';
import { openWorkbookFile } from './workbook-file.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rpm-sheet-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function readAll(file: string, columns = 4): Promise<{ rows: SheetRow[]; progress: number[] }> {
  const workbook = await openWorkbookFile(file);
  const progress: number[] = [];
  const rows: SheetRow[] = [];
  try {
    for await (const row of readSheetRows(workbook, {
      columns,
      onBytesRead: (bytes) => progress.push(bytes),
    }))
      rows.push(row);
  } finally {
    workbook.close();
  }
  return { rows, progress };
}

/**
 * The rows exceljs' own streaming worksheet reader gives for the first sheet, normalised the same
 * way: what readSheetRows gave before it read the sheet itself, and must still give.
 */
async function rowsByExcelJs(file: string, columns: number): Promise<SheetRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const rows: SheetRow[] = [];
  for await (const worksheet of reader) {
    for await (const row of worksheet) {
      const values = row.values as unknown[];
      const cells = Array.from({ length: columns }, (_, index) => normaliseCell(values[index + 1]));
      if (cells.some((cell) => cell !== null)) rows.push({ rowNumber: row.number, cells });
    }
    break;
  }
  return rows;
}

/** Values of every kind a sheet holds, some in one style and some in another. */
function variedRows(): unknown[][] {
  const rows: unknown[][] = [];
  for (let index = 0; index < 300; index++) {
    rows.push([
      `Name ${String(index)} & <co> "quoted" 'single'`,
      index % 3 === 0 ? 'Nguyễn Thị Hồng' : `  padded ${String(index)}  `,
      index * 1.25 - 40,
      new Date(Date.UTC(1950 + (index % 60), index % 12, (index % 28) + 1)),
      index % 2 === 0,
      { formula: `A${String(index + 1)}*2`, result: index * 2 },
      { formula: 'CONCAT("a","b")', result: 'ab' },
      { error: '#N/A' },
      { richText: [{ text: 'Bold ', font: { bold: true } }, { text: String(index) }] },
      { text: 'link', hyperlink: 'https://example.com' },
      index % 5 === 0 ? null : "'+84981000001",
      index % 7 === 0 ? '' : '=not a formula',
      `beyond ${String(index)}`,
    ]);
    if (index % 50 === 0) rows.push([]);
  }
  return rows;
}

describe('readSheetRows', () => {
  it('gives exactly what exceljs’ worksheet reader gives: a workbook with shared strings, styles, number formats and the 1904 date system', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data');
    sheet.addRow(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M']);
    for (const values of variedRows()) sheet.addRow(values);
    sheet.getColumn(3).numFmt = '0.00';
    sheet.getColumn(4).numFmt = 'dd/mm/yyyy';
    sheet.getCell('C10').numFmt = 'hh:mm';
    sheet.getCell('D11').numFmt = '"Day" 0';
    sheet.getRow(12).numFmt = 'yyyy-mm-dd';
    sheet.getCell('F20').value = { sharedFormula: 'F2', result: 5 };
    workbook.properties.date1904 = true;
    const file = path.join(directory, 'varied.xlsx');
    await workbook.xlsx.writeFile(file);

    const { rows } = await readAll(file, 12);
    expect(rows.length).toBeGreaterThan(300);
    expect(rows).toEqual(await rowsByExcelJs(file, 12));
  });

  it('gives exactly what exceljs’ worksheet reader gives: a streamed file with inline strings', async () => {
    const file = path.join(directory, 'varied-streamed.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useSharedStrings: false,
      useStyles: true,
    });
    const sheet = writer.addWorksheet('Data');
    sheet.getColumn(4).numFmt = 'd mmm yyyy';
    for (const values of variedRows()) sheet.addRow(values).commit();
    sheet.commit();
    await writer.commit();

    const { rows } = await readAll(file, 12);
    expect(rows).toHaveLength(300);
    expect(rows).toEqual(await rowsByExcelJs(file, 12));
  });

  it('gives exactly what exceljs’ worksheet reader gives: hand-written XML (row styles, booleans, errors, runs, whitespace)', async () => {
    const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const sheet = [
      `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet ${main}>\n  <sheetData>\n`,
      '    <row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="s"><v>0</v></c></row>\n',
      // A row styled as a date: its unstyled cells (and those of style 0 or of no known style) are dates.
      '    <row r="2" s="1" customFormat="1"><c r="A2"><v>30000</v></c><c r="B2" s="0"><v>30001</v></c>',
      '<c r="C2" s="99"><v>30002</v></c><c r="D2" s="2"><v>30003.5</v></c><c r="E2" s="3"><v>12</v></c></row>\n',
      '    <row r="4"><c r="A4" t="b"><v>1</v></c><c r="B4" t="b"><v>0</v></c><c r="C4" t="e"><v>#DIV/0!</v></c>',
      '<c r="D4" t="str"><f>A1&amp;"x"</f><v>Name&amp;amp;x</v></c><c r="E4"><f>1/0</f><v>#DIV/0!</v></c></row>\n',
      '    <row r="5"><c r="A5" t="inlineStr"><is><r><t>first run </t></r><r><rPr><b/></rPr><t>second run</t></r></is></c>',
      '<c r="B5" t="inlineStr">\n  <is>\n    <t xml:space="preserve">  spaced  </t>\n  </is>\n</c>',
      '<c r="C5"><v> 42 </v></c><c r="D5" t="s"><v>1</v></c><c r="E5" t="inlineStr"><is><t></t></is></c></row>\n',
      '    <row r="6"><c r="F6"><v>1</v></c></row>\n',
      '    <row r="7" spans="1:5"/>\n',
      '  </sheetData>\n</worksheet>\n',
    ].join('');
    const styles = `<styleSheet ${main}><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="&quot;No.&quot; 0"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="22" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/></cellXfs></styleSheet>`;
    const file = path.join(directory, 'hand-written.xlsx');
    await writeFile(
      file,
      handMadeZip([
        {
          name: 'xl/workbook.xml',
          content: Buffer.from(
            `<workbook ${main} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
          ),
        },
        {
          name: 'xl/_rels/workbook.xml.rels',
          content: Buffer.from(
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
          ),
        },
        {
          name: 'xl/sharedStrings.xml',
          content: Buffer.from(
            `<sst ${main}><si><t>Shared</t></si><si><r><t>rich </t></r><r><t>shared</t></r></si></sst>`,
          ),
        },
        { name: 'xl/styles.xml', content: Buffer.from(styles) },
        { name: 'xl/worksheets/sheet1.xml', content: Buffer.from(sheet) },
      ]),
    );

    const { rows } = await readAll(file, 5);
    expect(rows.map((row) => row.rowNumber)).toEqual([1, 2, 4, 5]);
    expect(rows[1]?.cells[0]).toEqual(new Date(Date.UTC(1982, 1, 18)));
    expect(rows).toEqual(await rowsByExcelJs(file, 5));
  });

  it('reads text whose characters straddle the chunks the file is inflated in (exceljs broke them)', async () => {
    const file = path.join(directory, 'vietnamese.xlsx');
    const names = Array.from({ length: 20_000 }, (_, index) => `Nguyễn Thị Hồng Nhung ${String(index)}`);
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useSharedStrings: false,
      useStyles: false,
    });
    const sheet = writer.addWorksheet('Data');
    for (const name of names) sheet.addRow([name]).commit();
    sheet.commit();
    await writer.commit();
    const shared = new ExcelJS.Workbook();
    const sharedSheet = shared.addWorksheet('Data');
    for (const name of names) sharedSheet.addRow([name]);
    const sharedFile = path.join(directory, 'vietnamese-shared.xlsx');
    await shared.xlsx.writeFile(sharedFile);

    for (const target of [file, sharedFile]) {
      const { rows } = await readAll(target, 1);
      expect(rows.map((row) => row.cells[0])).toEqual(names);
    }
  });

  it('reads a workbook written in memory (shared strings, dates, rich text, formulas, hyperlinks), skipping empty rows', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('First');
    const sheet = workbook.getWorksheet('First');
    if (sheet === undefined) throw new Error('no sheet');
    sheet.addRow(['Name', 'Born', 'Count', 'Link']);
    sheet.addRow([
      { richText: [{ text: 'An ' }, { text: 'Nguyen', font: { bold: true } }] },
      new Date(Date.UTC(1980, 4, 17)),
      { formula: '1+1', result: 2 },
      { text: 'site', hyperlink: 'https://example.com' },
    ]);
    sheet.addRow([]);
    sheet.addRow(['  ', null, null, null]);
    sheet.addRow(['=cmd', null, 7, true]);
    workbook.addWorksheet('Second').addRow(['not read']);
    const file = path.join(directory, 'memory.xlsx');
    await workbook.xlsx.writeFile(file);

    const { rows, progress } = await readAll(file);
    expect(rows.map((row) => row.rowNumber)).toEqual([1, 2, 5]);
    expect(rows[0]?.cells).toEqual(['Name', 'Born', 'Count', 'Link']);
    expect(rows[1]?.cells).toEqual(['An Nguyen', new Date(Date.UTC(1980, 4, 17)), 2, 'site']);
    expect(rows[2]?.cells).toEqual(['=cmd', null, 7, true]);
    expect(progress.at(-1)).toBeGreaterThan(0);
  });

  it('reads a file from the streaming writer (sheet before the workbook index), inline strings', async () => {
    const file = path.join(directory, 'streamed.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useSharedStrings: false,
      useStyles: true,
    });
    const sheet = writer.addWorksheet('Data');
    sheet.addRow(['A', 'B']).commit();
    for (let index = 0; index < 2000; index++) sheet.addRow([`row ${index}`, index]).commit();
    sheet.commit();
    await writer.commit();

    const { rows, progress } = await readAll(file, 2);
    expect(rows).toHaveLength(2001);
    expect(rows[2000]).toEqual({ rowNumber: 2001, cells: ['row 1999', 1999] });
    const size = (await openWorkbookFile(file)).size;
    expect(progress.at(-1)).toBe(size);
  });

  it('normalises cells as kinds expect them', () => {
    expect(normaliseCell({ error: '#N/A' })).toBe('#N/A');
    expect(normaliseCell({ formula: 'A1' })).toBeNull();
    expect(normaliseCell('')).toBeNull();
    expect(normaliseCell(Number.NaN)).toBeNull();
  });

  it('reads text our exports escaped against formulas without the apostrophe, other text as it is', () => {
    expect(normaliseCell("'+84981000001")).toBe('+84981000001');
    expect(normaliseCell('\'=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
    expect(normaliseCell("'-")).toBe('-');
    expect(normaliseCell("O'Brien")).toBe("O'Brien");
    expect(normaliseCell("'quoted'")).toBe("'quoted'");
  });

  it('refuses a text file renamed .xlsx', async () => {
    const file = path.join(directory, 'text.xlsx');
    await writeFile(file, 'name,phone\nAn,0981000001\n');
    await expect(openWorkbookFile(file)).rejects.toMatchObject({ reason: 'notZip' });
  });
});
