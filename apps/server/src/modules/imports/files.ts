import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ERROR_FILE_KEY = new RegExp(`^${UUID}/${UUID}\\.errors\\.xlsx$`);
const UUID_PATTERN = new RegExp(`^${UUID}$`);

/** The upload was too large (counted while streaming) or cut at the transport's limit. */
export class UploadTooLargeError extends Error {
  constructor() {
    super('upload over the size limit');
    this.name = 'UploadTooLargeError';
  }
}

/**
 * Where import files live: DATA_DIR/imports/<tenant id>/<job id>.upload.xlsx while a job runs (the
 * uploaded file, removed when the job ends) and <job id>.errors.xlsx (the error file, kept).
 * Names come from ids only, never from the client's file name.
 */
export class ImportFiles {
  constructor(readonly root: string) {}

  private directoryOf(tenantId: string): string {
    if (!UUID_PATTERN.test(tenantId)) throw new Error('invalid tenant id for import files');
    return path.join(this.root, tenantId);
  }

  uploadPath(tenantId: string, jobId: string): string {
    if (!UUID_PATTERN.test(jobId)) throw new Error('invalid job id for import files');
    return path.join(this.directoryOf(tenantId), `${jobId}.upload.xlsx`);
  }

  errorFileKey(tenantId: string, jobId: string): string {
    return `${tenantId}/${jobId}.errors.xlsx`;
  }

  /** The path of a stored key; a key that is not one of ours never becomes a path. */
  errorFilePath(key: string): string {
    if (!ERROR_FILE_KEY.test(key)) throw new Error(`not an error file key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  /**
   * Streams an upload to `target`, counting bytes as they pass: beyond `maxBytes` the write stops
   * and the partial file is removed. Resolves with the size.
   */
  async save(
    source: Readable,
    target: string,
    maxBytes: number,
    isTruncated: () => boolean,
  ): Promise<number> {
    await mkdir(path.dirname(target), { recursive: true });
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) callback(new UploadTooLargeError());
        else callback(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
      if (isTruncated()) throw new UploadTooLargeError();
      return size;
    } catch (error) {
      await unlink(target).catch(() => undefined);
      throw error;
    }
  }

  /** An error file for download, or undefined when it is gone. */
  async openErrorFile(key: string): Promise<{ stream: Readable; size: number } | undefined> {
    const file = this.errorFilePath(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch {
      return undefined;
    }
  }

  async remove(file: string): Promise<void> {
    await unlink(file).catch(() => undefined);
  }
}

/** Reads a stream to its end, discarding it (an upload refused before it is stored). */
export async function drain(source: Readable): Promise<void> {
  await pipeline(
    source,
    new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
  ).catch(() => undefined);
}
