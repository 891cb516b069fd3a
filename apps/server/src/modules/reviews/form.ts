import { REVIEW_IMAGE_MAX_BYTES, REVIEW_MAX_IMAGES } from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { ReceivedFile } from '../org/logo.js';

/**
 * The multipart limits of the review form: up to REVIEW_MAX_IMAGES images of at most 5 MB each
 * (one more file part is read so that too many images get their own answer) and a few text fields.
 */
export const REVIEW_FORM_LIMITS = {
  fileSize: REVIEW_IMAGE_MAX_BYTES,
  files: REVIEW_MAX_IMAGES + 1,
  fields: 5,
  parts: REVIEW_MAX_IMAGES + 6,
  fieldSize: 8 * 1024,
  headerPairs: 100,
};

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * preValidation hook of the review form: the text fields (`rating`, `message`, `removeImages`)
 * become the body the route's schema validates, the `images` parts a list of ReceivedFile (each
 * cut at 5 MB and reported as such, so an oversized image gets its own answer). A malformed body is
 * the caller's mistake (400).
 */
export async function readReviewForm(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, unknown> = {};
  const images: ReceivedFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const content = await readAll(part.file);
        if (part.fieldname === 'images') images.push(new ReceivedFile(content, part.file.truncated));
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw new AppError('common.invalidParameter', { cause: error });
  }
  fields.images = images;
  request.body = fields;
}
