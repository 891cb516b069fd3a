import { describe, expect, it } from 'vitest';
import { TENANT_SETTING_DEFAULTS } from '@rpm/contracts';
import { BASE_SHADE_INDEX, buildTheme, fontStack, generateShades } from './theme';

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
