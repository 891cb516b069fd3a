import { describe, expect, it } from 'vitest';
import { TENANT_SETTING_DEFAULTS } from '@rpm/contracts';
import { DEFAULT_THEME, mergeMantineTheme, type MantineTheme } from '@mantine/core';
import {
  AA_NORMAL_TEXT,
  BADGE_COLORS,
  badgeTextAndBackground,
  BASE_SHADE_INDEX,
  buildTheme,
  contrastRatio,
  CONTRAST_LUMINANCE_THRESHOLD,
  cssVariablesResolver,
  DIMMED_TEXT,
  fontStack,
  generateShades,
  PAGE_BACKGROUND,
  readableTextOn,
  variantColorResolver,
} from './theme';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((offset) => Number.parseInt(hex.slice(offset, offset + 2), 16));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

describe('generateShades', () => {
  it('returns ten shades with the brand colour unchanged at the base shade', () => {
    const shades = generateShades('#0B7285');
    expect(shades).toHaveLength(10);
    expect(shades?.[BASE_SHADE_INDEX]).toBe('#0b7285');
  });

  it('goes from light to dark', () => {
    const shades = generateShades('#3355cc') ?? [];
    const values = shades.map(luminance);
    for (let index = 1; index < values.length; index += 1) {
      expect(values[index]).toBeLessThan(values[index - 1] ?? Number.POSITIVE_INFINITY);
    }
    expect(values[0]).toBeGreaterThan(230);
  });

  it('mixes exactly: the lightest tint is 92% white, the darkest shade 42% black', () => {
    const shades = generateShades('#000000');
    // 0 + (255 - 0) * 0.92 = 234.6 -> eb
    expect(shades?.[0]).toBe('#ebebeb');
    expect(generateShades('#ffffff')?.[9]).toBe('#949494');
  });

  it('expands #rgb and rejects what is not a hex colour', () => {
    expect(generateShades('#abc')?.[BASE_SHADE_INDEX]).toBe('#aabbcc');
    expect(generateShades('red')).toBeNull();
    expect(generateShades('#12345')).toBeNull();
    expect(generateShades('')).toBeNull();
  });
});

describe('fontStack', () => {
  it('puts the tenant font first with system fallbacks', () => {
    expect(fontStack('Be Vietnam Pro')).toMatch(/^'Be Vietnam Pro', system-ui/);
  });

  it('refuses anything that could break out of the style sheet', () => {
    expect(fontStack("Inter'; } body { display: none")).not.toContain('Inter');
    expect(fontStack('')).toMatch(/^system-ui/);
  });
});

describe('buildTheme', () => {
  it('uses the tenant colour as the primary palette and its font', () => {
    const theme = buildTheme({ COLOR: '#C92A2A', FONT: 'Roboto' });
    expect(theme.primaryColor).toBe('brand');
    expect(theme.colors?.brand?.[BASE_SHADE_INDEX]).toBe('#c92a2a');
    expect(theme.fontFamily).toMatch(/^'Roboto'/);
    expect(theme.autoContrast).toBe(true);
  });

  it('falls back to the product defaults when settings are missing or invalid', () => {
    const theme = buildTheme({ COLOR: 'not-a-colour' });
    expect(theme.colors?.brand?.[BASE_SHADE_INDEX]).toBe(TENANT_SETTING_DEFAULTS.COLOR.toLowerCase());
    expect(theme.fontFamily).toMatch(/^'Inter'/);
  });
});

function fullTheme(settings: Parameters<typeof buildTheme>[0] = {}): MantineTheme {
  return mergeMantineTheme(DEFAULT_THEME, buildTheme(settings));
}

describe('contrastRatio', () => {
  it('matches the WCAG figures', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Mantine's gray.6 on white: the "dimmed" grey that failed AA.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrastRatio('#e67700', '#fff3bf')).toBeCloseTo(2.7, 1);
  });
});

describe('badge colours meet WCAG AA', () => {
  const theme = fullTheme();
  const cases = Object.entries(BADGE_COLORS).flatMap(([badge, byStatus]) =>
    Object.entries(byStatus).map(([status, color]) => [`${badge}.${status}`, color] as const),
  );

  it.each(cases)('%s reads at 4.5:1 or more', (_name, badge) => {
    const { text, background } = badgeTextAndBackground(theme, badge);
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });

  it('holds for every palette and variant, not only the ones in use today', () => {
    const failures: string[] = [];
    for (const color of Object.keys(theme.colors)) {
      for (const variant of ['filled', 'light', 'outline'] as const) {
        const { text, background } = badgeTextAndBackground(theme, { color, variant });
        const ratio = contrastRatio(text, background);
        if (ratio < AA_NORMAL_TEXT) failures.push(`${color} ${variant}: ${ratio.toFixed(2)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps white text on the loud badges (SOS, a new case) on a red dark enough for it', () => {
    const { text, background } = badgeTextAndBackground(theme, BADGE_COLORS.sosStatus.NEW);
    expect(text).toBe('#ffffff');
    expect(contrastRatio(text, background)).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });
});

describe('the colour variables', () => {
  const theme = fullTheme();
  const light: Record<string, string> = cssVariablesResolver(theme).light;

  it('make secondary (dimmed) text, errors and links readable on white and on the page background', () => {
    for (const name of ['--mantine-color-dimmed', '--mantine-color-error', '--mantine-color-anchor']) {
      const value = light[name] ?? '';
      expect(contrastRatio(value, '#ffffff'), name).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
      expect(contrastRatio(value, PAGE_BACKGROUND), name).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
    }
    expect(light['--mantine-color-dimmed']).toBe(DIMMED_TEXT);
  });

  it('give light badges a text colour that reads on their tint', () => {
    const text = light['--mantine-color-yellow-light-color'] ?? '';
    expect(contrastRatio(text, light['--mantine-color-yellow-light'] ?? '')).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
  });
});

describe('text on the tenant colour', () => {
  // Light, mid and dark brand colours, including the ones where the choice is closest.
  const brandColours = ['#0B7285', '#FFD43B', '#FAB005', '#74C0FC', '#C92A2A', '#7F7F7F', '#767676', '#888888', '#12B886', '#000000', '#FFFFFF'];

  it.each(brandColours)('%s gets black or white text at 4.5:1 or more', (colour) => {
    const theme = fullTheme({ COLOR: colour });
    const background = theme.colors.brand?.[BASE_SHADE_INDEX] ?? '';
    const contrast = cssVariablesResolver(theme).light['--mantine-primary-color-contrast'] ?? '';
    expect(['#000000', '#ffffff']).toContain(contrast);
    expect(contrastRatio(contrast, background)).toBeGreaterThanOrEqual(AA_NORMAL_TEXT);
    // Filled buttons and badges in the brand colour pick the same text.
    const button = variantColorResolver({ color: 'brand', theme, variant: 'filled' });
    expect(button.color).toBe(contrast);
  });

  it('switches from white to black where black starts to read better', () => {
    expect(CONTRAST_LUMINANCE_THRESHOLD).toBeCloseTo(0.179, 3);
    expect(readableTextOn('#0b7285')).toBe('#ffffff');
    expect(readableTextOn('#ffd43b')).toBe('#000000');
    expect(fullTheme().luminanceThreshold).toBe(CONTRAST_LUMINANCE_THRESHOLD);
  });
});
