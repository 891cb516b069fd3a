import {
  isSecretTenantSetting,
  STATUS_SETTLE_MINUTES_RANGE,
  TENANT_SETTING_DEFAULTS,
  TENANT_SETTING_KEYS,
  type TenantSettingKey,
  type TenantSettingsUpdate,
} from '@rpm/contracts';

/** Which tab edits which setting keys; together they cover every key of spec §3. */
export const BRANDING_KEYS = ['COLOR', 'FONT', 'LOGO', 'ICON'] as const satisfies readonly TenantSettingKey[];
export const SECURITY_KEYS = ['PASSWORD_RULE'] as const satisfies readonly TenantSettingKey[];
export const GENERAL_KEYS = TENANT_SETTING_KEYS.filter(
  (key) =>
    !(BRANDING_KEYS as readonly string[]).includes(key) &&
    !(SECURITY_KEYS as readonly string[]).includes(key),
);

export type SettingValues = Record<TenantSettingKey, string>;

/** A setting field of the tenant forms: the setting's text, its change, the message under it. */
export interface SettingFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** The stored value (or default) of every key; secrets come masked and are never edited in place. */
export function settingValues(detail: {
  settings: readonly { key: TenantSettingKey; value: string }[];
}): SettingValues {
  const values: SettingValues = { ...TENANT_SETTING_DEFAULTS };
  for (const { key, value } of detail.settings) values[key] = value;
  return values;
}

/** A secret field: left as it is, given a new value, or removed (back to the empty default). */
export type SecretEdit = { mode: 'keep' } | { mode: 'replace'; value: string } | { mode: 'clear' };

/**
 * The body of PUT …/settings for the given keys: only what changed, so saving one tab never
 * rewrites another's keys, and a masked secret is never sent back as if it were the value.
 * Removing a secret sends null (the server restores the default, empty).
 */
export function changedSettings(
  keys: readonly TenantSettingKey[],
  initial: SettingValues,
  current: Partial<SettingValues>,
  secrets: Partial<Record<TenantSettingKey, SecretEdit>> = {},
): TenantSettingsUpdate {
  const update: Record<string, string | null> = {};
  for (const key of keys) {
    if (isSecretTenantSetting(key)) {
      const edit = secrets[key] ?? { mode: 'keep' };
      if (edit.mode === 'clear') update[key] = null;
      else if (edit.mode === 'replace' && edit.value.trim() !== '') update[key] = edit.value.trim();
      continue;
    }
    const value = current[key];
    if (value !== undefined && value !== initial[key]) update[key] = value;
  }
  return update;
}

/**
 * The IANA time zones offered for the tenant's zone: the runtime's list (canonical names), UTC,
 * and the current value, which may be an alias the list leaves out (Asia/Ho_Chi_Minh is listed
 * as Asia/Saigon by some runtimes). Sorted, without repeats.
 */
export function timeZoneChoices(current: string): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return [...new Set([...zones, 'UTC', current].filter((zone) => zone !== ''))].sort((a, b) => a.localeCompare(b));
}

/** Dial codes offered for the country (spec names +84 and +1); any other valid code may be typed. */
export const COMMON_DIAL_CODES = ['+84', '+1', '+44', '+61', '+65', '+66', '+81', '+82', '+86'] as const;

/** Font families a tenant can pick without typing; each falls back to the system font when missing. */
export const FONT_CHOICES = [
  'Inter',
  'Roboto',
  'Open Sans',
  'Lato',
  'Montserrat',
  'Noto Sans',
  'Source Sans 3',
  'Be Vietnam Pro',
  'Arial',
  'Georgia',
] as const;

/**
 * The come-down window as typed: whole minutes within the alert settings' bounds
 * (STATUS_SETTLE_MINUTES_RANGE, the server's schema), or the problem to show.
 */
export function parseSettleMinutes(text: string): { minutes: number } | { problem: 'settleWindowRange' } {
  const [min, max] = STATUS_SETTLE_MINUTES_RANGE;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { problem: 'settleWindowRange' };
  const minutes = Number(trimmed);
  return minutes >= min && minutes <= max ? { minutes } : { problem: 'settleWindowRange' };
}
