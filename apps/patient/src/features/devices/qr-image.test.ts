import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeQrPixels, fitWithin } from './qr-image';

/** RGBA pixels of a QR code for text: `scale` pixels a module, a 4-module quiet zone, dark on light unless inverted. */
function qrPixels(text: string, scale = 4, inverted = false): { pixels: Uint8ClampedArray; side: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (modules.size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const column = Math.floor(x / scale) - 4;
      const row = Math.floor(y / scale) - 4;
      const inside = column >= 0 && row >= 0 && column < modules.size && row < modules.size;
      const dark = inside && modules.get(row, column) === 1;
      const value = dark !== inverted ? 0 : 255;
      pixels.set([value, value, value, 255], (y * side + x) * 4);
    }
  }
  return { pixels, side };
}

describe('fitWithin', () => {
  it('scales a large photo down so its longer side is the maximum, keeping its shape', () => {
    expect(fitWithin(4000, 3000, 1600)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3000, 4000, 1600)).toEqual({ width: 1200, height: 1600 });
  });

  it('never enlarges a small picture and handles an empty one', () => {
    expect(fitWithin(640, 480, 1600)).toEqual({ width: 640, height: 480 });
    expect(fitWithin(0, 480, 1600)).toEqual({ width: 0, height: 0 });
    expect(fitWithin(10_000, 1, 800)).toEqual({ width: 800, height: 1 });
  });
});

describe('decodeQrPixels', () => {
  it('reads the text of a QR code', async () => {
    const { pixels, side } = qrPixels('V19:SN-QR-000123');
    expect(await decodeQrPixels(pixels, side, side)).toBe('V19:SN-QR-000123');
  });

  it('reads an inverted code only when asked to try both ways', async () => {
    const { pixels, side } = qrPixels('GT5:SN-QR-000456', 4, true);
    expect(await decodeQrPixels(pixels, side, side, true)).toBe('GT5:SN-QR-000456');
    expect(await decodeQrPixels(pixels, side, side, false)).toBeNull();
  });

  it('finds nothing in a blank picture', async () => {
    const side = 120;
    const blank = new Uint8ClampedArray(side * side * 4).fill(255);
    expect(await decodeQrPixels(blank, side, side)).toBeNull();
  });
});
