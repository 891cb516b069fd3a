import { describe, expect, it } from 'vitest';
import { resources } from '@rpm/i18n';
import { loadCatalogue, NAMESPACES, SUPPORTED_LANGUAGES } from '@rpm/i18n/load';
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
});
