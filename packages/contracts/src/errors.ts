/**
 * Error codes the API answers with. Each maps to an HTTP status here and to a message in every
 * language in @rpm/i18n (locales/<lang>/errors.json). The console shows the message for the code;
 * it never parses English text.
 */
export const ERROR_STATUS = {
  'common.default': 500,
  'common.notFound': 404,
  'common.routeNotFound': 404,
  'common.invalidParameter': 400,
  'common.invalidPaging': 400,
  'common.payloadTooLarge': 413,
  'common.unsupportedMediaType': 415,
  'common.tooManyRequests': 429,
  'common.maintenance': 502,
  'common.unavailable': 503,
  'auth.unauthorized': 401,
  'auth.sessionExpired': 401,
  /** The session was ended by a login elsewhere: the console ends its session (spec §7). */
  'auth.loggedInElsewhere': 403,
  /** Authenticated but not allowed: the console shows the message and keeps the session. */
  'auth.permissionDenied': 403,
  /** Login: unknown user or wrong password, worded the same so accounts cannot be probed. */
  'auth.wrongCredentials': 400,
  'auth.accountLocked': 400,
  'auth.accountDisabled': 400,
  /** Login: the tenant code matches no active tenant. */
  'tenant.notFound': 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export function statusOfError(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
