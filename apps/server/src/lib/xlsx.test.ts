import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { attachmentHeader, escapeCellText, writeXlsx } from './xlsx.js';

async function readBack(columns: string[], rows: (string | number | null)[][]) {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeXlsx(output, 'Sheet', columns.map((header) => ({ header })), rows);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (sheet === undefined) throw new Error('no sheet');
  const values: unknown[][] = [];
  sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
  return values;
}

describe('xlsx output', () => {
  it('escapes text a spreadsheet would run as a formula, and nothing else', () => {
    for (const text of ['=1+1', '+84 98', '-5', '@SUM(A1)', '\t=x', '\r=x']) expect(escapeCellText(text)).toBe(`'${text}`);
    for (const text of ['Nguyen', '098 123', 'a=b', '']) expect(escapeCellText(text)).toBe(text);
    expect(escapeCellText(-5)).toBe(-5);
  });

  it('writes the header and the rows, with formulas kept as text', async () => {
    const values = await readBack(['Name', 'Phone'], [['=HYPERLINK("x")', '0981'], ['An', null]]);
    expect(values).toEqual([['Name', 'Phone'], ['\'=HYPERLINK("x")', '0981'], ['An']]);
  });

  it('names the download safely', () => {
    expect(attachmentHeader('bệnh nhân "x".xlsx')).toBe(
      `attachment; filename="b_nh nh_n _x_.xlsx"; filename*=UTF-8''${encodeURIComponent('bệnh nhân "x".xlsx')}`,
    );
  });
});
