import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handMadeZip, PNG } from './test-support.js';
import { openWorkbookFile } from './workbook-file.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'rpm-zip-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const workbookEntry = { name: 'xl/workbook.xml', content: Buffer.from('<workbook/>') };

it.each([
  ['notZip', PNG],
  ['notZip', Buffer.from('plain text')],
  ['unreadableZip', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)])],
  ['notWorkbook', handMadeZip([{ name: 'a.txt', content: Buffer.from('a') }])],
  [
    'suspiciousRatio',
    handMadeZip([
      workbookEntry,
      { name: 'xl/worksheets/sheet1.xml', content: Buffer.alloc(10 * 1024 * 1024) },
    ]),
  ],
  [
    'tooLarge',
    handMadeZip([workbookEntry, { name: 'big', content: Buffer.from('x'), declaredSize: 4_000_000_000 }]),
  ],
  [
    'tooManyEntries',
    handMadeZip([
      workbookEntry,
      ...Array.from({ length: 10_000 }, (_, index) => ({ name: `e${index}`, content: Buffer.from('') })),
    ]),
  ],
])('refuses with %s before decompressing anything', async (reason, content) => {
  const file = path.join(directory, `${reason}-${Math.random()}.xlsx`);
  await writeFile(file, content);
  await expect(openWorkbookFile(file)).rejects.toMatchObject({ reason });
});

it('accepts a small well-formed zip with a workbook and caps what an entry may inflate to', async () => {
  const file = path.join(directory, 'ok.xlsx');
  await writeFile(
    file,
    handMadeZip([workbookEntry, { name: 'lies', content: Buffer.alloc(5000, 1), declaredSize: 10 }]),
  );
  const workbook = await openWorkbookFile(file);
  try {
    expect(workbook.has('xl/workbook.xml')).toBe(true);
    const stream = await workbook.openEntry('lies');
    await expect(
      (async () => {
        for await (const _chunk of stream) {
          // read to the end
        }
      })(),
    ).rejects.toMatchObject({ reason: 'suspiciousRatio' });
  } finally {
    workbook.close();
  }
});
