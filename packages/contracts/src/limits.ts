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

export const DATE_FORMAT = 'dd/MM/yyyy';
export const TIME_FORMAT = 'HH:mm';
