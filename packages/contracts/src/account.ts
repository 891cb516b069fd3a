import { z } from 'zod';
import { CLIENT_APPS, emailSchema, otpSentResponseSchema, phoneSchema, tenantCodeSchema } from './auth.js';
import { LIMITS } from './limits.js';
import { PERMISSIONS, type Permission } from './permissions.js';
import { ROLE_CODES } from './roles.js';
import { safeName, safeText } from './text.js';

export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;
export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export const ACCOUNT_STATUSES = ['ACTIVE', 'DISABLED', 'UNACTIVATED', 'LOCKED', 'DELETED'] as const;

/** Names may not contain digits (spec §5), nor invisible or text-direction characters; stored NFC. */
export const personNameSchema = safeName(60).regex(/^[^\d]*$/, { error: 'must not contain digits' });
const optionalName = safeText().max(60).regex(/^[^\d]*$/, { error: 'must not contain digits' });

/** ISO date (yyyy-MM-dd) not in the future. */
export const pastDateSchema = z.iso.date().refine((value) => value <= new Date().toISOString().slice(0, 10), {
  error: 'must not be in the future',
});

export function ageInYears(birthday: string, today = new Date()): number {
  const [year = 0, month = 1, day = 1] = birthday.split('-').map(Number);
  let age = today.getUTCFullYear() - year;
  if (today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day)) age--;
  return age;
}
export const adultBirthdaySchema = pastDateSchema.refine((value) => ageInYears(value) >= LIMITS.minimumAgeYears, {
  error: 'must be at least 18 years ago',
});

const IANA_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){1,2}$/;

/**
 * An IANA time zone the runtime knows, by its canonical name or an alias (Intl lists
 * Asia/Saigon and Asia/Calcutta but knows Asia/Ho_Chi_Minh and Asia/Kolkata), or UTC. Offsets
 * ("+07:00") and abbreviations are not zones.
 */
