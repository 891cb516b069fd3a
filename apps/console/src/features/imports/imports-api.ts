import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  ACTIVE_IMPORT_STATUSES,
  importJobSchema,
  pageOf,
  type ImportJob,
  type ImportKindCode,
} from '@rpm/contracts';
import { api, refreshSession, type ResponseSchema } from '../../api/client';
import { ApiError, networkError, readEnvelope } from '../../api/api-error';
import { currentLanguage } from '../../i18n';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

export const IMPORTS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'imports'] as const;

export type ImportSortField = 'created' | 'fileName' | 'status';
export interface ImportFilter {
  page: number;
  size: number;
  search: string;
  sortField: ImportSortField;
  sortType: 'asc' | 'desc';
  kind: ImportKindCode;
}

const importPageSchema = pageOf(importJobSchema);

export const isActiveImport = (job: ImportJob | null | undefined): boolean =>
  job !== null && job !== undefined && ACTIVE_IMPORT_STATUSES.includes(job.status);

export const importHistoryQuery = (filter: ImportFilter) =>
  queryOptions({
    queryKey: [...IMPORTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        page: String(filter.page),
        size: String(filter.size),
        sortField: filter.sortField,
        sortType: filter.sortType,
        kind: filter.kind,
      });
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      return api.get(`/account/imports?${query.toString()}`, { schema: importPageSchema, signal });
    },
    // A listed job that is still running changes: the list follows it until it ends.
    refetchInterval: (query) => (query.state.data?.items.some(isActiveImport) === true ? 1000 : false),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

/**
 * The running import of a kind, else the caller's latest: what the page shows, also after a
 * reload. Polled every second while the job is queued or running.
 */
export const currentImportQuery = (kind: ImportKindCode) =>
  queryOptions({
    queryKey: [...IMPORTS_QUERY_ROOT, 'current', kind],
    queryFn: ({ signal }) =>
      api.get(`/account/imports/current?kind=${kind}`, { schema: importJobSchema.nullable(), signal }),
    refetchInterval: (query) => (isActiveImport(query.state.data) ? 1000 : false),
    meta: { errorDisplay: 'inline' },
  });

export const templatePath = (kind: ImportKindCode) => `/account/imports/templates/${kind}`;
export const errorFilePath = (jobId: string) => `/account/imports/${encodeURIComponent(jobId)}/error-file`;

/** Chosen with a patient upload: the health center of rows that name none (else they are refused). */
export interface ImportUploadOptions {
  defaultHealthCenterId: string | null;
}

function sendUpload<T>(
  path: string,
  file: File,
  schema: ResponseSchema<T>,
  onProgress: (fraction: number) => void,
  signal: AbortSignal | undefined,
): Promise<T> {
  const request = { method: 'POST', path };
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => {
      reject(networkError(request, new Error('upload failed')));
    };
    xhr.onabort = () => {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.onload = () => {
      // The envelope is read exactly as the fetch-based client reads it.
      const response = new Response(xhr.responseText, { status: xhr.status });
      readEnvelope(response, request).then((data) => {
        const parsed = schema.safeParse(data);
        if (parsed.success) resolve(parsed.data);
        else
          reject(new ApiError({ kind: 'invalidResponse', status: xhr.status, request, cause: parsed.error }));
      }, reject);
    };
    signal?.addEventListener('abort', () => {
      xhr.abort();
    });
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}

/**
 * Uploads one file as the multipart field `file` with XMLHttpRequest (fetch reports no upload
 * progress), with the same cookie session and language as every other call, and checks the
 * answer with the contract's schema. An expired access token is renewed once, then the upload is
 * sent again.
 */
export async function uploadWithProgress<T>(
  path: string,
  file: File,
  schema: ResponseSchema<T>,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await sendUpload(path, file, schema, onProgress, signal);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired' || !(await refreshSession()))
      throw error;
    onProgress(0);
    return sendUpload(path, file, schema, onProgress, signal);
  }
}

/** Uploads an import's spreadsheet (see uploadWithProgress). */
export function uploadImport(
  kind: ImportKindCode,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  options: ImportUploadOptions = { defaultHealthCenterId: null },
): Promise<ImportJob> {
  const query =
    options.defaultHealthCenterId === null
      ? ''
      : `?${new URLSearchParams({ defaultHealthCenterId: options.defaultHealthCenterId }).toString()}`;
  return uploadWithProgress(`/account/imports/${kind}${query}`, file, importJobSchema, onProgress, signal);
}

/** The file name the answer gives (Content-Disposition), else the fallback. */
export function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded !== undefined) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return fallback;
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

async function fetchFile(path: string, body: unknown): Promise<Response> {
  const request = { method: body === undefined ? 'GET' : 'POST', path };
  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method,
      credentials: 'same-origin',
      headers: {
        'Accept-Language': currentLanguage(),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (error) {
    throw networkError(request, error);
  }
  if (!response.ok) await readEnvelope(response, request);
  return response;
}

/**
 * Fetches a file of the API with the session's cookies, renewing the session once if the access
 * token has expired. Failures throw the API's error.
 */
async function fetchFileWithSession(path: string, body?: unknown): Promise<Response> {
  try {
    return await fetchFile(path, body);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired' || !(await refreshSession()))
      throw error;
    return fetchFile(path, body);
  }
}

/** A file of the API as a Blob (typed by the answer's Content-Type), e.g. to show it in the page. */
export async function fetchFileBlob(path: string): Promise<Blob> {
  const response = await fetchFileWithSession(path);
  return response.blob();
}

/**
 * Downloads a file of the API (a template, an error file) as the browser's download, with the
 * session renewed once if the access token has expired. With a body, the file is asked for by a
 * POST of that JSON (an export described by a form). Failures throw the API's error.
 */
export async function downloadFile(path: string, fallbackName: string, body?: unknown): Promise<void> {
  const response = await fetchFileWithSession(path, body);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}
