import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalFileStorage, detectImageType, FileRejectedError, IMAGE_TYPES, type FileStorage } from './file-storage.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from('474946383961010001000000002c00000000010001000002003b', 'hex');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);

let root: string;
let storage: FileStorage;
const tenantId = randomUUID();
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rpm-files-'));
  storage = createLocalFileStorage(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const save = (bytes: Buffer | Buffer[], maxBytes = 1024, isTruncated?: () => boolean) =>
  storage.save(Readable.from(Array.isArray(bytes) ? bytes : [bytes]), {
    tenantId,
    category: 'avatars',
    maxBytes,
    accept: IMAGE_TYPES,
    ...(isTruncated ? { isTruncated } : {}),
  });

async function rejectionOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FileRejectedError) return error.reason;
    throw error;
  }
  throw new Error('expected the file to be rejected');
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('detectImageType', () => {
  it('recognises PNG, JPEG, GIF and WEBP by their first bytes', () => {
    expect(detectImageType(PNG)).toBe('image/png');
    expect(detectImageType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(detectImageType(GIF)).toBe('image/gif');
    expect(detectImageType(WEBP)).toBe('image/webp');
  });

  it('refuses text, HTML and look-alikes whatever their name', () => {
    expect(detectImageType(Buffer.from('just some text, not an image'))).toBeUndefined();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEfmt '))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('local file storage', () => {
  it('stores a file under a random name with the detected type and reads it back as a stream', async () => {
    const stored = await save([PNG.subarray(0, 5), PNG.subarray(5)]);
    expect(stored).toMatchObject({ contentType: 'image/png', size: PNG.length });
    expect(stored.key).toMatch(new RegExp(`^${tenantId}/avatars/[0-9a-f-]{36}\\.png$`));
    expect(await readFile(path.join(root, stored.key))).toEqual(PNG);

    const opened = await storage.open(stored.key);
    expect(opened).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PNG);
    expect((await save(PNG)).key).not.toBe(stored.key);
  });

  it('refuses a file over the limit, of another type, empty, or cut short, and leaves nothing on disk', async () => {
    expect(await rejectionOf(save(Buffer.concat([PNG, Buffer.alloc(2000)]), 1024))).toBe('tooLarge');
    expect(await rejectionOf(save(Buffer.from('hello, I am a text file pretending to be a .png')))).toBe('unsupportedType');
    expect(await rejectionOf(save(Buffer.alloc(0)))).toBe('empty');
    expect(await rejectionOf(save(PNG, 1024, () => true))).toBe('tooLarge');
    expect(await filesUnder(root)).toEqual([]);
  });

  it('accepts only the types asked for', async () => {
    const saving = storage.save(Readable.from([GIF]), { tenantId, category: 'avatars', maxBytes: 1024, accept: ['image/png'] });
    expect(await rejectionOf(saving)).toBe('unsupportedType');
  });

  it('treats a failing source as unreadable', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    expect(await rejectionOf(storage.save(failing, { tenantId, category: 'avatars', maxBytes: 1024, accept: IMAGE_TYPES }))).toBe('unreadable');
    expect(await filesUnder(root)).toEqual([]);
  });

  it('never turns a key that is not its own into a path outside the root', async () => {
    for (const key of ['../../etc/passwd', `${tenantId}/avatars/../../x.png`, '/etc/passwd', `${tenantId}/avatars/${randomUUID()}.html`]) {
      expect(await storage.open(key)).toBeUndefined();
    }
    await expect(storage.remove('../outside.png')).rejects.toThrow('not a storage key');
  });

  it('removes a file, and removing it again is not an error', async () => {
    const stored = await save(PNG);
    await storage.remove(stored.key);
    expect(await storage.open(stored.key)).toBeUndefined();
    await expect(storage.remove(stored.key)).resolves.toBeUndefined();
  });
});
