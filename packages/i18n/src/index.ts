import enErrors from '../locales/en/errors.json' with { type: 'json' };
import viErrors from '../locales/vi/errors.json' with { type: 'json' };
import enCommon from '../locales/en/common.json' with { type: 'json' };
import viCommon from '../locales/vi/common.json' with { type: 'json' };
import enAccount from '../locales/en/account.json' with { type: 'json' };
import viAccount from '../locales/vi/account.json' with { type: 'json' };
import enLegal from '../locales/en/legal.json' with { type: 'json' };
import viLegal from '../locales/vi/legal.json' with { type: 'json' };
import enRoles from '../locales/en/roles.json' with { type: 'json' };
import viRoles from '../locales/vi/roles.json' with { type: 'json' };
import enOrg from '../locales/en/org.json' with { type: 'json' };
import viOrg from '../locales/vi/org.json' with { type: 'json' };
import enTenants from '../locales/en/tenants.json' with { type: 'json' };
import viTenants from '../locales/vi/tenants.json' with { type: 'json' };
import enPayments from '../locales/en/payments.json' with { type: 'json' };
import viPayments from '../locales/vi/payments.json' with { type: 'json' };
import enPatients from '../locales/en/patients.json' with { type: 'json' };
import viPatients from '../locales/vi/patients.json' with { type: 'json' };
import enDoctors from '../locales/en/doctors.json' with { type: 'json' };
import viDoctors from '../locales/vi/doctors.json' with { type: 'json' };
import enDevices from '../locales/en/devices.json' with { type: 'json' };
import viDevices from '../locales/vi/devices.json' with { type: 'json' };
import enImports from '../locales/en/imports.json' with { type: 'json' };
import viImports from '../locales/vi/imports.json' with { type: 'json' };
import enMonitoring from '../locales/en/monitoring.json' with { type: 'json' };
import viMonitoring from '../locales/vi/monitoring.json' with { type: 'json' };
import enHealth from '../locales/en/health.json' with { type: 'json' };
import viHealth from '../locales/vi/health.json' with { type: 'json' };
import enRealtime from '../locales/en/realtime.json' with { type: 'json' };
import viRealtime from '../locales/vi/realtime.json' with { type: 'json' };
import enPatient from '../locales/en/patient.json' with { type: 'json' };
import viPatient from '../locales/vi/patient.json' with { type: 'json' };
import enAppHealth from '../locales/en/appHealth.json' with { type: 'json' };
import viAppHealth from '../locales/vi/appHealth.json' with { type: 'json' };
import enAppEntry from '../locales/en/appEntry.json' with { type: 'json' };
import viAppEntry from '../locales/vi/appEntry.json' with { type: 'json' };
import enAppAlerts from '../locales/en/appAlerts.json' with { type: 'json' };
import viAppAlerts from '../locales/vi/appAlerts.json' with { type: 'json' };
import enAppDevices from '../locales/en/appDevices.json' with { type: 'json' };
import viAppDevices from '../locales/vi/appDevices.json' with { type: 'json' };
import enAppSport from '../locales/en/appSport.json' with { type: 'json' };
import viAppSport from '../locales/vi/appSport.json' with { type: 'json' };
import enAppContacts from '../locales/en/appContacts.json' with { type: 'json' };
import viAppContacts from '../locales/vi/appContacts.json' with { type: 'json' };
import enAppProfiles from '../locales/en/appProfiles.json' with { type: 'json' };
import viAppProfiles from '../locales/vi/appProfiles.json' with { type: 'json' };
import enAppDoctors from '../locales/en/appDoctors.json' with { type: 'json' };
import enCarePlan from '../locales/en/carePlan.json' with { type: 'json' };
import enAppCarePlan from '../locales/en/appCarePlan.json' with { type: 'json' };
import viAppDoctors from '../locales/vi/appDoctors.json' with { type: 'json' };
import viCarePlan from '../locales/vi/carePlan.json' with { type: 'json' };
import viAppCarePlan from '../locales/vi/appCarePlan.json' with { type: 'json' };
import enAppAppointments from '../locales/en/appAppointments.json' with { type: 'json' };
import viAppAppointments from '../locales/vi/appAppointments.json' with { type: 'json' };
import enSchedules from '../locales/en/schedules.json' with { type: 'json' };
import viSchedules from '../locales/vi/schedules.json' with { type: 'json' };
import enPatientContacts from '../locales/en/patientContacts.json' with { type: 'json' };
import viPatientContacts from '../locales/vi/patientContacts.json' with { type: 'json' };
import enNotifications from '../locales/en/notifications.json' with { type: 'json' };
import viNotifications from '../locales/vi/notifications.json' with { type: 'json' };
import enPackages from '../locales/en/packages.json' with { type: 'json' };
import viPackages from '../locales/vi/packages.json' with { type: 'json' };

import type { SupportedLanguage } from './languages.js';

export * from './languages.js';

