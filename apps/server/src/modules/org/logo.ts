import { Readable } from 'node:stream';
import { CENTER_LOGO_MAX_BYTES, CENTER_LOGO_TYPES } from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { FileRejectedError, IMAGE_TYPES, type FileRejection, type FileStorage, type StoredFile } from '../../lib/file-storage.js';

/** Logo types as the storage knows them (PNG, JPEG, WEBP; recognised by content). */
const LOGO_TYPES = IMAGE_TYPES.filter((type) => (CENTER_LOGO_TYPES as readonly string[]).includes(type));

/** The multipart limits of the center forms: one file of at most 1 MB, a few dozen fields. */
export const CENTER_FORM_LIMITS = { fileSize: CENTER_LOGO_MAX_BYTES, files: 1, fields: 40, parts: 41, fieldSize: 2048, headerPairs: 100 };

/**
 * A file part of a multipart form, read into memory (at most the 1 MB limit) before the route
 * runs. Only the server creates it, so a JSON body can never pass a look-alike object off as an
 * uploaded file.
 */
export class ReceivedFile {
  constructor(
    readonly content: Buffer,
    /** True when the part was cut at the size limit. */
    readonly isTruncated: boolean,
  ) {}
}

async function readAll(stream: AsyncIterable<unknown>, keep: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    if (keep) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * preValidation hook of the center forms: turns a multipart body into the object the route's
 * schema validates. Text fields become strings (a repeated field a list); the `logo` file part
 * becomes a ReceivedFile (at most 1 MB, truncation reported, not thrown, so that an oversized
 * logo is answered 413 with its catalogue code); any other file part is read and dropped. A
 * malformed body is the caller's mistake (400), never a server error.
 */
export async function readCenterForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields = new Map<string, unknown>();
  const add = (name: string, value: unknown) => {
    const previous = fields.get(name);
    fields.set(name, previous === undefined ? value : [...(Array.isArray(previous) ? (previous as unknown[]) : [previous]), value]);
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await readAll(part.file, part.fieldname === 'logo');
        if (part.fieldname === 'logo') add('logo', new ReceivedFile(content, part.file.truncated));
      } else {
        add(part.fieldname, part.value);
      }
    }
  } catch (error) {
    throw new AppError('common.invalidParameter', { cause: error });
  }
  request.body = Object.fromEntries(fields);
}

/** Reads the multipart field `file` of a request whose body is not parsed into fields. */
export async function receiveFilePart(request: FastifyRequest): Promise<ReceivedFile> {
  if (!request.isMultipart()) throw new AppError('file.missing');
  try {
    const part = await request.file();
    if (part === undefined) throw new AppError('file.missing');
    const content = await readAll(part.file, part.fieldname === 'file');
    if (part.fieldname !== 'file') throw new AppError('file.missing');
    return new ReceivedFile(content, part.file.truncated);
  } catch (error) {
    // Malformed multipart bodies and exceeded part limits are the caller's mistake.
    if (error instanceof AppError) throw error;
    throw new AppError('common.invalidParameter', { cause: error });
  }
}

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

/** Stores a logo after checking its size and its real type (magic bytes), or refuses it. */
export async function storeLogo(storage: FileStorage, tenantId: string, logo: ReceivedFile): Promise<StoredFile> {
  try {
    return await storage.save(Readable.from([logo.content]), {
      tenantId,
      category: 'logos',
      maxBytes: CENTER_LOGO_MAX_BYTES,
      accept: LOGO_TYPES,
      isTruncated: () => logo.isTruncated,
    });
  } catch (error) {
    if (error instanceof FileRejectedError) throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
}

/**
 * Runs `work` with the new logo stored (when there is one): the file is removed again when the
 * work fails, and the file it replaces is removed once the work has committed.
 */
export async function withStoredLogo<T>(
  environment: { storage: FileStorage; log: { warn(details: object, message: string): void } },
  tenantId: string,
  logo: ReceivedFile | undefined,
  work: (stored: StoredFile | undefined) => Promise<{ result: T; replacedKey: string | null }>,
): Promise<T> {
  const stored = logo === undefined ? undefined : await storeLogo(environment.storage, tenantId, logo);
  let outcome: { result: T; replacedKey: string | null };
  try {
    outcome = await work(stored);
  } catch (error) {
    if (stored !== undefined) {
      await environment.storage.remove(stored.key).catch((removeError: unknown) => {
        environment.log.warn({ err: removeError, key: stored.key }, 'could not remove a logo that was not saved');
      });
    }
    throw error;
  }
  const { replacedKey } = outcome;
  if (stored !== undefined && replacedKey !== null && replacedKey !== stored.key) {
    await environment.storage.remove(replacedKey).catch((error: unknown) => {
      // The new logo is committed; an orphaned old file costs disk space, not correctness.
      environment.log.warn({ err: error, key: replacedKey }, 'could not remove the previous logo');
    });
  }
  return outcome.result;
}
