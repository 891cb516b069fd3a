import { describe, expect, it } from 'vitest';
import { imagePixelSize } from './manifest.js';

describe('imagePixelSize', () => {
  it('reads a PNG’s width and height from its header', () => {
    const png = Buffer.alloc(33);
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(png);
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imagePixelSize(png)).toEqual({ width: 640, height: 480 });
  });

  it('reads a JPEG’s size from its frame header, past the segments before it', () => {
    const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
    const frame = Buffer.from('ffc0001108', 'hex');
    const size = Buffer.alloc(4);
    size.writeUInt16BE(300, 0);
    size.writeUInt16BE(200, 2);
    const jpeg = Buffer.concat([Buffer.from('ffd8', 'hex'), app0, frame, size, Buffer.alloc(10), Buffer.from('ffd9', 'hex')]);
    expect(imagePixelSize(jpeg)).toEqual({ width: 200, height: 300 });
  });

  it('knows no size for other or cut-off data', () => {
    expect(imagePixelSize(Buffer.from('GIF89a'))).toBeUndefined();
    expect(imagePixelSize(Buffer.from('ffd8ffe00010', 'hex'))).toBeUndefined();
    expect(imagePixelSize(Buffer.alloc(0))).toBeUndefined();
  });
});
