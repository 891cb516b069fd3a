/**
 * The console's languages and catalogue names, with no catalogue in them: a module that imports
 * only these stays free of the message files (the console loads those one at a time, load.ts).
 */
export const SUPPORTED_LANGUAGES = ['en', 'vi'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: SupportedLanguage = 'en';

/**
 * The patient app's languages: the console's two plus Canadian English, whose catalogues hold
 * only the strings that differ and fall back to en for the rest (and which the server is sent as
 * en, spec §5).
 */
export const APP_LANGUAGES = ['en', 'vi', 'en-CA'] as const;
export type AppLanguage = (typeof APP_LANGUAGES)[number];

/** The supported language an app language's catalogues fall back to (and that the server is sent). */
export function baseLanguageOf(language: AppLanguage): SupportedLanguage {
  return language === 'en-CA' ? 'en' : language;
}

/** One namespace per catalogue file (locales/<language>/<namespace>.json); index.ts says what each holds. */
export const NAMESPACES = [
  'common',
  'errors',
  'account',
  'legal',
  'roles',
  'payments',
  'tenants',
  'org',
  'patients',
  'doctors',
  'devices',
  'imports',
  'health',
  'realtime',
  'monitoring',
  'patient',
  'appHealth',
  'appEntry',
  'appAlerts',
  'appDevices',
  'appSport',
  'appContacts',
  'appProfiles',
  'appDoctors',
  'carePlan',
  'appCarePlan',
  'appAppointments',
  'schedules',
  'patientContacts',
  'notifications',
  'packages',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/**
 * The part of the `errors` catalogue the console fetches before its first screen, by the code's
 * domain (the segment before the first dot): the messages it shows with no answer from the server
 * (`common`: the network is down, maintenance, the default) and the session's (`auth`). Every other
 * domain's messages come with the whole catalogue, which the console fetches with the pages that
 * can meet them and before it hands on a failure whose message the startup part lacks
 * (apps/console/src/i18n.ts). A new error code needs nothing here: its message goes into
 * errors.json as always.
 */
export const STARTUP_ERROR_DOMAINS = ['common', 'auth'] as const;

/** The startup part of an `errors` catalogue (STARTUP_ERROR_DOMAINS). */
export function startupErrorPart(catalogue: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    STARTUP_ERROR_DOMAINS.filter((domain) => domain in catalogue).map((domain) => [
      domain,
      catalogue[domain],
    ]),
  );
}

/**
 * Picks a supported language from a language tag or an Accept-Language header.
 * The Canadian English variant ("can", "en-CA") is served as en (spec §5).
 */
export function pickLanguage(header: string | undefined | null): SupportedLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    const base = tag.split('-')[0];
    if (base === 'vi') return 'vi';
    if (base === 'en' || base === 'can') return 'en';
  }
  return DEFAULT_LANGUAGE;
}
