import type { Namespace, SupportedLanguage } from './languages.js';

export * from './languages.js';

type Catalogue = Record<string, unknown>;

/**
 * Fetched before any screen is drawn: the shell's and identity screens' strings (`common`) and the
 * API's messages. The account page's tabs (`account`), the roles page (`roles`) and the privacy
 * policy and terms (`legal`) have their own catalogues, fetched with their pages.
 */
export const STARTUP_NAMESPACES = ['common', 'errors'] as const satisfies readonly Namespace[];

/**
 * Fetched with them before a staff screen is drawn: what every area's first screen shows besides
 * `common` (which names the navigation and the level switcher): the area home's dashboard and
 * worklist (patients, monitoring) and the live layer with its SOS dialog (realtime, monitoring),
 * which must show at once. Every other page fetches its own namespace with its code.
 */
export const STAFF_SHELL_NAMESPACES = [
  'patients',
  'monitoring',
  'realtime',
] as const satisfies readonly Namespace[];

/*
 * One dynamic import per language and namespace: a bundler makes each catalogue its own file,
 * fetched only when asked for. Spelt out (not a template path) so every pair is checked by the
 * type: a namespace added to NAMESPACES without its two files here does not compile.
 */
const LOADERS: Record<SupportedLanguage, Record<Namespace, () => Promise<{ default: Catalogue }>>> = {
  en: {
    common: () => import('../locales/en/common.json', { with: { type: 'json' } }),
    errors: () => import('../locales/en/errors.json', { with: { type: 'json' } }),
    account: () => import('../locales/en/account.json', { with: { type: 'json' } }),
    legal: () => import('../locales/en/legal.json', { with: { type: 'json' } }),
    roles: () => import('../locales/en/roles.json', { with: { type: 'json' } }),
    tenants: () => import('../locales/en/tenants.json', { with: { type: 'json' } }),
    payments: () => import('../locales/en/payments.json', { with: { type: 'json' } }),
    org: () => import('../locales/en/org.json', { with: { type: 'json' } }),
    patients: () => import('../locales/en/patients.json', { with: { type: 'json' } }),
    doctors: () => import('../locales/en/doctors.json', { with: { type: 'json' } }),
    devices: () => import('../locales/en/devices.json', { with: { type: 'json' } }),
    imports: () => import('../locales/en/imports.json', { with: { type: 'json' } }),
    health: () => import('../locales/en/health.json', { with: { type: 'json' } }),
    realtime: () => import('../locales/en/realtime.json', { with: { type: 'json' } }),
    monitoring: () => import('../locales/en/monitoring.json', { with: { type: 'json' } }),
    patient: () => import('../locales/en/patient.json', { with: { type: 'json' } }),
    appHealth: () => import('../locales/en/appHealth.json', { with: { type: 'json' } }),
    appEntry: () => import('../locales/en/appEntry.json', { with: { type: 'json' } }),
    appAlerts: () => import('../locales/en/appAlerts.json', { with: { type: 'json' } }),
    appDevices: () => import('../locales/en/appDevices.json', { with: { type: 'json' } }),
    appSport: () => import('../locales/en/appSport.json', { with: { type: 'json' } }),
    appContacts: () => import('../locales/en/appContacts.json', { with: { type: 'json' } }),
    appProfiles: () => import('../locales/en/appProfiles.json', { with: { type: 'json' } }),
    appDoctors: () => import('../locales/en/appDoctors.json', { with: { type: 'json' } }),
    carePlan: () => import('../locales/en/carePlan.json', { with: { type: 'json' } }),
    appCarePlan: () => import('../locales/en/appCarePlan.json', { with: { type: 'json' } }),
    appAppointments: () => import('../locales/en/appAppointments.json', { with: { type: 'json' } }),
    schedules: () => import('../locales/en/schedules.json', { with: { type: 'json' } }),
    patientContacts: () => import('../locales/en/patientContacts.json', { with: { type: 'json' } }),
    notifications: () => import('../locales/en/notifications.json', { with: { type: 'json' } }),
    packages: () => import('../locales/en/packages.json', { with: { type: 'json' } }),
  },
  vi: {
    common: () => import('../locales/vi/common.json', { with: { type: 'json' } }),
    errors: () => import('../locales/vi/errors.json', { with: { type: 'json' } }),
    account: () => import('../locales/vi/account.json', { with: { type: 'json' } }),
    legal: () => import('../locales/vi/legal.json', { with: { type: 'json' } }),
    roles: () => import('../locales/vi/roles.json', { with: { type: 'json' } }),
    tenants: () => import('../locales/vi/tenants.json', { with: { type: 'json' } }),
    payments: () => import('../locales/vi/payments.json', { with: { type: 'json' } }),
    org: () => import('../locales/vi/org.json', { with: { type: 'json' } }),
    patients: () => import('../locales/vi/patients.json', { with: { type: 'json' } }),
    doctors: () => import('../locales/vi/doctors.json', { with: { type: 'json' } }),
    devices: () => import('../locales/vi/devices.json', { with: { type: 'json' } }),
    imports: () => import('../locales/vi/imports.json', { with: { type: 'json' } }),
    health: () => import('../locales/vi/health.json', { with: { type: 'json' } }),
    realtime: () => import('../locales/vi/realtime.json', { with: { type: 'json' } }),
    monitoring: () => import('../locales/vi/monitoring.json', { with: { type: 'json' } }),
    patient: () => import('../locales/vi/patient.json', { with: { type: 'json' } }),
    appHealth: () => import('../locales/vi/appHealth.json', { with: { type: 'json' } }),
    appEntry: () => import('../locales/vi/appEntry.json', { with: { type: 'json' } }),
    appAlerts: () => import('../locales/vi/appAlerts.json', { with: { type: 'json' } }),
    appDevices: () => import('../locales/vi/appDevices.json', { with: { type: 'json' } }),
    appSport: () => import('../locales/vi/appSport.json', { with: { type: 'json' } }),
    appContacts: () => import('../locales/vi/appContacts.json', { with: { type: 'json' } }),
    appProfiles: () => import('../locales/vi/appProfiles.json', { with: { type: 'json' } }),
    appDoctors: () => import('../locales/vi/appDoctors.json', { with: { type: 'json' } }),
    carePlan: () => import('../locales/vi/carePlan.json', { with: { type: 'json' } }),
    appCarePlan: () => import('../locales/vi/appCarePlan.json', { with: { type: 'json' } }),
    appAppointments: () => import('../locales/vi/appAppointments.json', { with: { type: 'json' } }),
    schedules: () => import('../locales/vi/schedules.json', { with: { type: 'json' } }),
    patientContacts: () => import('../locales/vi/patientContacts.json', { with: { type: 'json' } }),
    notifications: () => import('../locales/vi/notifications.json', { with: { type: 'json' } }),
    packages: () => import('../locales/vi/packages.json', { with: { type: 'json' } }),
  },
};

