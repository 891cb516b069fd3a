import { deflateSync } from 'node:zlib';

/** CRC-32 as PNG chunks need it. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * The app's icon as a PNG of `size` pixels: a teal square with a white heartbeat line, drawn
 * here so the build needs no image tool. The line stays inside the central 80 % (maskable safe zone).
 */
export function appIconPng(size: number): Buffer {
  const teal = [0x0b, 0x72, 0x85];
  const rows: Buffer[] = [];
  const stroke = Math.max(2, Math.round(size / 24));
  // The heartbeat: flat, up, down, up, flat, as (x, y) points in 0..1.
  const points: [number, number][] = [[0.15, 0.5], [0.35, 0.5], [0.45, 0.3], [0.55, 0.7], [0.65, 0.5], [0.85, 0.5]];
  const lineY = (x: number): number | undefined => {
    for (let i = 1; i < points.length; i += 1) {
      const from = points[i - 1];
      const to = points[i];
      if (from === undefined || to === undefined) continue;
      const [x0, y0] = from;
      const [x1, y1] = to;
      if (x >= x0 && x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
    return undefined;
  };
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      let white = false;
      for (let dx = -stroke; dx <= stroke && !white; dx += 1) {
        const at = lineY((x + dx) / size);
        if (at !== undefined && Math.abs(at * size - y) <= stroke / 2) white = true;
      }
      const colour = white ? [0xff, 0xff, 0xff] : teal;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
