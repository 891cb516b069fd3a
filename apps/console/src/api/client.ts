import { currentLanguage, hasErrorMessage, loadErrorMessages } from '../i18n';
import { ApiError, networkError, readEnvelope, type ApiRequestInfo } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The part of a zod schema the client needs; the schemas themselves come from @rpm/contracts. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/**
 * A schema fetched with the call rather than before the page: the login page's calls name theirs
 * this way, so the page loads no schema library until it talks to the server.
 */
export type LazyResponseSchema<T> = () => Promise<ResponseSchema<T>>;

export interface RequestOptions<T> {
  /** Validates `data` with the contract's schema, so a drifted server fails loudly here, not deep in a screen. */
  schema?: ResponseSchema<T> | LazyResponseSchema<T>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/**
 * The one way the console calls its API: same-origin cookie session, the UI language as
 * Accept-Language (so envelope messages come back localised), and every failure turned into an
 * {@link ApiError} whose kind drives the reactions of spec §7.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  try {
    return await sendOnce(method, path, options);
  } catch (error) {
    // The access token lives 15 minutes; the refresh cookie renews it. Only when that fails
    // does the session end (the original 401 then reaches the §7 reactions).
    if (!(error instanceof ApiError) || error.code !== 'auth.sessionExpired' || SESSION_PATHS.has(path))
      throw error;
    if (!(await refreshSession())) throw error;
    return sendOnce(method, path, options);
  }
}

/** Calls that must never trigger a refresh themselves. */
const SESSION_PATHS = new Set(['/auth/refresh-token', '/auth/oauth-token', '/auth/logout']);
let refreshing: Promise<boolean> | undefined;

/**
 * Renews the session cookies once for however many calls found the access token expired at the
 * same moment (a refresh token works only once; a second use would end the session).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch('/auth/refresh-token', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Accept-Language': currentLanguage() },
    credentials: 'same-origin',
  })
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

async function sendOnce<T>(method: HttpMethod, path: string, options: RequestOptions<T>): Promise<T> {
  const request: ApiRequestInfo = { method, path };
  // A lazy schema loads while the request travels.
  const schemaLoad = typeof options.schema === 'function' ? options.schema() : undefined;
  // Reported when (and if) the answer is read; a failed load then is a failed call like any other.
  schemaLoad?.catch(() => undefined);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
  };
  const hasBody = options.body !== undefined;
  // Uploads go as multipart: the browser writes the Content-Type with its boundary itself.
  const isForm = options.body instanceof FormData;
  if (hasBody && !isForm) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: isForm ? (options.body as FormData) : hasBody ? JSON.stringify(options.body) : null,
      signal: options.signal ?? null,
    });
  } catch (error) {
    // A cancelled query is not a failure to report; let TanStack Query see the abort as is.
    if (options.signal?.aborted) throw error;
    throw networkError(request, error);
  }

  const data = await readEnvelopeWithMessages(response, request);
  if (!options.schema) return data as T;
  let schema: ResponseSchema<T>;
  try {
    schema = schemaLoad ? await schemaLoad : (options.schema as ResponseSchema<T>);
  } catch (error) {
    // The schema's code could not be fetched (the network dropped, a deploy replaced the file).
    throw networkError(request, error);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({ kind: 'invalidResponse', status: response.status, request, cause: parsed.error });
  }
  return parsed.data;
}

/**
 * readEnvelope, and when the failure carries a code whose message is not loaded yet (the startup
 * load holds only the first screens' error messages, i18n.ts), every error code's message is
 * fetched first, so whatever shows the failure (a toast, a dialog, a form) finds its message.
 */
async function readEnvelopeWithMessages(response: Response, request: ApiRequestInfo): Promise<unknown> {
  try {
    return await readEnvelope(response, request);
  } catch (error) {
    if (error instanceof ApiError && error.code !== undefined && !hasErrorMessage(error.code))
      await loadErrorMessages().catch(() => undefined);
    throw error;
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body: unknown, options?: Omit<RequestOptions<T>, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body: unknown, options?: Omit<RequestOptions<T>, 'body'>) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) =>
    apiRequest<T>('DELETE', path, options),
};
