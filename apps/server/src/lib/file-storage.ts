import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Image types the product accepts (spec §9: png, jpeg, jpg, gif, webp). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
/** Documents stored beside images (attached files, medical records: jpg, png, pdf). */
export const DOCUMENT_TYPES = ['application/pdf'] as const;
/** Voice recordings (SOS messages from the patient app): WebM, Ogg or MP4 audio. */
export const AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4'] as const;
export type StoredFileType = ImageType | (typeof DOCUMENT_TYPES)[number] | (typeof AUDIO_TYPES)[number];

const EXTENSION_OF: Record<StoredFileType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
};
const TYPE_OF_EXTENSION = new Map(
  Object.entries(EXTENSION_OF).map(([type, extension]) => [extension, type as StoredFileType]),
);

/** Bytes needed to recognise every supported type (WEBP: "RIFF" size "WEBP"). */
const SIGNATURE_BYTES = 12;

/**
 * The type a file really is, from its first bytes. The client's filename and Content-Type are
 * never trusted: a script renamed to .png must not be served back as an image.
 */
export function detectImageType(head: Buffer): ImageType | undefined {
  const startsWith = (bytes: number[], offset = 0) =>
    bytes.every((byte, index) => head[offset + index] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61)
    return 'image/gif';
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** {@link detectImageType}, plus PDF ("%PDF-") and audio (WebM's EBML header, "OggS", MP4's "ftyp" box). */
export function detectFileType(head: Buffer): StoredFileType | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return 'audio/webm';
  if (head.subarray(0, 4).toString('latin1') === 'OggS') return 'audio/ogg';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'audio/mp4';
  return detectImageType(head);
}

export type FileRejection = 'tooLarge' | 'unsupportedType' | 'empty' | 'unreadable';

/** The upload itself is unacceptable (as opposed to a storage failure, which stays an Error). */
export class FileRejectedError extends Error {
  constructor(
    readonly reason: FileRejection,
    options: { cause?: unknown } = {},
  ) {
    super(`file rejected: ${reason}`, options);
    this.name = 'FileRejectedError';
  }
}

export interface StoredFile {
  /** Opaque, random key (never derived from the client's filename). */
  key: string;
  contentType: StoredFileType;
  size: number;
}

export interface OpenedFile {
  stream: Readable;
  contentType: StoredFileType;
  size: number;
}

export interface SaveOptions {
  /** A tenant id: files of one tenant stay together (export, deletion). */
  tenantId: string;
  /** What kind of file, e.g. "avatars"; lower-case letters only. */
  category: string;
  maxBytes: number;
  accept: readonly StoredFileType[];
  /** For sources that cut a file short at a limit (multipart) rather than failing. */
  isTruncated?: () => boolean;
}

export interface FileStorage {
  /**
   * Streams `source` into a new file under a random name. The size is counted while streaming
   * and the type detected from the first bytes; a rejected upload leaves nothing behind.
   */
  save(source: Readable, options: SaveOptions): Promise<StoredFile>;
  /** A stream of a stored file, or undefined when it does not exist. */
  open(key: string): Promise<OpenedFile | undefined>;
  /** Removes a stored file; a missing file is not an error (removal may be retried). */
  remove(key: string): Promise<void>;
}

const KEY_PATTERN = /^[0-9a-f-]{36}\/[a-z]+\/[0-9a-f-]{36}\.(png|jpg|gif|webp|pdf|webm|ogg|m4a)$/;
const CATEGORY_PATTERN = /^[a-z]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function contentTypeOfKey(key: string): StoredFileType | undefined {
  if (!KEY_PATTERN.test(key)) return undefined;
  return TYPE_OF_EXTENSION.get(key.slice(key.lastIndexOf('.') + 1));
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Files on local disk under `root` (config.dataDir/files). */
export function createLocalFileStorage(root: string): FileStorage {
  // Keys come from our own database, but a key is still checked before it becomes a path, so a
  // corrupted or hostile value can never reach outside the storage root.
  const pathOf = (key: string) => {
    if (contentTypeOfKey(key) === undefined) throw new Error(`not a storage key: ${key}`);
    return path.join(root, ...key.split('/'));
  };

  return {
    async save(source, options) {
      if (!UUID_PATTERN.test(options.tenantId) || !CATEGORY_PATTERN.test(options.category)) {
        throw new Error('invalid tenant id or category for file storage');
      }
      const directory = path.join(root, options.tenantId, options.category);
      await mkdir(directory, { recursive: true });
      const partial = path.join(directory, `${randomUUID()}.part`);
      const handle = await open(partial, 'wx', 0o600);
      let isClosed = false;
      try {
        let head = Buffer.alloc(0);
        let size = 0;
        let rejection: FileRejection | undefined;
        const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        for (;;) {
          let next: IteratorResult<Buffer>;
          try {
            next = await chunks.next();
          } catch (error) {
            throw new FileRejectedError('unreadable', { cause: error });
          }
          if (next.done === true) break;
          const chunk = next.value;
          size += chunk.length;
          if (size > options.maxBytes) {
            // Beyond the limit nothing more is read: an unbounded source must not be drained.
            source.destroy();
            throw new FileRejectedError('tooLarge');
          }
          if (head.length < SIGNATURE_BYTES) {
            head = Buffer.concat([head, chunk]).subarray(0, SIGNATURE_BYTES);
            if (head.length >= SIGNATURE_BYTES)
              rejection ??= acceptedType(head, options.accept) ? undefined : 'unsupportedType';
          }
          // After a rejection the rest is still read (bounded by maxBytes), so that a multipart
          // request is consumed and answered normally, but nothing more is written.
          if (rejection === undefined) await handle.write(chunk);
        }
        if (options.isTruncated?.() === true) throw new FileRejectedError('tooLarge');
        if (size === 0) throw new FileRejectedError('empty');
        const contentType = acceptedType(head, options.accept);
        if (rejection !== undefined || contentType === undefined)
          throw new FileRejectedError('unsupportedType');
        await handle.sync();
        await handle.close();
        isClosed = true;
        const key = `${options.tenantId}/${options.category}/${randomUUID()}.${EXTENSION_OF[contentType]}`;
        await rename(partial, pathOf(key));
        return { key, contentType, size };
      } catch (error) {
        if (!isClosed) await handle.close();
        await unlink(partial).catch(() => undefined);
        throw error;
      }
    },

    async open(key) {
      const contentType = contentTypeOfKey(key);
      if (contentType === undefined) return undefined;
      // Opened before it is measured, so a file replaced meanwhile is still read whole (an open
      // file stays readable after its name is removed).
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isMissingFile(error)) return undefined;
        throw error;
      }
      try {
        const info = await handle.stat();
        return { stream: handle.createReadStream(), contentType, size: info.size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async remove(key) {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (!isMissingFile(error)) throw error;
      }
    },
  };
}

function acceptedType(head: Buffer, accept: readonly StoredFileType[]): StoredFileType | undefined {
  const type = detectFileType(head);
  return type !== undefined && accept.includes(type) ? type : undefined;
}
