import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, NAMESPACES, resources, SUPPORTED_LANGUAGES, type SupportedLanguage } from '@rpm/i18n';

declare module 'i18next' {
  // Typed keys: a misspelt or missing key in en/common.json is a compile error, not a blank label.
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: (typeof resources)['en'];
  }
}

/** Spec §1: "The language is kept locally; the default is en." */
export const LANGUAGE_STORAGE_KEY = 'rpm.console.language';

export function isSupportedLanguage(value: unknown): value is SupportedLanguage {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

function readStoredLanguage(): SupportedLanguage {
  try {
    const stored = globalThis.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isSupportedLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    // Storage can be disabled (privacy mode); the console still works in the default language.
    return DEFAULT_LANGUAGE;
  }
}

function applyLanguage(language: string): void {
  if (!isSupportedLanguage(language)) return;
  // Guarded so the pure modules that read the language can be unit-tested without a DOM.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  try {
    globalThis.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisting is acceptable; the choice still holds for this tab.
  }
}

export const i18n: I18n = i18next.createInstance();

export function initI18n(): Promise<unknown> {
  i18n.use(initReactI18next);
  i18n.on('languageChanged', applyLanguage);
  const language = readStoredLanguage();
  applyLanguage(language);
  return i18n.init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: 'common',
    // React escapes output itself; escaping here would double-encode names such as "O'Brien".
    interpolation: { escapeValue: false },
    returnNull: false,
    // Resources are bundled, so initialise synchronously: the first render already has its strings.
    initAsync: false,
  });
}

/** The UI language, sent as Accept-Language so the server answers in it. */
export function currentLanguage(): SupportedLanguage {
  return isSupportedLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export function changeLanguage(language: SupportedLanguage): void {
  void i18n.changeLanguage(language);
}

/**
 * Translates a key only known at run time (an error code from the server, an action's message key).
 * Typed `t` rejects plain strings, and these keys are checked by the catalogue tests instead.
 */
export function translateKey(key: string, values?: Record<string, string | number>): string {
  return (i18n.t as (key: string, values?: Record<string, string | number>) => string)(key, values);
}
