import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseCell, readSheetRows, type SheetRow } from './sheet-reader.js';
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

describe('readSheetRows', () => {
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
