import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
import { safeNote, safeText } from './text.js';

/**
 * Ratings and reviews (spec §1, §2 rating and review management, §3 Review: rating 1 to 5 stars,
 * report message; §5 review images at most 5 MB, png, jpeg, gif or webp). A patient rates a doctor
 * it has a care relationship with, or one of its completed appointments; one review per patient
 * and subject, a new submission replaces it. Admins report and hide abusive reviews; a hidden
 * review counts in no average.
 */
export const REVIEW_MIN_RATING = 1;
export const REVIEW_MAX_RATING = 5;
/** Spec §5: a review image is at most 5 MB. */
export const REVIEW_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Spec §5 / §9 image types, recognised by content (jpg is jpeg). */
export const REVIEW_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Images one review holds at most. */
export const REVIEW_MAX_IMAGES = 3;
export const REVIEW_MESSAGE_MAX = 1000;

export const REVIEW_SUBJECTS = ['DOCTOR', 'APPOINTMENT'] as const;
export type ReviewSubject = (typeof REVIEW_SUBJECTS)[number];

/** VISIBLE: counted and shown; REPORTED: flagged by an admin, still shown; HIDDEN: neither. */
export const REVIEW_STATES = ['VISIBLE', 'REPORTED', 'HIDDEN'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_ACTIONS = ['report', 'hide', 'unhide'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/**
 * The moderation state machine as data: which action each state allows and where it leads. Every
 * action needs a reason (the report message, or why it was hidden or shown again). Any other
 * action is review.wrongState (409).
 */
export const REVIEW_TRANSITIONS: Record<ReviewState, Partial<Record<ReviewAction, ReviewState>>> = {
  VISIBLE: { report: 'REPORTED', hide: 'HIDDEN' },
  REPORTED: { report: 'REPORTED', hide: 'HIDDEN' },
  HIDDEN: { unhide: 'VISIBLE' },
};

export function nextReviewState(state: ReviewState, action: ReviewAction): ReviewState | undefined {
  return REVIEW_TRANSITIONS[state][action];
}

/** The text fields of a review (multipart form fields; the images are file parts `images`). */
export const reviewFieldsSchema = z.object({
  rating: z.coerce.number().int().min(REVIEW_MIN_RATING).max(REVIEW_MAX_RATING),
  message: safeNote(REVIEW_MESSAGE_MAX).optional(),
});
export type ReviewFields = z.input<typeof reviewFieldsSchema>;

export const reviewImageSchema = z.object({
  id: z.uuid(),
  contentType: z.string(),
  size: z.number().int(),
});
export type ReviewImage = z.infer<typeof reviewImageSchema>;

const reviewBase = {
  id: z.uuid(),
  subject: z.enum(REVIEW_SUBJECTS),
  doctorId: z.uuid(),
  appointmentId: z.uuid().nullable(),
  rating: z.number().int(),
  message: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** The author's own review in the app: everything but the moderation notes. */
export const myReviewSchema = z.object({
  ...reviewBase,
  doctorName: z.string(),
  appointmentStartsAt: z.string().nullable(),
  images: z.array(reviewImageSchema),
  isHidden: z.boolean(),
});
export type MyReview = z.infer<typeof myReviewSchema>;

/**
 * A review as other patients (and the doctor's profile) see it: no patient identity beyond the
 * first letter of the author's name, no images.
 */
export const publicReviewSchema = z.object({
  id: z.uuid(),
  rating: z.number().int(),
  message: z.string(),
  authorInitial: z.string(),
  subject: z.enum(REVIEW_SUBJECTS),
  createdAt: z.string(),
});
export type PublicReview = z.infer<typeof publicReviewSchema>;

export const doctorRatingSchema = z.object({
  ratingAverage: z.number(),
  ratingCount: z.number().int(),
});

export const publicReviewPageSchema = z.object({
  items: z.array(publicReviewSchema),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  ratingAverage: z.number(),
  ratingCount: z.number().int(),
});
export type PublicReviewPage = z.infer<typeof publicReviewPageSchema>;

/** A review in the management screen: author, doctor, images and the moderation trail. */
export const reviewSchema = z.object({
  ...reviewBase,
  state: z.enum(REVIEW_STATES),
  patient: z.object({ id: z.uuid(), fullName: z.string() }),
  doctor: z.object({ id: z.uuid(), fullName: z.string() }),
  appointmentStartsAt: z.string().nullable(),
  images: z.array(reviewImageSchema),
  reportMessage: z.string().nullable(),
  reportedAt: z.string().nullable(),
  reportedBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
  hiddenReason: z.string().nullable(),
  hiddenAt: z.string().nullable(),
  hiddenBy: z.object({ id: z.uuid(), fullName: z.string() }).nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

export const REVIEW_SORT_FIELDS = ['created', 'rating', 'doctor'] as const;
export const reviewListQuerySchema = pageQuerySchema.extend({
  search: safeText().max(80).optional().describe('Part of the message, the patient’s or the doctor’s name'),
  rating: z.coerce.number().int().min(REVIEW_MIN_RATING).max(REVIEW_MAX_RATING).optional(),
  state: z.enum(REVIEW_STATES).optional(),
  doctorId: z.uuid().optional(),
  sortField: z.enum(REVIEW_SORT_FIELDS).default('created'),
  sortType: z.enum(['asc', 'desc']).default('desc'),
});
export type ReviewListQuery = z.infer<typeof reviewListQuerySchema>;

export const publicReviewListQuerySchema = pageQuerySchema;
export type PublicReviewListQuery = z.infer<typeof publicReviewListQuerySchema>;

export const reviewModerationSchema = z.object({
  action: z.enum(REVIEW_ACTIONS),
  reason: safeNote(500).min(1),
});
export type ReviewModeration = z.input<typeof reviewModerationSchema>;
