import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type MantineThemeOverride,
  type VariantColorsResolver,
} from '@mantine/core';
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

function mixRgb(color: Rgb, target: Rgb, amount: number): Rgb {
  const blend = (index: 0 | 1 | 2) => color[index] + (target[index] - color[index]) * amount;
  return [blend(0), blend(1), blend(2)];
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
    // A tenant may pick a light brand colour; text on it then switches to black, at the luminance
    // where black starts to read better than white.
    autoContrast: true,
    luminanceThreshold: CONTRAST_LUMINANCE_THRESHOLD,
    variantColorResolver,
    fontFamily,
    headings: { fontFamily, fontWeight: '650' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    components: {
      Notification: { defaultProps: { radius: 'md' } },
      // A link inside a sentence must not be told apart by colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Contrast (WCAG 2.2, success criterion 1.4.3: 4.5:1 for normal text, 3:1 for large text)
// ---------------------------------------------------------------------------------------------

/** WCAG AA for text below 18.66 px bold or 24 px regular; every badge and small label needs it. */
export const AA_NORMAL_TEXT = 4.5;
/** WCAG AA for large text (24 px, or 18.66 px bold). */
export const AA_LARGE_TEXT = 3;

const BLACK = '#000000';
const WHITE = '#ffffff';

/** WCAG relative luminance of a #rgb or #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parseHex(hex);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two colours, from 1 (same) to 21 (black on white). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}

/**
 * The luminance above which black text has more contrast than white: (L + 0.05) / 0.05 equals
 * 1.05 / (L + 0.05). Mantine's autoContrast picks black above its threshold and white below.
 */
export const CONTRAST_LUMINANCE_THRESHOLD = Math.sqrt(1.05 * 0.05) - 0.05;

/** Black or white, whichever reads better on `background` (at least 4.58:1 for any colour). */
export function readableTextOn(background: string): string {
  return relativeLuminance(background) > CONTRAST_LUMINANCE_THRESHOLD ? BLACK : WHITE;
}

/**
 * `color`, darkened in small steps towards black until it reaches `ratio` against `background`
 * (unchanged when it already does). Keeps the hue, so a yellow badge's text stays a warm brown.
 */
export function darkenUntil(color: string, background: string, ratio = AA_NORMAL_TEXT): string {
  const base = parseHex(color);
  for (let amount = 0; amount < 1; amount += 0.04) {
    const candidate = toHex(mixRgb(base, [0, 0, 0], amount));
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return BLACK;
}

/** The shades (index into a palette) a filled surface may use, from the palette's main one down. */
const FILLED_SHADES = [6, 7, 8, 9] as const;

/**
 * The colours one palette shows as text and surfaces in the light scheme, each readable:
 * - filled: the background of filled buttons and badges, with `filledText` on it. Product
 *   palettes take the first shade from 6 on that carries white text; the tenant's brand palette
 *   keeps the tenant's own colour and takes black or white text by contrast.
 * - light / lightText: the tinted background of light badges and alerts, and the text on it.
 * - text: the palette as text or outline on white or the console's grey page background.
 */
export interface PaletteColors {
  filled: string;
  filledHover: string;
  filledText: string;
  light: string;
  lightText: string;
  text: string;
}

/** The console's page background (gray.0), the darkest background plain text sits on. */
export const PAGE_BACKGROUND = '#f8f9fa';

export function paletteColors(palette: MantineColorsTuple, isBrand: boolean): PaletteColors {
  const shade = (index: number): string => palette[index] ?? BLACK;
  // White must be the better of the two (not merely 4.5:1), or the text would turn black.
  const whiteShade = FILLED_SHADES.find((index) => readableTextOn(shade(index)) === WHITE);
  const filledIndex = isBrand ? BASE_SHADE_INDEX : (whiteShade ?? BASE_SHADE_INDEX);
  const filled = shade(filledIndex);
  const light = shade(1);
  return {
    filled,
    filledHover: shade(Math.min(filledIndex + 1, 9)),
    filledText: readableTextOn(filled),
    light,
    // Text on the tint must also read on the tint's hover shade (2), the darker of the two.
    lightText: darkenUntil(shade(9), shade(2)),
    text: darkenUntil(shade(whiteShade ?? 9), PAGE_BACKGROUND),
  };
}

/** Mantine's grey for secondary text (gray.6, 3.3:1 on white) darkened to read on the page background. */
export const DIMMED_TEXT = darkenUntil('#868e96', '#f1f3f5');

/**
 * The light scheme's colour variables with every text colour readable: each palette's filled,
 * light and text colours (see {@link paletteColors}), secondary text, errors and links.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {};
  for (const [name, palette] of Object.entries(theme.colors)) {
    const colors = paletteColors(palette, name === theme.primaryColor);
    light[`--mantine-color-${name}-filled`] = colors.filled;
    light[`--mantine-color-${name}-filled-hover`] = colors.filledHover;
    light[`--mantine-color-${name}-light`] = colors.light;
    light[`--mantine-color-${name}-light-color`] = colors.lightText;
    light[`--mantine-color-${name}-text`] = colors.text;
    light[`--mantine-color-${name}-outline`] = colors.text;
  }
  const primary = paletteColors(theme.colors[theme.primaryColor] ?? theme.colors.teal, true);
  light['--mantine-primary-color-contrast'] = primary.filledText;
  light['--mantine-color-anchor'] = primary.text;
  light['--mantine-color-dimmed'] = DIMMED_TEXT;
  light['--mantine-color-error'] = paletteColors(theme.colors.red, false).text;
  // Placeholders are hints, but a file input shows its placeholder as the field's only text.
  light['--mantine-color-placeholder'] = DIMMED_TEXT;
  return { variables: {}, light, dark: {} };
};

/**
 * Filled surfaces take their text colour from the shade they actually show (see
 * {@link paletteColors}), not from Mantine's main shade.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return isHexColor(parsed.value) ? { ...colors, color: readableTextOn(parsed.value) } : colors;
  const palette = input.theme.colors[parsed.color];
  if (!palette) return colors;
  const background =
    parsed.shade === undefined
      ? paletteColors(palette, parsed.color === input.theme.primaryColor).filled
      : palette[parsed.shade];
  return { ...colors, color: readableTextOn(background) };
};

/** A badge: a palette and a variant, one entry per status it shows. */
export interface BadgeColor {
  color: string;
  variant: 'filled' | 'light' | 'outline' | 'dot';
}

const light = (color: string): BadgeColor => ({ color, variant: 'light' });
const filled = (color: string): BadgeColor => ({ color, variant: 'filled' });

/**
 * Every status badge's colour, by severity; the colour test checks each against WCAG AA.
 * Loud (filled) only where nobody has acted yet: an SOS patient, a new SOS case.
 */
export const BADGE_COLORS = {
  patientStatus: {
    NORMAL: light('teal'),
    AT_RISK: light('yellow'),
    HIGH_RISK: light('orange'),
    SOS: filled('red'),
  },
  sosStatus: {
    NEW: filled('red'),
    IN_PROCESS: light('orange'),
    RESOLVED: light('teal'),
    CLOSED: light('gray'),
  },
  ticketStatus: {
    NEW: light('red'),
    CONFIRMED: light('blue'),
    PROCESSING: light('orange'),
    COMPLETED: light('teal'),
    SUCCESS: light('green'),
    CANCELED: light('gray'),
  },
  kpiFailed: { FAILED: { color: 'red', variant: 'outline' } },
  connectionStatus: {
    CONNECTED: light('teal'),
    DISCONNECTED: light('orange'),
    NOT_ACTIVATED: light('gray'),
    UNKNOWN: light('grape'),
  },
  appStatus: {
    ONLINE: { color: 'teal', variant: 'dot' },
    OFFLINE: { color: 'gray', variant: 'dot' },
    KILLED: { color: 'red', variant: 'dot' },
    NO_SYNC: { color: 'yellow', variant: 'dot' },
  },
} as const satisfies Record<string, Record<string, BadgeColor>>;

/** The text and background colours a badge shows in `theme` (the dot variant: text on white). */
export function badgeTextAndBackground(theme: MantineTheme, badge: BadgeColor): { text: string; background: string } {
  const palette = theme.colors[badge.color];
  if (!palette) throw new Error(`no palette "${badge.color}"`);
  const colors = paletteColors(palette, badge.color === theme.primaryColor);
  switch (badge.variant) {
    case 'filled':
      return { text: colors.filledText, background: colors.filled };
    case 'light':
      return { text: colors.lightText, background: colors.light };
    case 'outline':
      return { text: colors.text, background: WHITE };
    case 'dot':
      return { text: theme.black, background: WHITE };
  }
}
