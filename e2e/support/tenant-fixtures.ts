import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';

/** Helpers of the tenant browser tests: real images, the file picker, and databases of a tenant's own. */

type Rgb = readonly [number, number, number];

/**
 * A real PNG (signature, IHDR, IDAT, IEND with their CRCs), so the server's content check sees a
 * true image and the screenshots show something recognisable.
 */
export function pngImage(width: number, height: number, paint: (x: number, y: number) => Rgb): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push(...paint(x, y));
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const WHITE: Rgb = [255, 255, 255];

/** A square mark: a coloured disc on white. */
export function squareLogo(color: Rgb): Buffer {
  return pngImage(64, 64, (x, y) => ((x - 31.5) ** 2 + (y - 31.5) ** 2 < 26 ** 2 ? color : WHITE));
}

/** A wide logo: the disc, then three bars standing in for a word mark. */
export function horizontalLogo(color: Rgb): Buffer {
  return pngImage(240, 60, (x, y) => {
    if ((x - 30) ** 2 + (y - 30) ** 2 < 22 ** 2) return color;
    const isBar =
      x > 64 && x < 228 && [14, 27, 40].some((top) => y >= top && y < top + 7) && !(y >= 40 && x > 170);
    return isBar ? [40, 40, 48] : WHITE;
  });
}

/** A real 1x1 PNG (one blue pixel), for uploads that only need a valid image. */
export const ONE_PIXEL_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415478da63304e3b030002350166b46f979e0000000049454e44ae426082',
  'hex',
);

/** A JPEG's first bytes under a .png name: the kind of file the logo checks must refuse. */
export const FAKE_PNG_JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01,
]);

/** Chooses a file the way a person does: click what opens the picker, then pick the file. */
export async function chooseFile(
  page: Page,
  opener: Locator,
  file: { name: string; buffer: Buffer; mimeType?: string },
) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), opener.click()]);
  await chooser.setFiles({ name: file.name, mimeType: file.mimeType ?? 'image/png', buffer: file.buffer });
}

/** The computed background colour of an element, as the browser paints it ("rgb(…)"). */
export function backgroundOf(locator: Locator): Promise<string> {
  return locator.evaluate((element) => getComputedStyle(element).backgroundColor);
}

export function rgbOf(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${String(value >> 16)}, ${String((value >> 8) & 255)}, ${String(value & 255)})`;
}

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('adminUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface DedicatedDatabases {
  host: string;
  port: number;
  user: string;
  password: string;
  names: Record<'primary' | 'replica' | 'vitals', string>;
  drop: () => Promise<void>;
}

/**
 * A tenant's own database server, as an operator would hand it over: a login role that is not a
 * superuser, owning three new databases on the test PostgreSQL server.
 */
export async function createDedicatedDatabases(): Promise<DedicatedDatabases> {
  const suffix = randomBytes(4).toString('hex');
  const user = `rpm_e2e_ded_${suffix}`;
  const password = `Ded#${suffix}`;
  const names = {
    primary: `rpm_e2e_ded_${suffix}_main`,
    replica: `rpm_e2e_ded_${suffix}_replica`,
    vitals: `rpm_e2e_ded_${suffix}_vitals`,
  };
  await asAdmin(`CREATE ROLE ${user} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD '${password}'`);
  for (const name of Object.values(names)) await asAdmin(`CREATE DATABASE ${name} OWNER ${user}`);
  const url = new URL(inject('adminUrl'));
  return {
    host: '127.0.0.1',
    port: Number(url.port || '5432'),
    user,
    password,
    names,
    drop: async () => {
      for (const name of Object.values(names)) await asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await asAdmin(`DROP ROLE IF EXISTS ${user}`);
    },
  };
}
