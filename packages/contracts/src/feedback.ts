import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { safeNote, safeText } from './text.js';

/**
 * Feedback (spec §3 Feedback; §1 "a message plus an optional image"; §5 files and feedback): a
 * person of the tenant — a patient in the app or staff in the console — tells customer care of an
 * error or an improvement, about the software, the hardware or the service, with up to
 * FEEDBACK_MAX_IMAGES images (png, jpeg, gif or webp recognised by content, at most 5 MB each,
 * never empty). Customer care works through the list by status and replies; a reply reaches the
 * sender in the notification centre.
 */
export const FEEDBACK_TYPES = ['ERROR', 'IMPROVE'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
export const FEEDBACK_CATEGORIES = ['SOFTWARE', 'HARDWARE', 'SERVICE'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
export const FEEDBACK_STATUSES = ['NEW', 'IN_PROGRESS', 'RESOLVED', 'CLOSED'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
/** Who sent it: a patient account (the app) or a staff account (the console). */
export const FEEDBACK_SENDER_KINDS = ['PATIENT', 'STAFF'] as const;
export type FeedbackSenderKind = (typeof FEEDBACK_SENDER_KINDS)[number];

/** Spec §5 and §9: review and feedback images at most 5 MB; png, jpeg, jpg, gif, webp. */
export const FEEDBACK_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const FEEDBACK_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** The file name endings a picker offers (the server decides by content, never by the name). */
export const FEEDBACK_IMAGE_ACCEPT = '.png,.jpg,.jpeg,.gif,.webp,image/png,image/jpeg,image/gif,image/webp';
export const FEEDBACK_MAX_IMAGES = 5;
export const FEEDBACK_DESCRIPTION_MAX = 2000;
export const FEEDBACK_SUGGESTION_MAX = 2000;
export const FEEDBACK_REPLY_MAX = 2000;

/**
 * The status workflow as data (server and console read the same table): NEW is taken up
 * (IN_PROGRESS) or settled at once; a resolved item may be reopened; CLOSED is final. A reply to a
 * NEW item takes it up. Anything else is feedback.invalidTransition (409).
 */
export const FEEDBACK_TRANSITIONS: Record<FeedbackStatus, readonly FeedbackStatus[]> = {
  NEW: ['IN_PROGRESS', 'RESOLVED', 'CLOSED'],
  IN_PROGRESS: ['RESOLVED', 'CLOSED'],
  RESOLVED: ['IN_PROGRESS', 'CLOSED'],
  CLOSED: [],
};
export function canMoveFeedback(from: FeedbackStatus, to: FeedbackStatus): boolean {
  return FEEDBACK_TRANSITIONS[from].includes(to);
}

/** The text fields of the multipart form (the images are its `images` file parts). */
export const feedbackInputSchema = z.object({
  type: z.enum(FEEDBACK_TYPES),
  category: z.enum(FEEDBACK_CATEGORIES),
  description: safeNote(FEEDBACK_DESCRIPTION_MAX).pipe(z.string().min(1)),
  suggestion: safeNote(FEEDBACK_SUGGESTION_MAX).optional(),
});
export type FeedbackInput = z.input<typeof feedbackInputSchema>;

export const feedbackImageSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  contentType: z.enum(FEEDBACK_IMAGE_TYPES),
  size: z.number().int(),
});
export type FeedbackImage = z.infer<typeof feedbackImageSchema>;

export const feedbackReplySchema = z.object({
  id: z.uuid(),
  body: z.string(),
  author: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
});
export type FeedbackReply = z.infer<typeof feedbackReplySchema>;

export const feedbackSchema = z.object({
  id: z.uuid(),
  type: z.enum(FEEDBACK_TYPES),
  category: z.enum(FEEDBACK_CATEGORIES),
  description: z.string(),
  suggestion: z.string().nullable(),
  status: z.enum(FEEDBACK_STATUSES),
  sender: z.object({ id: z.uuid(), fullName: z.string(), kind: z.enum(FEEDBACK_SENDER_KINDS) }),
  images: z.array(feedbackImageSchema),
  replies: z.array(feedbackReplySchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

export const FEEDBACK_SORT_FIELDS = ['created', 'updated', 'status'] as const;
/** The triage list: paged, searchable (description, suggestion, sender), filtered, sortable. */
export const feedbackListQuerySchema = pageQuerySchema.extend({
  search: safeText().max(80).optional().describe('Part of the description, the suggestion or the sender’s name'),
  status: z.enum(FEEDBACK_STATUSES).optional(),
  type: z.enum(FEEDBACK_TYPES).optional(),
  category: z.enum(FEEDBACK_CATEGORIES).optional(),
  senderKind: z.enum(FEEDBACK_SENDER_KINDS).optional(),
  sortField: z.enum(FEEDBACK_SORT_FIELDS).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type FeedbackListQuery = z.infer<typeof feedbackListQuerySchema>;
/** The sender's own list: paged, newest first. */
export const myFeedbackQuerySchema = pageQuerySchema;

export const feedbackStatusChangeSchema = z.object({ status: z.enum(FEEDBACK_STATUSES) });
export const feedbackReplyInputSchema = z.object({
  body: safeNote(FEEDBACK_REPLY_MAX).pipe(z.string().min(1)),
});
export type FeedbackReplyInput = z.input<typeof feedbackReplyInputSchema>;

/** What is wrong with a chosen image before it is sent (the server checks again, by content). */
export type FeedbackImageProblem = 'empty' | 'tooLarge' | 'unsupportedType';

/** The image type from a file's first 12 bytes (PNG, JPEG, GIF87a/89a, WebP), as the server reads it. */
export function detectFeedbackImageType(head: Uint8Array): (typeof FEEDBACK_IMAGE_TYPES)[number] | undefined {
  const startsWith = (bytes: number[], offset = 0) => bytes.every((byte, index) => head[offset + index] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** Checks a chosen file by its size and first bytes: null when it may be sent. */
export function feedbackImageProblem(size: number, head: Uint8Array): FeedbackImageProblem | null {
  if (size === 0) return 'empty';
  if (size > FEEDBACK_IMAGE_MAX_BYTES) return 'tooLarge';
  return detectFeedbackImageType(head) === undefined ? 'unsupportedType' : null;
}

/** Reads the first bytes of a browser File and checks it (both clients). */
export async function checkFeedbackImage(file: {
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}): Promise<FeedbackImageProblem | null> {
  if (file.size === 0) return 'empty';
  if (file.size > FEEDBACK_IMAGE_MAX_BYTES) return 'tooLarge';
  return feedbackImageProblem(file.size, new Uint8Array(await file.slice(0, 12).arrayBuffer()));
}
