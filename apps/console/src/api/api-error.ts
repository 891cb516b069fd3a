import { ERROR_CODES, type ErrorCode, type FieldError } from '@rpm/contracts';

/**
 * How the console reacts to a failed call (spec §7) depends only on this kind, so every screen
 * reacts the same way: the kind is decided once, here, from the HTTP status and the error code.
 */
export type ApiErrorKind =
  | 'network'
  | 'unauthorized'
  | 'loggedInElsewhere'
  | 'permissionDenied'
  | 'maintenance'
  | 'validation'
  | 'notFound'
  | 'server'
  | 'invalidResponse';

export interface ApiRequestInfo {
  method: string;
  path: string;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** The envelope's message, already in the language sent as Accept-Language. */
  readonly serverMessage: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  readonly requestId: string | undefined;
  readonly request: ApiRequestInfo;

  constructor(init: {
    kind: ApiErrorKind;
    status: number;
    request: ApiRequestInfo;
    code?: ErrorCode | undefined;
    serverMessage?: string | undefined;
    fieldErrors?: readonly FieldError[];
    requestId?: string | undefined;
    cause?: unknown;
  }) {
    super(`${init.request.method} ${init.request.path} failed: ${init.code ?? init.kind} (${init.status})`, {
      cause: init.cause,
    });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.fieldErrors = init.fieldErrors ?? [];
    this.requestId = init.requestId;
    this.request = init.request;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Decides the kind from the status first; the code only splits the two kinds of 403. */
export function classifyFailure(status: number, code: ErrorCode | undefined): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return code === 'auth.loggedInElsewhere' ? 'loggedInElsewhere' : 'permissionDenied';
  if (status === 502) return 'maintenance';
  if (status === 404) return 'notFound';
  if (status >= 400 && status < 500) return 'validation';
  return 'server';
}

interface ParsedErrorBody {
  code: ErrorCode | undefined;
  message: string | undefined;
  fieldErrors: FieldError[];
  requestId: string | undefined;
}

function parseErrorBody(body: unknown): ParsedErrorBody {
  if (typeof body !== 'object' || body === null) {
    return { code: undefined, message: undefined, fieldErrors: [], requestId: undefined };
  }
  const record = body as Record<string, unknown>;
  const fieldErrors = Array.isArray(record.fieldErrors)
    ? record.fieldErrors.filter(
        (item): item is FieldError =>
          typeof item === 'object' &&
          item !== null &&
          typeof (item as Record<string, unknown>).field === 'string' &&
          typeof (item as Record<string, unknown>).message === 'string',
      )
    : [];
  return {
    code: isErrorCode(record.code) ? record.code : undefined,
    message: typeof record.message === 'string' && record.message.trim() !== '' ? record.message : undefined,
    fieldErrors,
    requestId: typeof record.requestId === 'string' ? record.requestId : undefined,
  };
}

async function readJson(response: Response): Promise<unknown> {
  // A proxy's 502 page is HTML, not JSON; that must not hide the status behind a parse error.
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads an envelope answer: returns `data` on success, throws an {@link ApiError} otherwise.
 * Success needs both a 2xx status and `resultCode: 200`, as the envelope contract says.
 */
export async function readEnvelope(response: Response, request: ApiRequestInfo): Promise<unknown> {
  const body = await readJson(response);
  if (response.ok) {
    if (typeof body === 'object' && body !== null && (body as Record<string, unknown>).resultCode === 200) {
      return (body as Record<string, unknown>).data;
    }
    // A 2xx without a success envelope: either a failure envelope (resultCode 500) or not our API.
    const parsed = parseErrorBody(body);
    throw new ApiError({
      kind: parsed.code ? 'server' : 'invalidResponse',
      status: response.status,
      request,
      code: parsed.code,
      serverMessage: parsed.message,
      requestId: parsed.requestId,
    });
  }
  const parsed = parseErrorBody(body);
  throw new ApiError({
    kind: classifyFailure(response.status, parsed.code),
    status: response.status,
    request,
    code: parsed.code,
    serverMessage: parsed.message,
    fieldErrors: parsed.fieldErrors,
    requestId: parsed.requestId,
  });
}

/** The failure a thrown `fetch` becomes: the server was never reached. */
export function networkError(request: ApiRequestInfo, cause: unknown): ApiError {
  return new ApiError({ kind: 'network', status: 0, request, cause });
}
