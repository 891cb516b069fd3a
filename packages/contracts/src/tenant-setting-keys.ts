/**
 * The tenant setting keys, their defaults and the constants around them, without any schema: the
 * console's first screen (the theme's defaults) reads them without loading zod. tenant-settings.ts
 * re-exports all of it.
 */
/**
 * Storage of readings: after compactAfterDays (a tenant setting between the bounds) readings move
 * into compact day blocks; VITALS_RETENTION_DAYS, when not 0, deletes readings (raw and compacted,
 * never rollups) older than that many days, at least minRetentionDays.
 */
export const VITALS_STORAGE = {
  defaultCompactAfterDays: 7,
  minCompactAfterDays: 1,
  maxCompactAfterDays: 365,
  minRetentionDays: 90,
  maxRetentionDays: 36_500,
} as const;

/** Tenant setting keys of spec §3 with their allowed values. */
export const TENANT_SETTING_KEYS = [
  'COLOR',
  'FONT',
  'LOGO',
  'ICON',
  'PASSWORD_RULE',
  'LANGUAGE',
  'UNIT_SYSTEM',
  'THERMAL_UNIT',
  'COUNTRY',
  'COUNTRY_CODE',
  'DIAL_CODE',
  'ORGANIZATION_NAME',
  'ACID_URIC_UNIT',
  'BLOOD_GLUCOSE_UNIT',
  /** Minutes after which a reading arrives "late": stored and shown, never judged (health.ts). */
  'LATE_DATA_HORIZON_MINUTES',
  /** Minutes without a sync before a bound watch raises the no-data alert (15 / 30 / 60 / custom). */
  'NO_DATA_ALERT_MINUTES',
  'AI_CLOUD_TENANT_ID',
  'OCR_HEALTH_DEVICE_API_KEY',
  'OCR_PRESCRIPTION_API_KEY',
  'ALLOW_WEB_SOS_POPUP',
  /**
   * Appointment changes are also texted to the patient (booked, moved, cancelled, completed),
   * unless the patient turned SMS off for appointments. Off by default: SMS cost the tenant.
   */
  'APPOINTMENT_SMS',
  /** Spec §3: "tax rate per tenant for services", a percentage. */
  'TAX_RATE',
  /** IANA time zone of the local days of patients whose account has none (migration 0030). */
  'TIME_ZONE',
  /**
   * Minutes either side of a dose's time within which taking it counts as on time; a dose left
   * unanswered this long after its time becomes unconfirmed (INTAKE_WINDOW).
   */
  'INTAKE_WINDOW_MINUTES',
  /** Days after which readings are moved into compact day blocks (VITALS_STORAGE, migration 0058). */
  'VITALS_COMPACT_AFTER_DAYS',
  /** Days readings are kept, raw and compacted (0: for ever); rollups are kept (VITALS_STORAGE). */
  'VITALS_RETENTION_DAYS',
] as const;
export type TenantSettingKey = (typeof TENANT_SETTING_KEYS)[number];

export const LANGUAGES = ['en', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Keys whose values are credentials: never sent to consoles, shown masked to platform staff. */
export const SECRET_TENANT_SETTING_KEYS = ['AI_CLOUD_TENANT_ID', 'OCR_HEALTH_DEVICE_API_KEY', 'OCR_PRESCRIPTION_API_KEY'] as const satisfies readonly TenantSettingKey[];

export function isSecretTenantSetting(key: TenantSettingKey): boolean {
  return (SECRET_TENANT_SETTING_KEYS as readonly string[]).includes(key);
}

/** Setting keys whose value may be shown to the tenant's users (secrets stay server-side). */
export const PUBLIC_TENANT_SETTING_KEYS = TENANT_SETTING_KEYS.filter((key) => !isSecretTenantSetting(key));

/**
 * The no-data window (spec "no-data alert"): a bound watch silent this many minutes raises the
 * alert. Watches sync every 15 minutes, so a shorter window would alert between two syncs. The
 * console offers the presets and a custom value.
 */
export const NO_DATA_WINDOW = { defaultMinutes: 60, minMinutes: 15, maxMinutes: 10_080, presets: [15, 30, 60] } as const;

/**
 * The dose window (spec §4 medication intake: taken early, on time or late; unconfirmed): how far
 * from a dose's time taking it is on time, and how long an unanswered dose waits before it is
 * unconfirmed. Every 10 minutes the dose pass looks, so a dose turns within 10 minutes of it.
 */
export const INTAKE_WINDOW = { defaultMinutes: 30, minMinutes: 5, maxMinutes: 240 } as const;

/** The time zone of a tenant that has not chosen one (new and existing tenants). */
export const DEFAULT_TENANT_TIME_ZONE = 'Asia/Ho_Chi_Minh';

export const TENANT_SETTING_DEFAULTS: Record<TenantSettingKey, string> = {
  COLOR: '#0B7285',
  FONT: 'Inter',
  LOGO: '',
  ICON: '',
  PASSWORD_RULE: JSON.stringify({ minLength: 8, maxLength: 32, lower: true, upper: true, digit: true, special: ',!@#$%^&*' }),
  LANGUAGE: 'en',
  UNIT_SYSTEM: 'metric',
  THERMAL_UNIT: 'C',
  COUNTRY: 'Vietnam',
  COUNTRY_CODE: 'VN',
  DIAL_CODE: '+84',
  ORGANIZATION_NAME: '',
  ACID_URIC_UNIT: 'umol/L',
  BLOOD_GLUCOSE_UNIT: 'mg/dL',
  LATE_DATA_HORIZON_MINUTES: '120',
  NO_DATA_ALERT_MINUTES: String(NO_DATA_WINDOW.defaultMinutes),
  AI_CLOUD_TENANT_ID: '',
  OCR_HEALTH_DEVICE_API_KEY: '',
  OCR_PRESCRIPTION_API_KEY: '',
  ALLOW_WEB_SOS_POPUP: 'true',
  APPOINTMENT_SMS: 'false',
  TAX_RATE: '0',
  TIME_ZONE: DEFAULT_TENANT_TIME_ZONE,
  INTAKE_WINDOW_MINUTES: String(INTAKE_WINDOW.defaultMinutes),
  VITALS_COMPACT_AFTER_DAYS: String(VITALS_STORAGE.defaultCompactAfterDays),
  VITALS_RETENTION_DAYS: '0',
};
