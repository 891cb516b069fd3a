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
  /** Only doctor accounts may use the doctor app. */
  'auth.doctorOnly': 403,
  /** Too many failed logins from one address: wait, then try again. */
  'auth.throttled': 429,
  /** The session ended because the user's role or permissions changed: log in again. */
  'auth.permissionChanged': 401,
  /** The refresh token is unknown, expired, or was already used (which ends the session). */
  'auth.refreshInvalid': 401,
  /** Login: the tenant code matches no active tenant. */
  'tenant.notFound': 400,
  'otp.wrong': 400,
  'otp.expired': 400,
  'otp.tooManyAttempts': 400,
  'otp.resendTooSoon': 429,
  'otp.unverifiable': 400,
  'password.tooWeak': 400,
  'password.invalidCharacters': 400,
  'password.common': 400,
  'password.sameAsOld': 400,
  'password.wrongCurrent': 400,
  'password.noContact': 400,
  'account.notFound': 404,
  'account.emailExists': 409,
  'account.phoneExists': 409,
  'account.underage': 400,
  'account.termsRequired': 400,
  'account.timeZoneUnsupported': 400,
  'account.languageUnsupported': 400,
  'account.registrationFailed': 400,
  'account.superAdminPasswordForbidden': 403,
  'role.exists': 409,
  'role.notFound': 404,
  'role.required': 400,
  'role.inUse': 409,
  /** A role may only grant permissions its author holds. */
  'role.cannotGrant': 403,
  'file.tooLarge': 413,
  'file.unsupportedType': 415,
  'file.missing': 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export function statusOfError(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
