import { ERROR_CODES, NOTIFICATION_KIND_CODES } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { NAMESPACES, pickLanguage, resources, translateError } from './index.js';

function keysOf(node: unknown, prefix = ''): string[] {
  // Arrays (lists of paragraphs, read with returnObjects) are one message each.
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => keysOf(value, prefix ? `${prefix}.${key}` : key));
}

describe('message catalogues', () => {
  for (const namespace of NAMESPACES) {
    it(`${namespace}: en and vi have exactly the same keys, none empty`, () => {
      const en = keysOf(resources.en[namespace]).sort();
      const vi = keysOf(resources.vi[namespace]).sort();
      expect(vi).toEqual(en);
      for (const language of ['en', 'vi'] as const) {
        const empty = keysOf(resources[language][namespace]).filter((key) => {
          let node: unknown = resources[language][namespace];
          for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
          const texts: unknown[] = Array.isArray(node) ? node : [node];
          return texts.length === 0 || texts.some((text) => typeof text !== 'string' || text.trim() === '');
        });
        expect(empty, language).toEqual([]);
      }
    });
  }

  it('has a title in both languages for every notification kind, and a body for every kind but a written message', () => {
    const missing = NOTIFICATION_KIND_CODES.flatMap((kind) =>
      (['en', 'vi'] as const).flatMap((language) => {
        const node = kind.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], resources[language].notifications.kinds);
        const texts = node as { title?: unknown; body?: unknown } | undefined;
        return [
          ...(typeof texts?.title === 'string' ? [] : [`${language}:${kind}.title`]),
          ...(kind === 'message' || typeof texts?.body === 'string' ? [] : [`${language}:${kind}.body`]),
        ];
      }),
    );
    expect(missing).toEqual([]);
  });

  it('has a message in both languages for every API error code', () => {
    const missing = ERROR_CODES.flatMap((code) =>
      (['en', 'vi'] as const)
        .filter((language) => translateError(code, language) === translateError('common.default', language) && code !== 'common.default')
        .map((language) => `${language}:${code}`),
    );
    expect(missing).toEqual([]);
  });

  it('uses the spec’s exact wording for the HTTP-level messages', () => {
    expect(translateError('common.default', 'en')).toBe('Something went wrong. Please contact technical support');
    expect(translateError('auth.unauthorized', 'en')).toBe('Please login to continue');
    expect(translateError('auth.loggedInElsewhere', 'en')).toBe('Your account was logged in somewhere else. Please login to continue');
    expect(translateError('auth.sessionExpired', 'en')).toBe('Your session is expired!');
  });

  it('falls back to the default message for an unknown code', () => {
    expect(translateError('no.such.code', 'vi')).toBe(translateError('common.default', 'vi'));
  });
});

describe('pickLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['vi', 'vi'],
    ['vi-VN,vi;q=0.9,en;q=0.8', 'vi'],
    ['en-CA', 'en'],
    ['can', 'en'],
    ['fr-FR,vi;q=0.5', 'vi'],
    ['de', 'en'],
  ])('%s -> %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });
});
