import { ERROR_CODES, type ErrorCode } from '@rpm/contracts';
import { serverLanguage } from '../i18n';
import { profileHeaders } from './profile-store';
import { clearSession, loadSession, replaceSession } from './session-store';

/** A failed call: the envelope's code and message (already in the app's language), or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | undefined,
    readonly serverMessage: string | undefined,
  ) {
    super(`API call failed: ${code ?? String(status)}`);
    this.name = 'ApiError';
  }
}

export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown };
}

type SessionEndListener = (reason: 'loggedInElsewhere' | 'expired') => void;
const sessionEndListeners = new Set<SessionEndListener>();

/** Told when the server ends the session (another login elsewhere, or the session ran out). */
export function onSessionEnd(listener: SessionEndListener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `ownRecord`: the call is about the account's own record whatever profile is active (a watch's readings). */
export interface RequestOptions {
  ownRecord?: boolean;
}

async function send(method: Method, path: string, body: unknown, options: RequestOptions = {}): Promise<unknown> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': serverLanguage(),
    ...(options.ownRecord === true ? {} : profileHeaders()),
  };
  const session = loadSession();
  if (session) headers.Authorization = `Bearer ${session.accessToken}`;
  // A form (an upload) goes as multipart: the browser writes the Content-Type with its boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? null : isForm ? body : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, undefined, undefined);
  }
  let json: unknown;
  try {
    json = JSON.parse(await response.text()) as unknown;
  } catch {
    json = undefined;
  }
  const record = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  if (response.ok && record.resultCode === 200) return record.data;
  const code = typeof record.code === 'string' && (ERROR_CODES as readonly string[]).includes(record.code)
    ? (record.code as ErrorCode)
    : undefined;
  throw new ApiError(response.status, code, typeof record.message === 'string' ? record.message : undefined);
}

let refreshing: Promise<boolean> | undefined;

/** Renews the tokens once for however many calls found the access token expired together. */
function refresh(): Promise<boolean> {
  const session = loadSession();
  if (!session) return Promise.resolve(false);
  refreshing ??= send('POST', '/auth/refresh-token', { refresh_token: session.refreshToken })
    .then((data) => {
      const tokens = data as { accessToken?: string; refreshToken?: string };
      if (!tokens.accessToken || !tokens.refreshToken) return false;
      replaceSession({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

const NO_REFRESH = new Set(['/auth/refresh-token', '/auth/oauth-token', '/auth/logout']);

/** The one way the app calls the API: bearer token, the app's language, the contract's schema. */
export async function apiRequest<T>(
  method: Method,
  path: string,
  body?: unknown,
  schema?: ResponseSchema<T>,
  options: RequestOptions = {},
): Promise<T> {
  let data: unknown;
  try {
    data = await send(method, path, body, options);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'auth.loggedInElsewhere') {
      clearSession();
      for (const listener of sessionEndListeners) listener('loggedInElsewhere');
      throw error;
    }
    if (error.code !== 'auth.sessionExpired' || NO_REFRESH.has(path)) throw error;
    if (!(await refresh())) {
      clearSession();
      for (const listener of sessionEndListeners) listener('expired');
      throw error;
    }
    data = await send(method, path, body, options);
  }
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(200, undefined, undefined);
  return parsed.data;
}

export const api = {
  get: <T>(path: string, schema?: ResponseSchema<T>) => apiRequest<T>('GET', path, undefined, schema),
  post: <T>(path: string, body: unknown, schema?: ResponseSchema<T>) => apiRequest<T>('POST', path, body, schema),
  put: <T>(path: string, body: unknown, schema?: ResponseSchema<T>) => apiRequest<T>('PUT', path, body, schema),
  delete: <T>(path: string, schema?: ResponseSchema<T>) => apiRequest<T>('DELETE', path, undefined, schema),
};
