import {
  alertAnswerSchema,
  notificationPageSchema,
  notificationReadAnswerSchema,
  sosRaisedSchema,
  sosRecordingSchema,
  waitingAlertSchema,
  type AppSosRaise,
  type SosRecording,
} from '@rpm/contracts';
import { api, apiRequest, ApiError } from '../../api/client';
import { loadSession } from '../../api/session-store';
import { serverLanguage } from '../../i18n';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { profileHeaders } from '../../api/profile-store';

/** Query keys of this feature, under the session root (a logout clears them). */
export const ALERT_KEYS = {
  waiting: [SESSION_QUERY_ROOT, 'alerts', 'waiting'] as const,
  notifications: [SESSION_QUERY_ROOT, 'alerts', 'notifications'] as const,
};

export const waitingAlertQuery = () => ({
  queryKey: ALERT_KEYS.waiting,
  queryFn: () => api.get('/health/me/alerts/waiting', waitingAlertSchema),
});

export const notificationsQuery = (size: number) => ({
  queryKey: [...ALERT_KEYS.notifications, size] as const,
  queryFn: () => api.get(`/health/me/notifications?page=0&size=${String(size)}`, notificationPageSchema),
});

export const answerFine = () => api.post('/health/alerts/i-am-fine', undefined, alertAnswerSchema);
export const answerCallFollowers = () => api.post('/health/alerts/call-followers', undefined, alertAnswerSchema);
export const raiseSos = (body: AppSosRaise) => api.post('/health/alerts/sos', body, sosRaisedSchema);
export const markRead = (id: string) => api.post('/health/me/notifications/read', { id }, notificationReadAnswerSchema);
export const markAllRead = () => api.post('/health/me/notifications/read-all', undefined, notificationReadAnswerSchema);

async function sendRecording(form: FormData): Promise<Response> {
  const session = loadSession();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': serverLanguage(),
    ...profileHeaders(),
  };
  if (session) headers.Authorization = `Bearer ${session.accessToken}`;
  try {
    return await fetch('/health/me/sos/recordings', { method: 'POST', headers, body: form });
  } catch {
    throw new ApiError(0, undefined, undefined);
  }
}

/**
 * Uploads a voice recording for the SOS case (multipart: the fields, then the file). The client's
 * JSON calls cannot carry a file; an expired access token is renewed through a cheap JSON call
 * (which refreshes it) and the upload sent once more. A retry keeps the upload id: stored once.
 */
export async function uploadRecording(input: {
  sosCaseId: string;
  uploadId: string;
  durationSeconds: number;
  audio: Blob;
}): Promise<SosRecording> {
  const formOf = () => {
    const form = new FormData();
    form.append('sosCaseId', input.sosCaseId);
    form.append('uploadId', input.uploadId);
    form.append('durationSeconds', String(input.durationSeconds));
    const extension = input.audio.type.includes('ogg') ? 'ogg' : input.audio.type.includes('mp4') ? 'm4a' : 'webm';
    form.append('file', input.audio, `sos.${extension}`);
    return form;
  };
  let response = await sendRecording(formOf());
  if (response.status === 401) {
    await apiRequest('GET', '/health/me/alerts/waiting').catch(() => undefined);
    response = await sendRecording(formOf());
  }
  const json = (await response.json().catch(() => ({}))) as { resultCode?: number; data?: unknown; code?: string; message?: string };
  if (response.ok && json.resultCode === 200) {
    const parsed = sosRecordingSchema.safeParse(json.data);
    if (parsed.success) return parsed.data;
  }
  throw new ApiError(response.status, undefined, typeof json.message === 'string' ? json.message : undefined);
}
