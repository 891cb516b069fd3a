import { ERROR_CODES, medicalRecordSchema, pageOf, type ErrorCode, type MedicalRecordType } from '@rpm/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { profileHeaders } from '../../api/profile-store';
import { loadSession } from '../../api/session-store';
import { serverLanguage } from '../../i18n';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { recordsPath } from './format';

/** Every medical-records query, under the session root so that logging out (or a profile switch) clears them. */
export const RECORDS_KEY = [SESSION_QUERY_ROOT, 'medical-records'] as const;
export const RECORDS_PAGE_SIZE = 20;

const recordPageSchema = pageOf(medicalRecordSchema);

export interface RecordFilter {
  search: string;
  type: MedicalRecordType | '';
}

/** The profile's medical records, latest examination first, a page at a time (read only). */
export const recordsQuery = (filter: RecordFilter) =>
  infiniteQueryOptions({
    queryKey: [...RECORDS_KEY, 'list', filter.type, filter.search.trim()],
    queryFn: ({ pageParam }) => api.get(recordsPath(filter, pageParam, RECORDS_PAGE_SIZE), recordPageSchema),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });

async function fetchBytes(path: string): Promise<Response> {
  const headers: Record<string, string> = { 'Accept-Language': serverLanguage(), ...profileHeaders() };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.accessToken}`;
  try {
    return await fetch(path, { headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, undefined, undefined);
  }
}

async function failureOf(response: Response): Promise<ApiError> {
  let record: Record<string, unknown> = {};
  try {
    const json = JSON.parse(await response.text()) as unknown;
    if (typeof json === 'object' && json !== null) record = json as Record<string, unknown>;
  } catch {
    // Not an envelope: the status says enough.
  }
  const code =
    typeof record.code === 'string' && (ERROR_CODES as readonly string[]).includes(record.code)
      ? (record.code as ErrorCode)
      : undefined;
  return new ApiError(response.status, code, typeof record.message === 'string' ? record.message : undefined);
}

/**
 * An attachment's bytes, fetched with the session and the active profile like every other call.
 * An expired access token is renewed through the api client (a light JSON call renews it, or ends
 * the session the way every screen does) and the download tried once more.
 */
export async function fetchRecordFile(recordId: string, fileId: string): Promise<Blob> {
  const path = `/health/me/records/${encodeURIComponent(recordId)}/files/${encodeURIComponent(fileId)}`;
  let response = await fetchBytes(path);
  if (response.status === 401) {
    const failure = await failureOf(response);
    if (failure.code !== 'auth.sessionExpired') throw failure;
    // Renews the tokens (or ends the session and throws).
    await api.get('/account/user/get');
    response = await fetchBytes(path);
  }
  if (!response.ok) throw await failureOf(response);
  return response.blob();
}
