import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { APP_LANGUAGES, baseLanguageOf, type AppLanguage } from '@rpm/i18n/languages';
import { loadCatalogue, loadEnCaOverrides } from '@rpm/i18n/load';

/**
 * The app's namespaces: its own screens, the API's messages, measure, unit and status names, and
 * one per feature (health pages, entry, alerts, devices, sport).
 */
const NAMESPACES = ['patient', 'errors', 'health', 'appHealth', 'appEntry', 'appAlerts', 'appDevices', 'appSport', 'appContacts', 'appProfiles', 'appDoctors', 'appCarePlan', 'appAppointments', 'payments'] as const;
const STORAGE_KEY = 'rpm.patient.language';

/** The language kept from the last visit (en, vi or en-CA); en on a first visit. */
export function storedLanguage(storage: Pick<Storage, 'getItem'> = localStorage): AppLanguage {
  const value = storage.getItem(STORAGE_KEY);
  return (APP_LANGUAGES as readonly string[]).includes(value ?? '') ? (value as AppLanguage) : 'en';
}

export function currentLanguage(): AppLanguage {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return (APP_LANGUAGES as readonly string[]).includes(language) ? (language as AppLanguage) : 'en';
}

/** What the server is sent as Accept-Language: en-CA goes as en (spec §5). */
export function serverLanguage(): 'en' | 'vi' {
  return baseLanguageOf(currentLanguage());
}

async function addCatalogues(language: AppLanguage): Promise<void> {
  const base = baseLanguageOf(language);
  await Promise.all(
    NAMESPACES.map(async (namespace) => {
      if (!i18next.hasResourceBundle(base, namespace))
        i18next.addResourceBundle(base, namespace, await loadCatalogue(base, namespace));
      if (language === 'en-CA' && !i18next.hasResourceBundle('en-CA', namespace))
        i18next.addResourceBundle('en-CA', namespace, await loadEnCaOverrides(namespace));
    }),
  );
}

export async function initI18n(): Promise<void> {
  const language = storedLanguage();
  await i18next.use(initReactI18next).init({
    lng: language,
    // Canadian English holds only what differs; the rest comes from en.
    fallbackLng: { 'en-CA': ['en'], default: ['en'] },
    supportedLngs: [...APP_LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: 'patient',
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await addCatalogues(language);
  document.documentElement.lang = language;
}

export async function changeLanguage(language: AppLanguage): Promise<void> {
  await addCatalogues(language);
  localStorage.setItem(STORAGE_KEY, language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}
