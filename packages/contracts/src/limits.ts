/** Business constants and limits of spec §9. One place, shared by server, console and tests. */
export const LIMITS = {
  passwordMinLength: 8,
  passwordMaxLength: 32,
  phoneMinDigits: 3,
  phoneMaxDigits: 16,
  failedLoginsBeforeLock: 5,
  lockHours: 24,
  maxToasts: 6,
  scopeLevelMin: 1,
  scopeLevelMax: 5,
  tenantConnections: 3,
  importMaxBytes: 500 * 1024 * 1024,
  reviewImageMaxBytes: 5 * 1024 * 1024,
  profilePhotoMaxBytes: 1024 * 1024,
  minimumAgeYears: 18,
  sosCountdownSeconds: 5,
  highRiskConfirmationSeconds: 15,
  watchSyncMinutes: 15,
  followerInviteResendMinutes: 5,
  maxSpecialtiesPerDoctor: 5,
  maxFamilyDoctors: 1,
  accountDeletionDays: 30,
  maxEvents: 20,
} as const;

/**
 * Quotas on the emails and SMS that public calls (registration, one-time codes, forgot password,
 * trial requests) may cause, per fixed hour window: per client address, per destination (email
 * or phone) and per tenant. Every such call counts, whether or not a message is finally sent
 * (an unknown account counts like a known one). Over any of them the call answers 429
 * common.sendQuota with Retry-After (seconds to the end of the window) and sends nothing.
 */
export const SEND_QUOTAS = {
  windowSeconds: 3600,
  perClientAddress: 10,
  perDestination: 5,
  perTenant: 200,
} as const;

export const DATE_FORMAT = 'dd/MM/yyyy';
export const TIME_FORMAT = 'HH:mm';
