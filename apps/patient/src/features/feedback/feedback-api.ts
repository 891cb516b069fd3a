import { feedbackSchema, pageOf, type FeedbackInput } from '@rpm/contracts';
import { api, ApiError, apiRequest } from '../../api/client';
import { loadSession } from '../../api/session-store';
import { serverLanguage } from '../../i18n';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { ACCOUNT_CALL } from '../notifications/notifications-api';

/** The account's feedback, under the session root so that logging out clears it. */
export const FEEDBACK_KEY = [SESSION_QUERY_ROOT, 'feedback'] as const;
export const FEEDBACK_PAGE_SIZE = 20;
const feedbackPageSchema = pageOf(feedbackSchema);

/** What the account sent, newest first, with customer care's replies (the account's own, whatever profile is active). */
export const myFeedbackQuery = () => ({
  queryKey: [...FEEDBACK_KEY, 'mine'],
  queryFn: () => apiRequest('GET', `/health/me/feedback?page=0&size=${String(FEEDBACK_PAGE_SIZE)}`, undefined, feedbackPageSchema, ACCOUNT_CALL),
});

/** Sends the form as multipart: the fields and each image as a part `images`. */
export function sendFeedback(input: FeedbackInput, images: readonly File[]) {
  const form = new FormData();
  form.set('type', input.type);
  form.set('category', input.category);
  form.set('description', input.description);
  if (input.suggestion !== undefined && input.suggestion.trim() !== '') form.set('suggestion', input.suggestion);
  for (const image of images) form.append('images', image, image.name);
  return apiRequest('POST', '/health/me/feedback', form, feedbackSchema, ACCOUNT_CALL);
}

/** An image of the account's own feedback, fetched with the session (the app sends a bearer token, not a cookie). */
export async function fetchFeedbackImage(feedbackId: string, imageId: string): Promise<Blob> {
  const path = `/health/me/feedback/${encodeURIComponent(feedbackId)}/images/${encodeURIComponent(imageId)}`;
  const fetchOnce = () => {
    const headers: Record<string, string> = { 'Accept-Language': serverLanguage() };
    const session = loadSession();
    if (session) headers.Authorization = `Bearer ${session.accessToken}`;
    return fetch(path, { headers, cache: 'no-store' });
  };
  let response = await fetchOnce().catch(() => null);
  if (response?.status === 401) {
    // Renews the tokens (or ends the session and throws), then tries once more.
    await api.get('/account/user/get');
    response = await fetchOnce().catch(() => null);
  }
  if (response === null) throw new ApiError(0, undefined, undefined);
  if (!response.ok) throw new ApiError(response.status, undefined, undefined);
  return response.blob();
}
