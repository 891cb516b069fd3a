/** Devices and their histories (migrations 0001, 0010). Mirrors the SQL; schema.int.test.ts checks drift. */
import { pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
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
  },
  (table) => [primaryKey({ columns: [table.tenantId, table.id] })],
);
