import { describe, expect, it } from 'vitest';
import { resources } from '@rpm/i18n';
import { readFileSync } from 'node:fs';
import {
  loadCatalogue,
  loadStartupErrors,
  NAMESPACES,
  STARTUP_ERROR_DOMAINS,
  SUPPORTED_LANGUAGES,
} from '@rpm/i18n/load';
import { startupNamespaces } from './i18n';

describe('catalogue loading', () => {
  it('fetches each language and namespace from its own file', async () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const namespace of NAMESPACES) {
        expect(await loadCatalogue(language, namespace), `${language}/${namespace}`).toEqual(
          resources[language][namespace],
        );
      }
    }
  });

  it('waits for common and errors on a public page, and for the staff shell too on a staff screen', () => {
    expect(startupNamespaces('/login')).toEqual(['common', 'errors']);
    expect(startupNamespaces('/')).toEqual(['common', 'errors']);
    expect(startupNamespaces('/register')).toEqual(['common', 'errors']);
    const staff = startupNamespaces('/doctor/patients');
    expect(staff.slice(0, 2)).toEqual(['common', 'errors']);
    expect(staff).toEqual(expect.arrayContaining(['patients', 'monitoring', 'realtime']));
    // The navigation and the level switcher are named from `common`: no feature catalogue for them.
    for (const namespace of ['health', 'tenants', 'org', 'doctors', 'devices', 'imports'])
      expect(staff).not.toContain(namespace);
    expect(startupNamespaces('/loginx')).toEqual(staff);
  });

  it('fetches only the startup part of `errors` before a screen: what shows without the server, and the session', async () => {
    // The fixed messages of the API client's reactions (network down, maintenance, session ended).
    const reactions = readFileSync(new URL('api/error-reaction.ts', import.meta.url), 'utf8');
    const fixedKeys = [...reactions.matchAll(/'errors:([a-zA-Z.]+)'/g)].map((match) => match[1] ?? '');
    expect(fixedKeys.length).toBeGreaterThan(4);
    for (const language of SUPPORTED_LANGUAGES) {
      const whole = resources[language].errors as unknown as Record<string, Record<string, string>>;
      const part = (await loadStartupErrors(language)) as Record<string, Record<string, string>>;
      expect(Object.keys(part).sort()).toEqual([...STARTUP_ERROR_DOMAINS].sort());
      for (const domain of STARTUP_ERROR_DOMAINS) expect(part[domain]).toEqual(whole[domain]);
      for (const key of fixedKeys) {
        const [domain = '', name = ''] = key.split('.');
        expect(part[domain]?.[name], `${language} errors:${key}`).toEqual(expect.any(String));
      }
      expect(part).not.toHaveProperty('patient');
    }
  });
});
