import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
import { TENANT_SETTING_DEFAULTS, type TenantSettingKey } from '@rpm/contracts';

export type TenantSettingsMap = Partial<Record<TenantSettingKey, string>>;

/** The shade at which the tenant's own colour sits; Mantine uses shade 6 for filled buttons. */
export const BASE_SHADE_INDEX = 6;

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

type Rgb = readonly [number, number, number];

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value.trim());
}

function parseHex(hex: string): Rgb {
  const digits = hex.trim().slice(1);
  const full = digits.length === 3 ? digits.replace(/./g, (digit) => digit + digit) : digits;
  const channel = (offset: number) => Number.parseInt(full.slice(offset, offset + 2), 16);
  return [channel(0), channel(2), channel(4)];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function mix(color: Rgb, target: Rgb, amount: number): string {
  const blend = (index: 0 | 1 | 2) => color[index] + (target[index] - color[index]) * amount;
  return toHex([blend(0), blend(1), blend(2)]);
}

/**
 * Ten shades (lightest first) around one brand colour, which lands unchanged at
 * {@link BASE_SHADE_INDEX}. Returns null for anything that is not a #rgb or #rrggbb colour.
 */
export function generateShades(hex: string): MantineColorsTuple | null {
  if (!isHexColor(hex)) return null;
  const base = parseHex(hex);
  // Light tints (mixed with white) serve as backgrounds, darker shades (mixed with black) as
  // hover and pressed states.
  const tint = (amount: number) => mix(base, [255, 255, 255], amount);
  const shade = (amount: number) => mix(base, [0, 0, 0], amount);
  return [
    tint(0.92),
    tint(0.8),
    tint(0.64),
    tint(0.46),
    tint(0.3),
    tint(0.14),
    toHex(base),
    shade(0.14),
    shade(0.28),
    shade(0.42),
  ];
}

const FALLBACK_FONTS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/**
 * A tenant's FONT as a CSS font stack. The value comes from tenant admins and ends up in a style
 * sheet, so anything but a plain family name is dropped rather than injected.
 */
export function fontStack(font: string | undefined): string {
  const family = (font ?? '').trim();
  if (family === '' || !/^[\p{L}\p{N} _-]{1,64}$/u.test(family)) return FALLBACK_FONTS;
  return `'${family}', ${FALLBACK_FONTS}`;
}

/** The console's Mantine theme for a tenant's settings; missing or invalid values fall back to the defaults. */
export function buildTheme(settings: TenantSettingsMap): MantineThemeOverride {
  const primary = generateShades(settings.COLOR ?? '') ?? generateShades(TENANT_SETTING_DEFAULTS.COLOR);
  const fontFamily = fontStack(settings.FONT ?? TENANT_SETTING_DEFAULTS.FONT);
  return createTheme({
    colors: primary ? { brand: primary } : {},
    primaryColor: primary ? 'brand' : 'teal',
    primaryShade: BASE_SHADE_INDEX,
    // A tenant may pick a light brand colour; text on it then switches to dark to stay readable.
    autoContrast: true,
    fontFamily,
    headings: { fontFamily, fontWeight: '650' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    components: {
      Notification: { defaultProps: { radius: 'md' } },
    },
  });
}
