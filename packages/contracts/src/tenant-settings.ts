import { z } from 'zod';
import { passwordRuleSchema } from './password.js';
import { safeText } from './text.js';
import {
  INTAKE_WINDOW,
  LANGUAGES,
  NO_DATA_WINDOW,
  TENANT_SETTING_KEYS,
  type TenantSettingKey,
  VITALS_STORAGE,
} from './tenant-setting-keys.js';

export {
  DEFAULT_TENANT_TIME_ZONE,
  INTAKE_WINDOW,
  isSecretTenantSetting,
  LANGUAGES,
  NO_DATA_WINDOW,
  PUBLIC_TENANT_SETTING_KEYS,
  SECRET_TENANT_SETTING_KEYS,
  TENANT_SETTING_DEFAULTS,
  TENANT_SETTING_KEYS,
  type Language,
  type TenantSettingKey,
  VITALS_STORAGE,
} from './tenant-setting-keys.js';

export const tenantSettingSchema = z.object({ key: z.enum(TENANT_SETTING_KEYS), value: z.string() });
export type TenantSetting = z.infer<typeof tenantSettingSchema>;

// Allowed values (spec §3, §9). The unit lists are the ones a user may pick for themselves
// (account.ts), repeated here because account.ts sits above this module in the import graph.
export const TENANT_UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export const TENANT_THERMAL_UNITS = ['C', 'F'] as const;
export const TENANT_BLOOD_GLUCOSE_UNITS = ['mg/dL', 'mmol/L'] as const;
export const TENANT_URIC_ACID_UNITS = ['mg/dL', 'mmol/L', 'umol/L'] as const;

const oneOf = (values: readonly [string, ...string[]]) => z.enum(values);
const optionalUrl = z
  .string()
  .trim()
  .max(500)
  .refine((value) => value === '' || /^https?:\/\/\S+$/.test(value), { error: 'must be empty or an http(s) URL' });
/** A credential or identifier typed by an operator: printable, no spaces. */
const secretValue = z.string().trim().max(500).regex(/^[\x21-\x7e]*$/, { error: 'must be printable characters without spaces' });

/** PASSWORD_RULE: JSON of passwordRuleSchema (spec §5), with a minimum not above the maximum. */
const passwordRuleValue = z.string().superRefine((value, context) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    context.addIssue({ code: 'custom', message: 'must be JSON' });
    return;
  }
  const rule = passwordRuleSchema.strict().safeParse(parsed);
  if (!rule.success) {
    context.addIssue({ code: 'custom', message: rule.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') });
    return;
  }
  if (rule.data.minLength > rule.data.maxLength) context.addIssue({ code: 'custom', message: 'minLength must not exceed maxLength' });
  if (/[A-Za-z0-9\s]/.test(rule.data.special)) context.addIssue({ code: 'custom', message: 'special must list only symbols' });
});

/**
 * The allowed values of every key, as strings (settings are stored and served as text). The
 * server refuses anything else with a field error per key; the console validates its forms with
 * the same schemas.
 */
