import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { textProblem } from '@rpm/contracts';
import { AppError } from '../http/app-error.js';

/**
 * The name an uploaded file is kept and shown under: the client's base name (never a path), in
 * NFC. A name with a bidi control or another invisible character ("e\u202Egnp.exe" shows as
 * "eexe.png"), or made only of invisible characters, is refused with a field error on `field`
 * (`invisibleCharacters` or `blank`); the upload is read to its end first so the client gets the
 * answer rather than a broken connection.
 */
export async function acceptUploadName(upload: { fileName: string; stream: Readable }, field = 'file'): Promise<string> {
  const name = (upload.fileName.split(/[\\/]/).pop() ?? '').normalize('NFC');
  const problem = textProblem(name);
  if (problem === null) return name;
  upload.stream.resume();
  await finished(upload.stream).catch(() => undefined);
  throw new AppError('common.invalidParameter', {
    fieldErrors: [{ field, code: problem, message: `validation.${problem}` }],
  });
}
