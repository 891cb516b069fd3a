import { TENANT_LOGO_MAX_BYTES } from '@rpm/contracts';

/** What may be wrong with a chosen logo before it is sent; the server checks the same again. */
export type LogoProblem = 'empty' | 'tooLarge' | 'notPng' | 'notPngOrJpeg';

/** Which image types an upload takes: logos are PNG (spec §3); the registration QR may be a JPEG too. */
export type LogoAccept = 'png' | 'pngOrJpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((value, index) => bytes[index] === value);

/** The `accept` attribute of the file picker, so the browser offers the right files first. */
export function acceptAttribute(accept: LogoAccept): string {
  return accept === 'png' ? 'image/png' : 'image/png,image/jpeg';
}

/**
 * Checks a chosen file the way the server will: size first (no need to read a huge file), then
 * the type by its first bytes, not by its name, so a renamed JPEG is caught here and not after
 * an upload.
 */
export async function logoProblem(file: Blob, accept: LogoAccept): Promise<LogoProblem | null> {
  if (file.size === 0) return 'empty';
  if (file.size > TENANT_LOGO_MAX_BYTES) return 'tooLarge';
  const head = new Uint8Array(await file.slice(0, PNG_SIGNATURE.length).arrayBuffer());
  if (startsWith(head, PNG_SIGNATURE)) return null;
  if (accept === 'pngOrJpeg') return startsWith(head, JPEG_SIGNATURE) ? null : 'notPngOrJpeg';
  return 'notPng';
}
