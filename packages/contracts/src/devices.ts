import { z } from 'zod';
import { pageQuerySchema } from './envelope.js';
// Where a device's readings come from (spec §3): shared with the vitals.
import { DATA_SOURCES } from './vitals.js';

// Devices (spec §2 device management, §3 Device, §4 device and app states) and their connection
// and phone histories (spec §7 "Health prefix").

/** Watch models the product supports (spec §3). */
export const DEVICE_MODELS = ['V19', 'GT2', 'GT5', 'J2025E', 'J2025B'] as const;
export type DeviceModel = (typeof DEVICE_MODELS)[number];

/** Connection status codes (spec §3) and what each means. -1 until the first connection. */
export const CONNECTION_STATUS = { connected: 1, disconnected: 0, notActivated: -1, unknown: 2 } as const;
export const CONNECTION_STATUSES = [1, 0, -1, 2] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export const connectionStatusSchema = z.literal(CONNECTION_STATUSES);
export const CONNECTION_STATUS_NAMES = {
  1: 'CONNECTED',
  0: 'DISCONNECTED',
  [-1]: 'NOT_ACTIVATED',
  2: 'UNKNOWN',
} as const satisfies Record<ConnectionStatus, string>;

/** The patient app's state on the phone (spec §4 "App status"). NO_SYNC: no sync, or not active. */
export const APP_STATUSES = ['ONLINE', 'OFFLINE', 'KILLED', 'NO_SYNC'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];

export const PHONE_OS = ['IOS', 'ANDROID'] as const;
export type PhoneOs = (typeof PHONE_OS)[number];

// Identifiers -------------------------------------------------------------------------------------

const MAC_PATTERN = /^[0-9A-F]{2}([:-]?)[0-9A-F]{2}(?:\1[0-9A-F]{2}){4}$/;

/**
 * A MAC address in its stored form (upper case, colon separated), or null when it is not one.
 * Accepts colons, hyphens or no separator (AA:BB:CC:DD:EE:FF, aa-bb-cc-dd-ee-ff, AABBCCDDEEFF).
 */
export function normalizeMac(input: string): string | null {
  const value = input.trim().toUpperCase();
  if (!MAC_PATTERN.test(value)) return null;
  const hex = value.replace(/[:-]/g, '');
  return hex.match(/.{2}/g)?.join(':') ?? null;
}

