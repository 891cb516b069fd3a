import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { resources } from '@rpm/i18n';
import {
  DEFAULT_LANGUAGE,
  loadCatalogue,
  loadStartupErrors,
  NAMESPACES,
  STAFF_SHELL_NAMESPACES,
  STARTUP_NAMESPACES,
  SUPPORTED_LANGUAGES,
  type Namespace,
  type SupportedLanguage,
} from '@rpm/i18n/load';

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

/** The public pages (routes.tsx); every other address opens in the staff shell. */
const PUBLIC_PATHS = ['/login', '/forgot-password', '/register', '/trial-request', '/privacy', '/terms'];

/**
 * The namespaces the first screen at `pathname` needs before it is drawn: the current language's
 * `common` and `errors`, and on a staff screen the staff shell's (@rpm/i18n/load). Catalogues are
 * fetched one language and namespace per file; a page's own namespace comes when its
 * `useTranslation` asks for it (the page waits for it, as for its code).
 */
export function startupNamespaces(pathname: string): Namespace[] {
  const isPublic =
    pathname === '/' || PUBLIC_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
  return isPublic ? [...STARTUP_NAMESPACES] : [...STARTUP_NAMESPACES, ...STAFF_SHELL_NAMESPACES];
}

function isNamespace(value: string): value is Namespace {
  return (NAMESPACES as readonly string[]).includes(value);
}

/**
 * Whether the whole `errors` catalogue has been asked for (loadErrorMessages). Until then `errors`
 * holds only its startup part (@rpm/i18n's STARTUP_ERROR_DOMAINS), so that the first screen does
 * not wait for every error code's message; from then on it is the whole catalogue, in every
 * language (a language switched to later is fetched whole).
 */
let wholeErrors: Promise<void> | undefined;

function readCatalogue(language: SupportedLanguage, namespace: Namespace) {
  return namespace === 'errors' && wholeErrors === undefined
    ? loadStartupErrors(language)
    : loadCatalogue(language, namespace);
}

/**
 * Fetches every error code's message (the whole `errors` catalogue) in each language loaded so far
 * and adds it to what i18next holds; screens re-render once it is there. Called by every page but
 * the first screens before it is drawn (lib/lazy-route.tsx), by the API client before it hands on a
 * failure whose message is not loaded yet (api/client.ts), and when a message key is missing.
 */
export function loadErrorMessages(): Promise<void> {
  wholeErrors ??= Promise.all(
    SUPPORTED_LANGUAGES.filter((language) => i18n.hasResourceBundle(language, 'errors')).map(
      async (language) => {
        i18n.addResourceBundle(language, 'errors', await loadCatalogue(language, 'errors'), true, true);
      },
    ),
  ).then(
    () => undefined,
    (error: unknown) => {
      // Asked again at the next need (the connection may be back).
      wholeErrors = undefined;
      throw error;
    },
  );
  return wholeErrors;
}

/** Whether `errors` holds a message for the code (an API error code such as "patient.notFound"). */
export function hasErrorMessage(code: string): boolean {
  return i18n.exists(code, { ns: 'errors' });
}

const catalogueBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, namespace, callback) {
    if (!isSupportedLanguage(language) || !isNamespace(namespace)) {
      callback(new Error(`no catalogue ${language}/${namespace}`), false);
      return;
    }
    // i18next retries a failed read a few times (a dropped connection) before giving up.
    readCatalogue(language, namespace).then(
      (catalogue) => {
        callback(null, catalogue);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), false);
      },
    );
  },
};

/**
 * A key read before its namespace has been fetched (`t('org:…')` from a component that did not
 * ask for `org`, or a message key from outside React): fetch the namespace; components re-render
 * once it is there (`bindI18n: 'loaded'`). An error message outside the startup part: fetch the
 * whole `errors` catalogue (`bindI18nStore: 'added'`).
 */
function loadMissingNamespace(_languages: readonly string[], namespace: string): void {
  if (namespace === 'errors' && wholeErrors === undefined && i18n.hasLoadedNamespace('errors')) {
    loadErrorMessages().catch(() => undefined);
    return;
  }
  if (isNamespace(namespace) && !i18n.hasLoadedNamespace(namespace)) void i18n.loadNamespaces(namespace);
}

export const i18n: I18n = i18next.createInstance();

export function initI18n(): Promise<unknown> {
  i18n.use(catalogueBackend).use(initReactI18next);
  i18n.on('languageChanged', applyLanguage);
  const language = readStoredLanguage();
  applyLanguage(language);
  // Without a page (the unit tests of pure modules) every catalogue is loaded up front, so that
  // `t` and changeLanguage answer at once, as they do in the console once a catalogue is there.
  const hasPage = typeof document !== 'undefined';
  if (!hasPage) wholeErrors = Promise.resolve();
  return i18n.init({
    lng: language,
    preload: hasPage ? false : [...SUPPORTED_LANGUAGES],
    // No fallback language: the catalogue tests keep vi's keys equal to en's, and a fallback would
    // fetch every en catalogue alongside the vi one.
    fallbackLng: false,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    ns: hasPage ? startupNamespaces(globalThis.location.pathname) : [...NAMESPACES],
    defaultNS: 'common',
    // React escapes output itself; escaping here would double-encode names such as "O'Brien".
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: loadMissingNamespace,
    react: { bindI18n: 'languageChanged loaded', bindI18nStore: 'added', useSuspense: true },
  });
}

/** The UI language, sent as Accept-Language so the server answers in it. */
export function currentLanguage(): SupportedLanguage {
  return isSupportedLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/**
 * Switches the language. i18next fetches the new language's catalogues for every namespace loaded
 * so far before it announces the change, so the screen re-renders once, already translated.
 */
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
