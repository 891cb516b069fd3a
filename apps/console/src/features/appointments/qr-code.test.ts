import { describe, expect, it } from 'vitest';
import { qrMatrix, qrPath } from './qr-code';

describe('qrPath', () => {
  it('draws one square per dark module inside the quiet zone', () => {
    const matrix = { size: 2, get: (row: number, col: number) => (row === col ? 1 : 0) };
    expect(qrPath(matrix, 1)).toBe('M1 1h1v1h-1zM2 2h1v1h-1z');
  });

  it('encodes a check-in token as a QR matrix with its finder patterns', async () => {
    const matrix = await qrMatrix('0193a4b2-0000-7000-8000-000000000000.AbCdEf_123-xyz');
    expect(matrix.size).toBeGreaterThanOrEqual(21);
    // The top-left finder pattern: a dark 7×7 ring.
    expect([0, 1, 2, 3, 4, 5, 6].map((col) => matrix.get(0, col))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(matrix.get(1, 1)).toBe(0);
  });
});