/**
 * Every catalogue, bundled (the server, and the tests that compare catalogues); the console loads
 * them one language and namespace at a time instead (load.ts).
 * i18next-shaped resources: one namespace per catalogue file. `common` holds the shell and
 * identity screens, `errors` the API's messages, `account` the account page's tabs (activity with
 * the audit actions' labels, password, preferences, deactivation, FAQ, legal), `legal` the privacy
 * policy and terms, `roles` the roles page with the permissions' labels, `tenants` the platform's
 * tenant and trial-request screens, `payments` the payment providers' result messages and the sandbox payment page, `org` the scope, health-center, staff and level screens; `patients` (patients and the
 * dashboard), `doctors` (doctors, care teams, requests), `devices` (devices and their histories)
 * and `imports` (bulk imports and exports) the patients-and-devices screens; `health` the patient's
 * health tabs (charts, ECG, sleep, thresholds); `realtime` the live layer (connection state, SOS popup); `monitoring` the SOS call list, patient in
 * SOS, tickets and SMS and call management; `patient` the patient app (apps/patient): its shell, sign-in and home; `appHealth` its health
 * pages and reports, `appEntry` manual and photo entry and visitor mode, `appAlerts` its alerts,
 * SOS and notifications, `appDevices` its watches and sync, `appContacts` followers, invitations and doctors, `appProfiles` sub-users and the profile switcher, `appDoctors` doctor search and care requests, `appSport` sport
 * modes and weight; `carePlan` the console's prescriptions, doses and adherence, `appCarePlan` the
 * app's prescriptions and today's doses, `appAppointments` the app's appointments (booking, list, detail, cancelling); `schedules` the console's doctor schedules, their approval and calendars; `patientContacts` the console's
 * followers and sub-users of a patient (apart from `patients`, which every area's first screen loads);
 * `notifications` the notification centre of both the console and the app (bell, inbox, mandatory
 * notices, preferences; each kind's text rendered in the reader's language); `packages` the console's
 * service packages and a patient's package.
 */
export const resources = {
  en: {
    common: enCommon,
    errors: enErrors,
    account: enAccount,
    legal: enLegal,
    roles: enRoles,
    tenants: enTenants,
    payments: enPayments,
    org: enOrg,
    patients: enPatients,
    doctors: enDoctors,
    devices: enDevices,
    imports: enImports,
    health: enHealth,
    realtime: enRealtime,
    monitoring: enMonitoring,
    patient: enPatient,
    appHealth: enAppHealth,
    appEntry: enAppEntry,
    appAlerts: enAppAlerts,
    appDevices: enAppDevices,
    appSport: enAppSport,
    appContacts: enAppContacts,
    appProfiles: enAppProfiles,
    appDoctors: enAppDoctors,
    carePlan: enCarePlan,
    appCarePlan: enAppCarePlan,
    appAppointments: enAppAppointments,
    schedules: enSchedules,
    patientContacts: enPatientContacts,
    notifications: enNotifications,
    packages: enPackages,
  },
  vi: {
    common: viCommon,
    errors: viErrors,
    account: viAccount,
    legal: viLegal,
    roles: viRoles,
    tenants: viTenants,
    payments: viPayments,
    org: viOrg,
    patients: viPatients,
    doctors: viDoctors,
    devices: viDevices,
    imports: viImports,
    health: viHealth,
    realtime: viRealtime,
    monitoring: viMonitoring,
    patient: viPatient,
    appHealth: viAppHealth,
    appEntry: viAppEntry,
    appAlerts: viAppAlerts,
    appDevices: viAppDevices,
    appSport: viAppSport,
    appContacts: viAppContacts,
    appProfiles: viAppProfiles,
    appDoctors: viAppDoctors,
    carePlan: viCarePlan,
    appCarePlan: viAppCarePlan,
    appAppointments: viAppAppointments,
    schedules: viSchedules,
    patientContacts: viPatientContacts,
    notifications: viNotifications,
    packages: viPackages,
  },
} as const;

type Catalogue = Record<string, unknown>;

function lookup(catalogue: Catalogue, dottedKey: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of dottedKey.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Catalogue)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The message for a catalogue key: in the errors namespace, or in another one when the key names
 * it ("carePlan:problems.dose.range": rule messages kept with their screens, so the errors
 * catalogue every first screen loads stays small). Undefined when there is none.
 */
export function findErrorMessage(key: string, language: SupportedLanguage): string | undefined {
  const colon = key.indexOf(':');
  const namespace = colon === -1 ? 'errors' : key.slice(0, colon);
  const path = colon === -1 ? key : key.slice(colon + 1);
  if (!(namespace in resources[language])) return undefined;
  const name = namespace as keyof (typeof resources)['en'];
  return lookup(resources[language][name], path) ?? lookup(resources.en[name], path);
}

/** Message for an API error code (e.g. "auth.unauthorized") in the given language. */
export function translateError(code: string, language: SupportedLanguage): string {
  return (
    lookup(resources[language].errors, code) ??
    lookup(resources.en.errors, code) ??
    lookup(resources[language].errors, 'common.default') ??
    'Something went wrong. Please contact technical support'
  );
}
