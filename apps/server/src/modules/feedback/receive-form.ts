import type { Multipart } from '@fastify/multipart';
import {
  FEEDBACK_IMAGE_MAX_BYTES,
  FEEDBACK_IMAGE_TYPES,
  FEEDBACK_MAX_IMAGES,
  feedbackInputSchema,
  type FeedbackInput,
  type FieldError,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { FileRejectedError, type FileRejection, type FileStorage, type StoredFile } from '../../lib/file-storage.js';
import { acceptUploadName } from '../../lib/upload-name.js';
import { cleanFileName } from '../patients/medical-records-service.js';

/** The multipart limits of the feedback form: the images (one more, to name the error) and four fields. */
export const FEEDBACK_FORM_LIMITS = {
  fileSize: FEEDBACK_IMAGE_MAX_BYTES,
  files: FEEDBACK_MAX_IMAGES + 1,
  fields: 8,
  parts: FEEDBACK_MAX_IMAGES + 9,
  fieldSize: 16 * 1024,
  headerPairs: 100,
};

export interface ReceivedImage extends StoredFile {
  name: string;
}
export interface ReceivedFeedback {
  input: ReturnType<typeof feedbackInputSchema.parse>;
  images: ReceivedImage[];
}
/** Reads the form, storing its images as they arrive; the caller removes them if it refuses the rest. */
export type ReceiveFeedback = (storage: FileStorage, tenantId: string) => Promise<ReceivedFeedback>;

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.empty',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

const TEXT_FIELDS = new Set(Object.keys(feedbackInputSchema.shape));
const imageError = (code: 'feedback.tooManyImages' | (typeof ERROR_OF_REJECTION)[FileRejection], cause?: unknown) =>
  new AppError(code, { cause, fieldErrors: [{ field: 'images', code, message: code }] });

/**
 * Reads the feedback form (multipart): fields `type`, `category`, `description`, `suggestion` and
 * up to FEEDBACK_MAX_IMAGES file parts `images`, each png, jpeg, gif or webp recognised by its
 * first bytes, of 1 byte to 5 MB counted while streaming. Images are stored as they arrive (the
 * fields may come before or after them) and removed again when anything is refused.
 */
export function receiveFeedbackForm(request: FastifyRequest): ReceiveFeedback {
  return async (storage, tenantId) => {
    if (!request.isMultipart()) throw new AppError('common.unsupportedMediaType');
    const fields: Record<string, string> = {};
    const images: ReceivedImage[] = [];
    try {
      const parts: AsyncIterableIterator<Multipart> = request.parts();
      for (;;) {
        let next: IteratorResult<Multipart>;
        try {
          next = await parts.next();
        } catch (error) {
          if (error instanceof AppError) throw error;
          if (error instanceof Error && 'code' in error && error.code === 'FST_FILES_LIMIT') throw imageError('feedback.tooManyImages', error);
          throw new AppError('common.invalidParameter', { cause: error });
        }
        if (next.done === true) break;
        const part = next.value;
        if (part.type === 'file') {
          const { file } = part;
          if (part.fieldname !== 'images') {
            file.resume();
            throw new AppError('common.invalidParameter', {
              fieldErrors: [{ field: part.fieldname, code: 'unrecognized_keys', message: 'validation.unknownField' }],
            });
          }
          if (images.length >= FEEDBACK_MAX_IMAGES) {
            file.resume();
            throw imageError('feedback.tooManyImages');
          }
          const name = cleanFileName(await acceptUploadName({ fileName: part.filename, stream: file }, 'images'));
          try {
            const stored = await storage.save(file, {
              tenantId,
              category: 'feedback',
              maxBytes: FEEDBACK_IMAGE_MAX_BYTES,
              accept: FEEDBACK_IMAGE_TYPES,
              isTruncated: () => file.truncated,
            });
            images.push({ ...stored, name });
          } catch (error) {
            if (error instanceof FileRejectedError) throw imageError(ERROR_OF_REJECTION[error.reason], error);
            throw error;
          }
        } else if (TEXT_FIELDS.has(part.fieldname) && typeof part.value === 'string') {
          if (part.valueTruncated)
            throw new AppError('common.invalidParameter', {
              fieldErrors: [{ field: part.fieldname, code: 'too_big', message: 'validation.tooBig' }],
            });
          fields[part.fieldname] = part.value;
        }
      }
      const given: Partial<FeedbackInput> = { ...fields };
      if (given.suggestion === '') delete given.suggestion;
      const parsed = feedbackInputSchema.safeParse(given);
      if (!parsed.success) {
        const fieldErrors: FieldError[] = parsed.error.issues.map((issue) => ({
          field: issue.path.map(String).join('.'),
          code: issue.code,
          message: issue.code === 'invalid_type' ? 'validation.required' : issue.message,
        }));
        throw new AppError('common.invalidParameter', { fieldErrors });
      }
      return { input: parsed.data, images };
    } catch (error) {
      await Promise.all(images.map((image) => storage.remove(image.key).catch(() => undefined)));
      throw error;
    }
  };
}
