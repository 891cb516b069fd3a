/**
 * The check-in QR code as an SVG path, drawn from the `qrcode` library's module matrix (loaded only
 * by the printed sheet, so no other screen carries it): crisp at any print size, no canvas, no
 * markup injected.
 */
export interface QrMatrix {
  size: number;
  get: (row: number, col: number) => number;
}

/** One unit square per dark module, offset by the quiet zone: "M4 4h1v1h-1z…". */
export function qrPath(matrix: QrMatrix, margin = 4): string {
  const parts: string[] = [];
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      if (matrix.get(row, col)) parts.push(`M${String(col + margin)} ${String(row + margin)}h1v1h-1z`);
    }
  }
  return parts.join('');
}

/** The matrix of a text, error correction M (a printed sheet may be creased or smudged). */
export async function qrMatrix(text: string): Promise<QrMatrix> {
  const { create } = await import('qrcode');
  return create(text, { errorCorrectionLevel: 'M' }).modules;
}