/** An IMEI: 15 digits whose last one is the Luhn check digit of the first 14. */
export function isValidImei(input: string): boolean {
  if (!/^\d{15}$/.test(input)) return false;
  let sum = 0;
  for (let index = 0; index < 15; index++) {
    let digit = Number(input[14 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function isDeviceModel(value: string): value is DeviceModel {
  return (DEVICE_MODELS as readonly string[]).includes(value);
}

// Shared text rules ------------------------------------------------------------------------------

function hasNoControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 32 || code === 127) return false;
  }
  return true;
}
const controlCharacterIssue = { error: 'must not contain control characters' };
const plainText = (max: number) =>
  z.string().trim().max(max).refine(hasNoControlCharacters, controlCharacterIssue);
const isoInstant = z.iso.datetime({ offset: true });

// List --------------------------------------------------------------------------------------------

export const DEVICE_SORT_FIELDS = [
  'created',
  'model',
  'serialNumber',
  'macAddress',
  'lastConnected',
  'lastSync',
  'status',
] as const;
export const SORT_TYPES = ['asc', 'desc'] as const;

/** Device list and export filters (GET /account/devices, the role-prefixed lookups, the export). */
export const deviceListQuerySchema = pageQuerySchema.extend({
  search: plainText(80)
    .optional()
    .describe('Part of the IMEI, MAC address, serial number or account user name'),
  category: z.enum(DEVICE_MODELS).optional().describe('Device category: the model'),
  status: z.coerce
    .number()
    .pipe(connectionStatusSchema)
    .optional()
    .describe('Connection status: 1 connected, 0 disconnected, -1 not activated, 2 unknown'),
  appStatus: z.enum(APP_STATUSES).optional(),
  bound: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: only devices bound to a patient; false: only unbound ones'),
  sortField: z.enum(DEVICE_SORT_FIELDS).default('created'),
  sortType: z.enum(SORT_TYPES).default('desc'),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;

/** The smadmin health-center variant: one health center, optionally one account's devices. */
export const centerDeviceListQuerySchema = deviceListQuerySchema.extend({
  mhscId: z.uuid().describe('The health center whose patients’ devices are listed'),
  userId: z.uuid().optional().describe('Only devices bound to the patient whose user account this is'),
});
export type CenterDeviceListQuery = z.infer<typeof centerDeviceListQuerySchema>;

const patientRefSchema = z.object({ id: z.uuid(), patientCode: z.string(), fullName: z.string() });

export const deviceSummarySchema = z.object({
  id: z.uuid(),
  model: z.enum(DEVICE_MODELS),
  serialNumber: z.string(),
  macAddress: z.string().nullable(),
  imei: z.string().nullable(),
  /** The account the device is bound to (user name: email, phone or patient code). */
  accountUsername: z.string().nullable(),
  patient: patientRefSchema.nullable(),
  connectionStatus: connectionStatusSchema,
  appStatus: z.enum(APP_STATUSES),
  dataSource: z.enum(DATA_SOURCES),
  firstConnectedAt: z.iso.datetime().nullable(),
  lastConnectedAt: z.iso.datetime().nullable(),
  lastSyncedAt: z.iso.datetime().nullable(),
  osVersion: z.string(),
  firmwareVersion: z.string(),
  /** Set at the first connection; an activated device cannot be edited or deleted. */
  activatedAt: z.iso.datetime().nullable(),
  importedAt: z.iso.datetime(),
  importId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;
export const deviceDetailSchema = deviceSummarySchema;
export type DeviceDetail = DeviceSummary;

// Create, edit, bind -------------------------------------------------------------------------------

/**
 * A device as a person enters it. MAC and IMEI are checked by the server with their own codes
 * (device.invalidMac, device.invalidImei; the console checks the same with normalizeMac and
 * isValidImei), the model with device.unsupportedType; at least one of MAC and IMEI is needed.
 */
export const deviceInputSchema = z.object({
  model: plainText(20)
    .min(1)
    .describe(`One of ${DEVICE_MODELS.join(', ')} (device.unsupportedType otherwise)`),
  serialNumber: plainText(64).min(1),
  macAddress: plainText(32)
    .nullish()
    .describe(
      'AA:BB:CC:DD:EE:FF (also accepted with hyphens, without separators or in lower case); stored upper case with colons',
    ),
  imei: plainText(32).nullish().describe('15 digits with a valid Luhn check digit'),
  dataSource: z.enum(DATA_SOURCES).default('WIRELESS_DEVICE'),
});
export type DeviceInput = z.infer<typeof deviceInputSchema>;

export const deviceBindSchema = z.object({ patientId: z.uuid() });

export const disconnectCountSchema = z.object({ count: z.number().int() });

// Histories ---------------------------------------------------------------------------------------

export const CONNECTION_HISTORY_SORT_FIELDS = [
  'connectedAt',
  'disconnectedAt',
  'deviceName',
  'model',
  'status',
  'appVersion',
  'phoneName',
] as const;

/** GET /health/device-connection-history/searchByUsername (spec §7, same query names). */
export const connectionHistoryQuerySchema = pageQuerySchema
  .extend({
    username: plainText(120)
      .min(1)
      .optional()
      .describe('The account user name (email, phone or patient code); this or deviceId is required'),
    deviceId: z.uuid().optional().describe('One device’s connections (the device detail page)'),
    sortField: z.enum(CONNECTION_HISTORY_SORT_FIELDS).default('connectedAt'),
    sortType: z.enum(SORT_TYPES).default('desc'),
    search: plainText(80)
      .optional()
      .describe('Part of the device name, MAC address, phone name or app version'),
    status: z.coerce.number().pipe(connectionStatusSchema).optional(),
    start: isoInstant.optional().describe('Connections from this instant on'),
    end: isoInstant.optional().describe('Connections up to this instant'),
    model: z.enum(DEVICE_MODELS).optional(),
  })
  .refine((query) => query.username !== undefined || query.deviceId !== undefined, {
    error: 'username or deviceId is required',
    path: ['username'],
  });
export type ConnectionHistoryQuery = z.infer<typeof connectionHistoryQuerySchema>;

export const connectionHistoryItemSchema = z.object({
  id: z.uuid(),
  deviceId: z.uuid(),
  username: z.string(),
  deviceName: z.string(),
  model: z.enum(DEVICE_MODELS),
  macAddress: z.string().nullable(),
  status: connectionStatusSchema,
  connectedAt: z.iso.datetime(),
  disconnectedAt: z.iso.datetime().nullable(),
  appVersion: z.string(),
  phoneName: z.string(),
});
export type ConnectionHistoryItem = z.infer<typeof connectionHistoryItemSchema>;

export const PHONE_HISTORY_SORTS = [
  'recordedAt,desc',
  'recordedAt,asc',
  'phoneName,asc',
  'phoneName,desc',
  'appVersion,asc',
  'appVersion,desc',
  'status,asc',
  'status,desc',
] as const;

/** GET /health/phone-history/searchByUsername (spec §7, same query names; sort is "field,direction"). */
export const phoneHistoryQuerySchema = pageQuerySchema.extend({
  username: plainText(120)
    .min(1)
    .optional()
    .describe('The account user name; without it, every visible account'),
  search: plainText(80).optional().describe('Part of the user name, phone name, OS version or app version'),
  status: z.enum(APP_STATUSES).optional(),
  sort: z.enum(PHONE_HISTORY_SORTS).default('recordedAt,desc'),
  phoneName: plainText(120).optional(),
  appVersion: plainText(40).optional(),
  start: isoInstant.optional(),
  end: isoInstant.optional(),
});
export type PhoneHistoryQuery = z.infer<typeof phoneHistoryQuerySchema>;

export const phoneHistoryItemSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  phoneName: z.string(),
  os: z.enum(PHONE_OS),
  osVersion: z.string(),
  appVersion: z.string(),
  status: z.enum(APP_STATUSES),
  recordedAt: z.iso.datetime(),
});
export type PhoneHistoryItem = z.infer<typeof phoneHistoryItemSchema>;

/** Optional user name for the name and version lists (one account, or every visible one). */
export const usernameFilterSchema = z.object({ username: plainText(120).min(1).optional() });
export const requiredUsernameSchema = z.object({ username: plainText(120).min(1) });
export const phoneAllQuerySchema = pageQuerySchema.extend({ username: plainText(120).min(1).optional() });
export const nameListSchema = z.array(z.string());