/*
 * The startup part of each language's `errors` catalogue (STARTUP_ERROR_DOMAINS): `?startup` asks
 * the build for a module holding only that part (vite-plugin.ts, in the console's build and the
 * unit tests).
 */
const STARTUP_ERROR_LOADERS: Record<SupportedLanguage, () => Promise<{ default: Catalogue }>> = {
  en: () => import('../locales/en/errors.json?startup', { with: { type: 'json' } }),
  vi: () => import('../locales/vi/errors.json?startup', { with: { type: 'json' } }),
};

/** The `errors` messages the console needs before its first screen, in one language. */
export async function loadStartupErrors(language: SupportedLanguage): Promise<Catalogue> {
  return (await STARTUP_ERROR_LOADERS[language]()).default;
}

/**
 * Canadian English's own strings, per namespace (only where they differ from en; everything else
 * falls back to en). A namespace not listed has none.
 */
const EN_CA_LOADERS: Partial<Record<Namespace, () => Promise<{ default: Catalogue }>>> = {
  patient: () => import('../locales/en-CA/patient.json', { with: { type: 'json' } }),
  appHealth: () => import('../locales/en-CA/appHealth.json', { with: { type: 'json' } }),
  appEntry: () => import('../locales/en-CA/appEntry.json', { with: { type: 'json' } }),
  appAlerts: () => import('../locales/en-CA/appAlerts.json', { with: { type: 'json' } }),
  appDevices: () => import('../locales/en-CA/appDevices.json', { with: { type: 'json' } }),
  appSport: () => import('../locales/en-CA/appSport.json', { with: { type: 'json' } }),
  appContacts: () => import('../locales/en-CA/appContacts.json', { with: { type: 'json' } }),
  appProfiles: () => import('../locales/en-CA/appProfiles.json', { with: { type: 'json' } }),
  appDoctors: () => import('../locales/en-CA/appDoctors.json', { with: { type: 'json' } }),
  appCarePlan: () => import('../locales/en-CA/appCarePlan.json', { with: { type: 'json' } }),
  appAppointments: () => import('../locales/en-CA/appAppointments.json', { with: { type: 'json' } }),
};

/** Canadian English's strings of a namespace, to lay over en's (empty when it has none). */
export async function loadEnCaOverrides(namespace: Namespace): Promise<Catalogue> {
  const loader = EN_CA_LOADERS[namespace];
  return loader === undefined ? {} : (await loader()).default;
}

/** One catalogue (a language's namespace), fetched on first use. */
export async function loadCatalogue(language: SupportedLanguage, namespace: Namespace): Promise<Catalogue> {
  return (await LOADERS[language][namespace]()).default;
}
