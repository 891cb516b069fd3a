import {
  collectorResultSchema,
  ERROR_CODES,
  manualEntryBody,
  manualEntryResultSchema,
  ocrResultSchema,
  thresholdsViewSchema,
  unitSettingsSchema,
  type EntryValues,
  type ErrorCode,
  type OcrResult,
} from '@rpm/contracts';
import { api, ApiError } from '../../api/client';
import { loadSession } from '../../api/session-store';
import { serverLanguage } from '../../i18n';
import { profileHeaders } from '../../api/profile-store';

/** The calls of the entry screens: the patient's units and thresholds, saving, reading a photo. */

export const unitsQuery = () => ({
  queryKey: ['entry', 'units'],
  queryFn: async () => (await api.get('/account/me/unit-settings', unitSettingsSchema)).effective,
});

export const thresholdsQuery = () => ({
  queryKey: ['entry', 'thresholds'],
  queryFn: () => api.get('/collector/me/thresholds', thresholdsViewSchema),
});

export function saveManualEntry(entry: EntryValues) {
  return api.post('/health/manual', manualEntryBody(entry), manualEntryResultSchema);
}

/** Confirmed photo values as one batch of PHOTO_OCR readings (idempotent by its batch id). */
export function savePhotoEntries(batchId: string, entries: EntryValues[]) {
  const readings = entries.map((entry) => ({ ...manualEntryBody(entry), source: 'PHOTO_OCR' as const }));
  return api.post('/collector/readings', { batchId, readings }, collectorResultSchema);
}

/**
 * The photo to POST /collector/ocr as multipart (the API client speaks JSON only): the session's
 * token and the app's language, the answer's envelope read as the client reads it.
 */
export async function readPhoto(photo: Blob): Promise<OcrResult> {
  try {
    return await sendPhoto(photo);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired') throw error;
    // A cheap self read through the API client renews the tokens (or ends the session), then once more.
    await api.get('/collector/me/thresholds');
    return sendPhoto(photo);
  }
}

async function sendPhoto(photo: Blob): Promise<OcrResult> {
  const form = new FormData();
  form.append('image', photo, 'display');
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': serverLanguage(),
    ...profileHeaders(),
  };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.accessToken}`;
  let response: Response;
  try {
    response = await fetch('/collector/ocr', { method: 'POST', headers, body: form });
  } catch {
    throw new ApiError(0, undefined, undefined);
  }
  const record = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok && record.resultCode === 200) {
    const parsed = ocrResultSchema.safeParse(record.data);
    if (parsed.success) return parsed.data;
    throw new ApiError(200, undefined, undefined);
  }
  const code = typeof record.code === 'string' && (ERROR_CODES as readonly string[]).includes(record.code) ? (record.code as ErrorCode) : undefined;
  throw new ApiError(response.status, code, typeof record.message === 'string' ? record.message : undefined);
}
