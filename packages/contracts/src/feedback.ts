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