export const TENANT_SETTING_VALUE_SCHEMAS = {
  COLOR: z.string().regex(/^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/, { error: 'must be a hex color like #0B7285' }),
  FONT: z.string().trim().min(1).max(60).regex(/^[\p{L}\p{N} '-]+$/u, { error: 'must be a font family name' }),
  LOGO: optionalUrl,
  ICON: optionalUrl,
  PASSWORD_RULE: passwordRuleValue,
  LANGUAGE: oneOf(LANGUAGES),
  UNIT_SYSTEM: oneOf(TENANT_UNIT_SYSTEMS),
  THERMAL_UNIT: oneOf(TENANT_THERMAL_UNITS),
  COUNTRY: z.string().trim().min(2).max(60).regex(/^[^\d]+$/, { error: 'must be a country name' }),
  COUNTRY_CODE: z.string().regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166 two-letter code like VN or CA' }),
  DIAL_CODE: z.string().regex(/^\+[1-9]\d{0,3}$/, { error: 'must be a dial code like +84 or +1' }),
  ORGANIZATION_NAME: safeText().max(200),
  ACID_URIC_UNIT: oneOf(TENANT_URIC_ACID_UNITS),
  BLOOD_GLUCOSE_UNIT: oneOf(TENANT_BLOOD_GLUCOSE_UNITS),
  LATE_DATA_HORIZON_MINUTES: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'must be a whole number of minutes' })
    .refine((value) => Number(value) >= 5 && Number(value) <= 10_080, { error: 'must be between 5 and 10080 (a week)' }),
  NO_DATA_ALERT_MINUTES: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'must be a whole number of minutes' })
    .refine((value) => Number(value) >= NO_DATA_WINDOW.minMinutes && Number(value) <= NO_DATA_WINDOW.maxMinutes, {
      error: `must be between ${NO_DATA_WINDOW.minMinutes} and ${NO_DATA_WINDOW.maxMinutes} (a week)`,
    }),
  AI_CLOUD_TENANT_ID: secretValue,
  OCR_HEALTH_DEVICE_API_KEY: secretValue,
  OCR_PRESCRIPTION_API_KEY: secretValue,
  ALLOW_WEB_SOS_POPUP: oneOf(['true', 'false']),
  APPOINTMENT_SMS: oneOf(['true', 'false']),
  TAX_RATE: z
    .string()
    .regex(/^\d{1,3}(?:\.\d{1,2})?$/, { error: 'must be a number with at most two decimals' })
    .refine((value) => Number(value) >= 0 && Number(value) <= 100, { error: 'must be between 0 and 100' }),
  /** Whether the zone is supported (runtime and database) is checked by the server: tenant.timeZoneUnsupported. */
  TIME_ZONE: z.string().trim().max(64),
  INTAKE_WINDOW_MINUTES: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'must be a whole number of minutes' })
    .refine((value) => Number(value) >= INTAKE_WINDOW.minMinutes && Number(value) <= INTAKE_WINDOW.maxMinutes, {
      error: `must be between ${INTAKE_WINDOW.minMinutes} and ${INTAKE_WINDOW.maxMinutes}`,
    }),
  VITALS_COMPACT_AFTER_DAYS: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'must be a whole number of days' })
    .refine((value) => Number(value) >= VITALS_STORAGE.minCompactAfterDays && Number(value) <= VITALS_STORAGE.maxCompactAfterDays, {
      error: `must be between ${VITALS_STORAGE.minCompactAfterDays} and ${VITALS_STORAGE.maxCompactAfterDays}`,
    }),
  VITALS_RETENTION_DAYS: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'must be a whole number of days' })
    .refine((value) => Number(value) === 0 || (Number(value) >= VITALS_STORAGE.minRetentionDays && Number(value) <= VITALS_STORAGE.maxRetentionDays), {
      error: `must be 0 (keep for ever) or between ${VITALS_STORAGE.minRetentionDays} and ${VITALS_STORAGE.maxRetentionDays}`,
    }),
} satisfies Record<TenantSettingKey, z.ZodType<string, string>>;

/**
 * PUT /manage/sadmin/tenant/{id}/settings: only the keys given change; null puts a key back to
 * its default. Unknown keys are refused.
 */
export const tenantSettingsUpdateSchema = z
  .object(
    Object.fromEntries(TENANT_SETTING_KEYS.map((key) => [key, TENANT_SETTING_VALUE_SCHEMAS[key].nullable().optional()])) as {
      [K in TenantSettingKey]: z.ZodOptional<z.ZodNullable<(typeof TENANT_SETTING_VALUE_SCHEMAS)[K]>>;
    },
  )
  .strict();
export type TenantSettingsUpdate = z.infer<typeof tenantSettingsUpdateSchema>;
