/** Devices and their histories (migrations 0001, 0010, 0035). Mirrors the SQL; schema.int.test.ts checks drift. */
import { jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './schema-columns.js';

export const devices = pgTable(
  'devices',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    model: text().notNull(),
    serialNumber: text('serial_number').notNull(),
    macAddress: text('mac_address'),
    imei: text(),
    patientId: uuid('patient_id'),
    connectionStatus: smallint('connection_status').notNull().default(-1),
    importedAt: timestamps('imported_at').notNull().defaultNow(),
    accountUsername: text('account_username'),
    firstConnectedAt: timestamps('first_connected_at'),
    lastConnectedAt: timestamps('last_connected_at'),
    osVersion: text('os_version').notNull().default(''),
    firmwareVersion: text('firmware_version').notNull().default(''),
    appStatus: text('app_status').notNull().default('NO_SYNC'),
    lastSyncedAt: timestamps('last_synced_at'),
    dataSource: text('data_source').notNull().default('WIRELESS_DEVICE'),
    activatedAt: timestamps('activated_at'),
    /** When it was bound to its current patient (migration 0025); null when unbound or unknown. */
    boundAt: timestamps('bound_at'),
    createdAt: timestamps('created_at').notNull().defaultNow(),
    updatedAt: timestamps('updated_at').notNull().defaultNow(),
    importId: uuid('import_id'),
    /** The patient app's watch settings (migration 0035); {} until set, cleared on unbinding. */
    watchSettings: jsonb('watch_settings').$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const deviceConnectionHistory = pgTable(
  'device_connection_history',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    deviceId: uuid('device_id').notNull(),
    username: text().notNull(),
    deviceName: text('device_name').notNull().default(''),
    model: text().notNull(),
    status: smallint().notNull(),
    connectedAt: timestamps('connected_at').notNull(),
    disconnectedAt: timestamps('disconnected_at'),
    appVersion: text('app_version').notNull().default(''),
    phoneName: text('phone_name').notNull().default(''),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);

export const phoneHistory = pgTable(
  'phone_history',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid().notNull(),
    patientId: uuid('patient_id'),
    username: text().notNull(),
    phoneName: text('phone_name').notNull(),
    os: text().notNull(),
    osVersion: text('os_version').notNull().default(''),
    appVersion: text('app_version').notNull().default(''),
    status: text().notNull(),
    recordedAt: timestamps('recorded_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
