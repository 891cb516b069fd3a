/**
 * Reading QR codes in the page, for browsers without BarcodeDetector: pixels from a photo or a
 * camera frame go through jsQR, which is loaded only when a code is first read.
 */

/** The largest side, in pixels, a picture is decoded at: phone photos are scaled down to it. */
export const PHOTO_MAX_SIDE = 1600;
/** Camera frames are smaller: decoded several times a second. */
export const FRAME_MAX_SIDE = 800;

/** The size a width × height picture is drawn at so that neither side exceeds max (never enlarged). */
export function fitWithin(width: number, height: number, max: number): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The text of the QR code in RGBA pixels, or null when none is found. A printed code is dark on
 * light; a photo of a screen may be inverted, so a still picture is tried both ways.
 */
export async function decodeQrPixels(pixels: Uint8ClampedArray, width: number, height: number, bothWays = true): Promise<string | null> {
  const { default: jsQR } = await import('jsqr');
  const found = jsQR(pixels, width, height, { inversionAttempts: bothWays ? 'attemptBoth' : 'dontInvert' });
  return found && found.data !== '' ? found.data : null;
}

type Drawable = CanvasImageSource & ({ width: number; height: number } | { videoWidth: number; videoHeight: number });

/** Draws source on canvas (scaled to fit max) and decodes it; null when it shows no QR code. */
export async function decodeDrawable(source: Drawable, canvas: HTMLCanvasElement, max: number, bothWays: boolean): Promise<string | null> {
  const natural = 'videoWidth' in source ? { width: source.videoWidth, height: source.videoHeight } : { width: source.width, height: source.height };
  const size = fitWithin(natural.width, natural.height, max);
  if (size.width === 0) return null;
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, size.width, size.height);
  const image = context.getImageData(0, 0, size.width, size.height);
  return decodeQrPixels(image.data, size.width, size.height, bothWays);
}

/** Thrown when a picked file cannot be opened as a picture. */
export class NotAPictureError extends Error {}

/** The text of the QR code in a photo the patient picked; null when the photo shows none. */
export async function readQrFromFile(file: Blob): Promise<string | null> {
  let bitmap: ImageBitmap;
  try {
    // A QR code reads in any rotation, so the photo's EXIF orientation does not matter.
    bitmap = await createImageBitmap(file);
  } catch {
    throw new NotAPictureError('not a picture');
  }
  try {
    return await decodeDrawable(bitmap, document.createElement('canvas'), PHOTO_MAX_SIDE, true);
  } finally {
    bitmap.close();
  }
}
