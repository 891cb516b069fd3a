import { open } from 'node:fs/promises';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { IMPORT_LIMITS } from '@rpm/contracts';
import yauzl from 'yauzl';

/** Why a file is not an acceptable workbook (all answer import.invalidFile). */
export type WorkbookRejection =
  | 'notZip'
  | 'unreadableZip'
  | 'tooManyEntries'
  | 'tooLarge'
  | 'suspiciousRatio'
  | 'encrypted'
  | 'notWorkbook';

export class WorkbookRejectedError extends Error {
  constructor(
    readonly reason: WorkbookRejection,
    options: { cause?: unknown } = {},
  ) {
    super(`not an acceptable workbook: ${reason}`, options);
    this.name = 'WorkbookRejectedError';
  }
}

export interface WorkbookLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxCompressionRatio: number;
  ratioCheckMinBytes: number;
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const DEFLATE = 8;
const STORED = 0;

/**
 * An .xlsx file opened for reading: a zip whose central directory (the index at its end) has been
 * checked before any entry is decompressed. Entries are read by random access, so the parts of a
 * workbook can be read in the order a streaming parse needs whatever order the zip has.
 */
export interface WorkbookFile {
  /** Bytes of the file. */
  size: number;
  has(name: string): boolean;
  /** Declared uncompressed size of an entry (0 when absent). */
  uncompressedSizeOf(name: string): number;
  /**
   * The decompressed content of an entry. `onCompressedBytes` is told how many bytes of the file
   * it has consumed so far (for progress). The stream fails if the entry inflates beyond its
   * declared size: the declared sizes were checked against the limits, the real ones must match.
   */
  openEntry(name: string, onCompressedBytes?: (bytes: number) => void): Promise<Readable>;
  /** Compressed bytes of an entry. */
  compressedSizeOf(name: string): number;
  close(): void;
}

/**
 * Opens and checks an uploaded workbook: the zip signature at the start (a PNG or a text file
 * renamed .xlsx stops here), then the central directory, lazily, entry by entry: at most
 * `maxEntries` entries, the sum of declared uncompressed sizes within `maxUncompressedBytes`, no
 * large entry inflating more than `maxCompressionRatio` times (a "zip bomb"), no encryption, and
 * an `xl/workbook.xml`. Nothing is decompressed here.
 */
export async function openWorkbookFile(
  path: string,
  limits: WorkbookLimits = IMPORT_LIMITS,
): Promise<WorkbookFile> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(ZIP_SIGNATURE.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < head.length || !head.equals(ZIP_SIGNATURE)) throw new WorkbookRejectedError('notZip');
  } finally {
    await handle.close();
  }

  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      strictFileNames: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw new WorkbookRejectedError('unreadableZip', { cause: error });
  }
  const entries = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > limits.maxEntries) throw new WorkbookRejectedError('tooManyEntries');
    let total = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (entries.size >= limits.maxEntries) throw new WorkbookRejectedError('tooManyEntries');
        if (entry.isEncrypted()) throw new WorkbookRejectedError('encrypted');
        total += entry.uncompressedSize;
        if (total > limits.maxUncompressedBytes) throw new WorkbookRejectedError('tooLarge');
        if (entry.uncompressedSize > limits.ratioCheckMinBytes) {
          const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
          if (ratio > limits.maxCompressionRatio) throw new WorkbookRejectedError('suspiciousRatio');
        }
        if (entry.compressionMethod !== DEFLATE && entry.compressionMethod !== STORED)
          throw new WorkbookRejectedError('unreadableZip');
        entries.set(entry.fileName, entry);
      }
    } catch (error) {
      if (error instanceof WorkbookRejectedError) throw error;
      throw new WorkbookRejectedError('unreadableZip', { cause: error });
    }
    if (!entries.has('xl/workbook.xml')) throw new WorkbookRejectedError('notWorkbook');
  } catch (error) {
    zip.close();
    throw error;
  }

  const entryOf = (name: string) => {
    const entry = entries.get(name);
    if (entry === undefined) throw new WorkbookRejectedError('notWorkbook');
    return entry;
  };
  return {
    size: zip.fileSize,
    has: (name) => entries.has(name),
    uncompressedSizeOf: (name) => entries.get(name)?.uncompressedSize ?? 0,
    compressedSizeOf: (name) => entries.get(name)?.compressedSize ?? 0,
    async openEntry(name, onCompressedBytes) {
      const entry = entryOf(name);
      // The raw (compressed) bytes are read and inflated here, so that what has been consumed of
      // the file is known (progress) and the output is capped at the declared size.
      const raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
      let consumed = 0;
      raw.on('data', (chunk: Buffer) => {
        consumed += chunk.length;
        onCompressedBytes?.(consumed);
      });
      const capped = capAt(entry.uncompressedSize);
      const forwardError = (error: Error) => capped.destroy(error);
      raw.on('error', forwardError);
      // A reader that stops early (header check) destroys the output: stop reading the file too.
      capped.on('close', () => raw.destroy());
      if (entry.compressionMethod === STORED) return raw.pipe(capped);
      const inflate = createInflateRaw();
      inflate.on('error', forwardError);
      return raw.pipe(inflate).pipe(capped);
    },
    close: () => {
      zip.close();
    },
  };
}

/** Passes bytes through and fails once more than `limit` have passed. */
function capAt(limit: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      passed += chunk.length;
      if (passed > limit) {
        callback(new WorkbookRejectedError('suspiciousRatio'));
        return;
      }
      callback(null, chunk);
    },
  });
}
