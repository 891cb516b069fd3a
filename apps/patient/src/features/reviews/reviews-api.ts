import {
  ERROR_CODES,
  myReviewSchema,
  pageOf,
  publicReviewPageSchema,
  type ErrorCode,
  type MyReview,
} from '@rpm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { profileHeaders } from '../../api/profile-store';
import { loadSession } from '../../api/session-store';
import { serverLanguage } from '../../i18n';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every reviews query, under the session root so that logging out clears them. */
export const REVIEWS_KEY = [SESSION_QUERY_ROOT, 'reviews'] as const;
const enc = encodeURIComponent;
const myReviewPageSchema = pageOf(myReviewSchema);

/** A doctor's visible reviews and rating (the author's initial only), newest first. */
export const doctorReviewsQuery = (doctorId: string) =>
  queryOptions({
    queryKey: [...REVIEWS_KEY, 'doctor', doctorId],
    queryFn: () => api.get(`/health/me/doctors/${enc(doctorId)}/reviews?size=10`, publicReviewPageSchema),
  });

/** The profile's own reviews (to show and edit the one of a doctor or an appointment). */
export const myReviewsQuery = () =>
  queryOptions({
    queryKey: [...REVIEWS_KEY, 'mine'],
    queryFn: () => api.get('/health/me/reviews?size=200', myReviewPageSchema),
  });

export type ReviewSubjectPath = { doctorId: string } | { appointmentId: string };

export interface ReviewSubmission {
  rating: number;
  message: string;
  images: File[];
}

const pathOf = (subject: ReviewSubjectPath) =>
  'doctorId' in subject ? `/health/me/doctors/${enc(subject.doctorId)}/review` : `/health/me/appointments/${enc(subject.appointmentId)}/review`;

/**
 * Sends the review as multipart (the API client speaks JSON only): the session's token, the
 * profile and the app's language; a session that expired meanwhile is renewed once.
 */
export async function submitReview(subject: ReviewSubjectPath, submission: ReviewSubmission): Promise<MyReview> {
  try {
    return await sendReview(subject, submission);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired') throw error;
    // A cheap self read through the API client renews the tokens (or ends the session), then once more.
    await api.get('/health/me/reviews?size=1');
    return sendReview(subject, submission);
  }
}

async function sendReview(subject: ReviewSubjectPath, submission: ReviewSubmission): Promise<MyReview> {
  const form = new FormData();
  form.append('rating', String(submission.rating));
  form.append('message', submission.message);
  for (const image of submission.images) form.append('images', image, image.name);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': serverLanguage(),
    ...profileHeaders(),
  };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.accessToken}`;
  let response: Response;
  try {
    response = await fetch(pathOf(subject), { method: 'PUT', headers, body: form });
  } catch {
    throw new ApiError(0, undefined, undefined);
  }
  const record = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok && record.resultCode === 200) {
    const parsed = myReviewSchema.safeParse(record.data);
    if (parsed.success) return parsed.data;
    throw new ApiError(200, undefined, undefined);
  }
  const code = typeof record.code === 'string' && (ERROR_CODES as readonly string[]).includes(record.code) ? (record.code as ErrorCode) : undefined;
  throw new ApiError(response.status, code, typeof record.message === 'string' ? record.message : undefined);
}
