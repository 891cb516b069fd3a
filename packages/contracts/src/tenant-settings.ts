import { z } from 'zod';

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
  'AI_CLOUD_TENANT_ID',
  'OCR_HEALTH_DEVICE_API_KEY',
  'OCR_PRESCRIPTION_API_KEY',
  'ALLOW_WEB_SOS_POPUP',
] as const;
export type TenantSettingKey = (typeof TENANT_SETTING_KEYS)[number];

export const LANGUAGES = ['en', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Setting keys whose value may be shown to the tenant's users (secrets stay server-side). */
export const PUBLIC_TENANT_SETTING_KEYS = TENANT_SETTING_KEYS.filter(
  (key) => !key.startsWith('OCR_') && key !== 'AI_CLOUD_TENANT_ID',
);

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
  AI_CLOUD_TENANT_ID: '',
  OCR_HEALTH_DEVICE_API_KEY: '',
  OCR_PRESCRIPTION_API_KEY: '',
  ALLOW_WEB_SOS_POPUP: 'true',
};

export const tenantSettingSchema = z.object({ key: z.enum(TENANT_SETTING_KEYS), value: z.string() });
export type TenantSetting = z.infer<typeof tenantSettingSchema>;
