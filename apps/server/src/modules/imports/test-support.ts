/** Test support for the import tests: workbooks and zips built in memory, and a small import kind. */
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { and, eq, inArray } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { healthCenters } from '../../db/schema.js';
import type { ImportCell, ImportKind, RowFailure } from './kind.js';

/** An .xlsx with a header row and data rows. */
export async function workbookOf(
  headers: readonly string[],
  rows: readonly (readonly ImportCell[])[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.addRow([...headers]);
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Reads every row of a sheet of an .xlsx (the first unless named), cells from column A. */
export async function rowsOf(content: Buffer, sheetName?: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const sheet = sheetName === undefined ? workbook.worksheets[0] : workbook.getWorksheet(sheetName);
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

export interface ZipEntrySpec {
  name: string;
  /** What the entry really holds (compressed with deflate). */
  content: Buffer;
  /** The uncompressed size the zip claims (defaults to the real one). */
  declaredSize?: number;
}

/**
 * A zip written byte by byte (local headers, data, central directory, end record), so tests can
 * build what no library would: entries that claim a huge size, or that inflate a thousand times.
 */
export function handMadeZip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = deflateRawSync(entry.content);
    const size = entry.declaredSize ?? entry.content.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A real 1x1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

export const CENTER_HEADERS = ['Name', 'Beds'] as const;

export interface CenterKindOptions {
  /** Called before each batch is stored (tests hold a batch back to watch progress, or fail it). */
  beforeBatch?: (batchNumber: number) => Promise<void>;
}

/**
 * A small import kind for engine tests: health centers by name. A row needs a name and, when
 * given, a whole number of beds; a name already in the tenant (or earlier in the file) is refused
 * by the database step, as a real kind refuses duplicates.
 */
export function centerImportKind(options: CenterKindOptions = {}): ImportKind<{ name: string }> {
  let batchNumber = 0;
  return {
    kind: 'PATIENT',
    headers: CENTER_HEADERS,
    exampleRows: [['Center North', 20]],
    parseRow(cells) {
      const reasons: string[] = [];
      const [name, beds] = cells;
      if (typeof name !== 'string' || name.trim() === '') reasons.push('Name is required');
      if (
        beds !== null &&
        beds !== undefined &&
        !(typeof beds === 'number' && Number.isInteger(beds) && beds >= 0)
      )
        reasons.push('Beds must be a whole number');
      return reasons.length > 0 ? { ok: false, reasons } : { ok: true, value: { name: String(name).trim() } };
    },
    async insertBatch(tx, rows, context) {
      batchNumber++;
      await options.beforeBatch?.(batchNumber);
      const failures: RowFailure[] = [];
      const names = rows.map((row) => row.value.name);
      const existing = new Set(
        (
          await tx
            .select({ name: healthCenters.name })
            .from(healthCenters)
            .where(and(eq(healthCenters.tenantId, context.tenantId), inArray(healthCenters.name, names)))
        ).map((row) => row.name),
      );
      const values: (typeof healthCenters.$inferInsert)[] = [];
      for (const row of rows) {
        if (existing.has(row.value.name)) {
          failures.push({ rowNumber: row.rowNumber, reasons: ['Name already exists'] });
          continue;
        }
        existing.add(row.value.name);
        values.push({ tenantId: context.tenantId, id: uuidv7(), name: row.value.name });
      }
      if (values.length > 0) await tx.insert(healthCenters).values(values);
      return failures;
    },
  };
}