export function isSupportedTimeZone(timeZone: string): boolean {
  if (timeZone === 'UTC') return true;
  if (!IANA_ZONE_NAME.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

export const profileSchema = z.object({
  id: z.uuid(),
  role: z.enum(ROLE_CODES),
  customRole: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  nickName: z.string(),
  gender: z.enum(GENDERS).nullable(),
  birthday: z.string().nullable(),
  bloodType: z.enum(BLOOD_TYPES).nullable(),
  skinColor: z.string(),
  heightCm: z.number().nullable(),
  weightKg: z.number().nullable(),
  address: z.object({ country: z.string(), province: z.string(), district: z.string(), ward: z.string(), line: z.string() }),
  medicalNotes: z.string(),
  hasAvatar: z.boolean(),
  language: z.string(),
  timeZone: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

/** PUT /account/me/profile. Email and phone change through verification, not here. */
export const profileUpdateSchema = z.object({
  firstName: personNameSchema,
  middleName: optionalName.default(''),
  lastName: personNameSchema,
  nickName: safeText().max(60).default(''),
  gender: z.enum(GENDERS),
  birthday: adultBirthdaySchema,
  bloodType: z.enum(BLOOD_TYPES).nullable().default(null),
  skinColor: z.string().trim().max(40).default(''),
  heightCm: z.number().gt(0).lt(300).nullable().default(null),
  weightKg: z.number().gt(1).lt(700).nullable().default(null),
  address: z.object({
    country: z.string().trim().min(1).max(80),
    province: z.string().trim().max(80).default(''),
    district: z.string().trim().max(80).default(''),
    ward: z.string().trim().max(80).default(''),
    line: z.string().trim().min(1).max(200),
  }),
  medicalNotes: z.string().trim().max(2000).default(''),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const updateLanguageSchema = z.object({
  lang: z.string().trim().toLowerCase().describe('en or vi; the Canadian variant "can" is stored as en'),
});
export const updateTimeZoneSchema = z.object({ tz: z.string().trim().min(1).max(64) });

export const changePasswordSchema = z.object({
  password: z.string().min(1).max(128).describe('Current password'),
  newPassword: z.string().min(1).max(128),
});
export const adminSetPasswordSchema = z.object({
  userId: z.uuid(),
  newPassword: z.string().min(1).max(128),
});
/** POST /account/admin/user/unlock. */
export const unlockUserSchema = z.object({ userId: z.uuid() });
/** Avatar uploads that name the account by username (email or phone). */
export const usernameQuerySchema = z.object({ username: z.string().trim().min(1).max(254).describe('Email or phone number') });

export const REGISTRATION_PURPOSES = ['PERSONAL_MONITORING', 'FAMILY_CARE', 'CLINICAL_PROGRAM', 'OTHER'] as const;
export const registerSchema = z.object({
  tenant: tenantCodeSchema.optional(),
  firstName: personNameSchema,
  lastName: personNameSchema,
  email: emailSchema,
  phone: phoneSchema.optional(),
  birthday: adultBirthdaySchema,
  password: z.string().min(1).max(128),
  purpose: z.enum(REGISTRATION_PURPOSES),
  acceptTerms: z.literal(true, { error: 'the terms must be accepted' }),
  acceptPrivacy: z.literal(true, { error: 'the privacy policy must be accepted' }),
  role: z.enum(['PATIENT', 'DOCTOR']).default('PATIENT'),
  /** The client registering: the patient app's password rule applies to `patient` (spec §5). */
  app: z.enum(CLIENT_APPS).optional(),
});
export const createVerificationTokenSchema = z.object({ tenant: tenantCodeSchema, email: emailSchema });
export const verifyRegisterSchema = z.object({ tenant: tenantCodeSchema, email: emailSchema, token: z.string().regex(/^\d{6}$/) });
/** POST /auth/email-register: the registration form and the emailed code in one step (PATIENT, ACTIVE at once). */
export const emailRegisterSchema = registerSchema.omit({ tenant: true, role: true }).extend(verifyRegisterSchema.shape);
/** Answer of POST /account/register: the account waits for the emailed code. */
export const registrationResponseSchema = otpSentResponseSchema.extend({ status: z.enum(ACCOUNT_STATUSES) });
/** Answer of the verification calls; a doctor stays UNACTIVATED until a health-center admin approves. */
export const verifyRegisterResponseSchema = z.object({ status: z.enum(ACCOUNT_STATUSES), awaitingApproval: z.boolean() });

export const auditEntrySchema = z.object({
  id: z.uuid(),
  occurredAt: z.iso.datetime(),
  action: z.string(),
  actorUserId: z.uuid().nullable(),
  subjectUserId: z.uuid().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export const logHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  userId: z.uuid().optional().describe('Another user’s history (needs staff.view)'),
  action: z.string().max(64).optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
});

// Custom roles ------------------------------------------------------------------------------

const permissionSchema = z.enum(PERMISSIONS as [Permission, ...Permission[]]);
export const customRoleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  baseRole: z.enum(ROLE_CODES),
  permissions: z.array(permissionSchema),
  userCount: z.number().int(),
  updatedAt: z.iso.datetime(),
});
export type CustomRole = z.infer<typeof customRoleSchema>;
export const roleInputSchema = z.object({
  name: safeName(80),
  description: z.string().trim().max(500).default(''),
  baseRole: z.enum(ROLE_CODES),
  permissions: z.array(permissionSchema).min(1).max(PERMISSIONS.length),
});
export const defaultRoleSchema = z.object({ code: z.enum(ROLE_CODES), permissions: z.array(permissionSchema) });
export const assignRoleSchema = z.object({
  userId: z.uuid(),
  /** A default role code or a custom role id: at least one role must be chosen. */
  role: z.union([z.enum(ROLE_CODES), z.uuid()]),
});

export const roleListQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(80).optional(),
});
export const assignableUserSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(ROLE_CODES),
  customRole: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type AssignableUser = z.infer<typeof assignableUserSchema>;

// Unit settings and deactivation (account settings) ------------------------------------------

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export const THERMAL_UNITS = ['C', 'F'] as const;
export const BLOOD_GLUCOSE_UNITS = ['mg/dL', 'mmol/L'] as const;
export const URIC_ACID_UNITS = ['mg/dL', 'mmol/L', 'umol/L'] as const;

/** A user's own units; null follows the tenant's setting. */
export const unitSettingsUpdateSchema = z.object({
  unitSystem: z.enum(UNIT_SYSTEMS).nullable(),
  thermalUnit: z.enum(THERMAL_UNITS).nullable(),
  bloodGlucoseUnit: z.enum(BLOOD_GLUCOSE_UNITS).nullable(),
  uricAcidUnit: z.enum(URIC_ACID_UNITS).nullable(),
});
export const unitSettingsSchema = z.object({
  /** What the user chose (null: the tenant's). */
  own: unitSettingsUpdateSchema,
  /** What applies: own choice or the tenant's setting. */
  effective: z.object({
    unitSystem: z.enum(UNIT_SYSTEMS),
    thermalUnit: z.enum(THERMAL_UNITS),
    bloodGlucoseUnit: z.enum(BLOOD_GLUCOSE_UNITS),
    uricAcidUnit: z.enum(URIC_ACID_UNITS),
  }),
});
export type UnitSettings = z.infer<typeof unitSettingsSchema>;

/** Temporary disable: 3 days, 2 weeks, 1 month, or indefinitely (spec §4, §9). */
export const DEACTIVATION_DURATIONS = ['THREE_DAYS', 'TWO_WEEKS', 'ONE_MONTH', 'INDEFINITE'] as const;
export type DeactivationDuration = (typeof DEACTIVATION_DURATIONS)[number];
export const deactivateAccountSchema = z.object({
  duration: z.enum(DEACTIVATION_DURATIONS),
  password: z.string().min(1).max(128).describe('Current password, to confirm'),
});
export const deactivationResultSchema = z.object({
  /** DEACTIVATED now, or REQUESTED when an admin must approve (doctors). */
  outcome: z.enum(['DEACTIVATED', 'REQUESTED']),
  until: z.iso.datetime().nullable(),
});
