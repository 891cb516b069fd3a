import { z } from 'zod';
import { ERROR_CODES } from './errors.js';

/**
 * Every response carries a result code, as the product's API has always done:
 * 200 for success, 500 for failure (spec §7). The HTTP status says *how* it failed.
 */
export const RESULT_CODE = { success: 200, failure: 500 } as const;

export const errorCodeSchema = z.enum(ERROR_CODES);

export const fieldErrorSchema = z.object({
  field: z.string().describe('Dotted path of the offending field, e.g. "body.phone"'),
  code: z.string().describe('Validation code, e.g. "too_small"'),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorEnvelopeSchema = z.object({
  resultCode: z.literal(RESULT_CODE.failure),
  code: errorCodeSchema,
  message: z.string().describe('Message in the caller’s language'),
  fieldErrors: z.array(fieldErrorSchema).optional(),
  requestId: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Wraps a payload schema in the success envelope. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ resultCode: z.literal(RESULT_CODE.success), data });
}
export interface SuccessEnvelope<T> {
  resultCode: typeof RESULT_CODE.success;
  data: T;
}

/** Page request shared by every list call: page is 0-based as in the spec's calls. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
});
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
  });
}
