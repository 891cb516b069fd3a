import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  ERROR_CODES,
  PERMISSION_GROUPS,
  PERMISSIONS,
  REGISTRATION_PURPOSES,
  ROLE_CODES,
} from '@rpm/contracts';
import { resources, SUPPORTED_LANGUAGES } from '@rpm/i18n';
import { ACCOUNT_TABS } from './features/account/account-page';
import { STARTUP_STEPS } from './features/shell/startup-screen';

type Catalogue = Record<string, unknown>;

function flatten(catalogue: Catalogue, prefix = ''): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [nested, leaf] of flatten(value as Catalogue, `${prefix}${key}.`)) entries.set(nested, leaf);
    } else {
      entries.set(`${prefix}${key}`, value);
    }
  }
  return entries;
}

const namespaces = ['common', 'errors', 'account', 'legal', 'roles'] as const;

describe('console catalogues', () => {
  for (const namespace of namespaces) {
    it(`${namespace}: vi has exactly the keys of en, each a non-empty string`, () => {
      const en = flatten(resources.en[namespace]);
      const vi = flatten(resources.vi[namespace]);
      expect([...vi.keys()].sort()).toEqual([...en.keys()].sort());
      for (const language of SUPPORTED_LANGUAGES) {
        for (const [key, value] of flatten(resources[language][namespace])) {
          // The privacy policy's empty list fields are the only strings allowed to be empty.
          if (key.endsWith('.items')) expect(typeof value, key).toBe('string');
          else
            expect(typeof value === 'string' && value.trim() !== '', `${language} ${namespace}:${key}`).toBe(
              true,
            );
        }
      }
    });
  }

  it('labels every role and every startup step, and has a message for every error code', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const common = flatten(resources[language].common);
      const errors = flatten(resources[language].errors);
      for (const role of ROLE_CODES)
        expect(common.has(`roles.${role}`), `${language} roles.${role}`).toBe(true);
      for (const step of STARTUP_STEPS) {
        expect(common.has(`startup.progress.${step}`)).toBe(true);
        expect(common.has(`startup.failed.${step}`)).toBe(true);
      }
      for (const code of ERROR_CODES) expect(errors.has(code), `${language} errors:${code}`).toBe(true);
    }
  });

  it('labels every audit action, permission, permission group, purpose and account tab', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const keys = new Set(
        (['common', 'account', 'roles'] as const).flatMap((namespace) =>
          [...flatten(resources[language][namespace]).keys()].map((key) => `${namespace}:${key}`),
        ),
      );
      const wanted = [
        ...AUDIT_ACTIONS.map((code) => `account:audit.${code}`),
        ...PERMISSIONS.map((permission) => `roles:permissions.${permission}`),
        ...Object.keys(PERMISSION_GROUPS).map((group) => `roles:permissionGroups.${group}`),
        ...REGISTRATION_PURPOSES.map((purpose) => `common:register.purposes.${purpose}`),
        ...ACCOUNT_TABS.map((tab) => `common:account.tabs.${tab}`),
      ];
      expect(
        wanted.filter((key) => !keys.has(key)),
        language,
      ).toEqual([]);
    }
  });

  it('is really translated: Vietnamese differs from English outside names, with diacritics', () => {
    // Strings meant to read the same in both languages; a new one is added here on purpose.
    const identicalOnPurpose = new Set([
      'common:app.documentTitle',
      'common:app.name',
      'common:language.en',
      'common:language.vi',
    ]);
    const untranslated = (['common', 'account', 'legal', 'roles'] as const).flatMap((namespace) => {
      const en = flatten(resources.en[namespace]);
      return [...flatten(resources.vi[namespace])]
        .filter(([key, value]) => value !== '' && en.get(key) === value)
        .map(([key]) => `${namespace}:${key}`)
        .filter((key) => !identicalOnPurpose.has(key));
    });
    expect(untranslated).toEqual([]);
    const vi = flatten(resources.vi.common);
    expect(vi.get('notFound.title')).toBe('Không tìm thấy trang');
  });
});
