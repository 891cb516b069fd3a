import type { DeviceModel } from '@rpm/contracts';
import { resources, translateError, type SupportedLanguage } from '@rpm/i18n';
import { inArray, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { devices } from '../../db/schema.js';
import type {
  ImportCell,
  ImportContext,
  ImportKind,
  NumberedRow,
  ParsedRow,
  RowFailure,
} from '../imports/kind.js';
import { checkDeviceIdentity } from './device-input.js';
import * as store from './store.js';

/** The template's columns, in order (spec §5: account name, MAC, device type, serial). Never translated. */
export const DEVICE_IMPORT_HEADERS = ['Account name', 'MAC', 'Device type', 'Serial'] as const;

const FIELD_COLUMNS = {
  accountName: 'Account name',
  macAddress: 'MAC',
  model: 'Device type',
  serialNumber: 'Serial',
} as const;

/** A valid row: the device's identity and the account name it is bound to. */
export interface DeviceImportRow {
  accountName: string;
  model: DeviceModel;
  serialNumber: string;
  macAddress: string;
}

type Reasons = (typeof resources)['en']['devices']['import']['reasons'];

function reasonText(
  language: SupportedLanguage,
  key: keyof Reasons,
  values: Record<string, string | number> = {},
): string {
  const template = resources[language].devices.import.reasons[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** "Column: message", the message from the API's error catalogue in the user's language. */
const columnReason = (column: string, code: string, language: SupportedLanguage) =>
  `${column}: ${translateError(code, language)}`;

function textOf(cell: ImportCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/** Checks one row without the database: every column required, MAC format, supported device type. */
export function parseDeviceRow(
  cells: readonly ImportCell[],
  language: SupportedLanguage,
): ParsedRow<DeviceImportRow> {
  const [account, mac, type, serial] = cells;
  const accountName = textOf(account);
  const macText = textOf(mac);
  const modelText = textOf(type);
  const serialNumber = textOf(serial);
  const reasons: string[] = [];
  const required = (column: string) => reasons.push(columnReason(column, 'validation.required', language));
  if (accountName === '') required(FIELD_COLUMNS.accountName);
  else if (accountName.length > 120)
    reasons.push(columnReason(FIELD_COLUMNS.accountName, 'validation.tooBig', language));
  if (macText === '') required(FIELD_COLUMNS.macAddress);
  if (modelText === '') required(FIELD_COLUMNS.model);
  if (serialNumber === '') required(FIELD_COLUMNS.serialNumber);
  else if (serialNumber.length > 64)
    reasons.push(columnReason(FIELD_COLUMNS.serialNumber, 'validation.tooBig', language));
  const checked = checkDeviceIdentity({
    model: modelText === '' ? 'V19' : modelText,
    serialNumber: serialNumber === '' ? '-' : serialNumber,
    macAddress: macText === '' ? '00:00:00:00:00:00' : macText,
  });
  if (!checked.ok) {
    // In column order: MAC, then device type.
    for (const field of ['macAddress', 'model'] as const) {
      for (const problem of checked.problems.filter((candidate) => candidate.field === field))
        reasons.push(columnReason(FIELD_COLUMNS[field], problem.code, language));
    }
  }
  if (reasons.length > 0 || !checked.ok || checked.value.macAddress === null) return { ok: false, reasons };
  return {
    ok: true,
    value: {
      accountName,
      model: checked.value.model,
      serialNumber: checked.value.serialNumber,
      macAddress: checked.value.macAddress,
    },
  };
}

/** Devices already stored with any of these MACs or serial numbers (as far as the transaction sees). */
async function existingIdentifiers(
  tx: TenantTransaction,
  rows: readonly DeviceImportRow[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const macs = rows.map((row) => row.macAddress);
  const serials = rows.map((row) => `${row.model}\n${row.serialNumber}`);
  const byMac = await tx
    .select({ mac: devices.macAddress })
    .from(devices)
    .where(inArray(devices.macAddress, macs));
  const serialKey = sql<string>`${devices.model} || chr(10) || ${devices.serialNumber}`;
  const bySerial = await tx.select({ key: serialKey }).from(devices).where(inArray(serialKey, serials));
  return new Set([
    ...byMac.map((row) => `mac:${row.mac ?? ''}`),
    ...bySerial.map((row) => `serial:${row.key}`),
  ]);
}

const INSERT_CHUNK = 1000;

/**
 * Stores a batch: binds each device to the visible patient whose account (email, phone) or patient
 * code is the account name, refuses duplicates (in the tenant, and earlier in the file) per row,
 * and inserts the rest with multi-row INSERTs. A clash with a device the caller cannot see is
 * still caught by the unique indexes (ON CONFLICT DO NOTHING) and reported as existing.
 */
export async function insertDeviceBatch(
  tx: TenantTransaction,
  rows: readonly NumberedRow<DeviceImportRow>[],
  context: ImportContext,
): Promise<RowFailure[]> {
  const { language, tenantId } = context;
  const failures = new Map<number, string[]>();
  const fail = (rowNumber: number, reason: string) =>
    failures.set(rowNumber, [...(failures.get(rowNumber) ?? []), reason]);

  const matches = await store.findPatientsByAccountNames(
    tx,
    rows.map((row) => row.value.accountName),
  );
  const patientsByName = new Map<string, Map<string, store.BindablePatient>>();
  for (const match of matches) {
    const byId = patientsByName.get(match.matched) ?? new Map<string, store.BindablePatient>();
    byId.set(match.id, match);
    patientsByName.set(match.matched, byId);
  }
  const taken = await existingIdentifiers(
    tx,
    rows.map((row) => row.value),
  );
  const seen = new Map<string, number>();

  const accepted: { rowNumber: number; value: DeviceImportRow; patient: store.BindablePatient }[] = [];
  for (const { rowNumber, value } of rows) {
    const candidates = [...(patientsByName.get(value.accountName.toLowerCase())?.values() ?? [])];
    const [patient] = candidates;
    if (patient === undefined)
      fail(rowNumber, reasonText(language, 'accountNotFound', { name: value.accountName }));
    else if (candidates.length > 1)
      fail(rowNumber, reasonText(language, 'accountAmbiguous', { name: value.accountName }));
    const keys = [
      { key: `mac:${value.macAddress}`, column: FIELD_COLUMNS.macAddress, shown: value.macAddress },
      {
        key: `serial:${value.model}\n${value.serialNumber}`,
        column: FIELD_COLUMNS.serialNumber,
        shown: `${value.model} ${value.serialNumber}`,
      },
    ];
    for (const { key, column, shown } of keys) {
      if (taken.has(key)) {
        fail(rowNumber, reasonText(language, 'exists', { field: column, value: shown }));
        continue;
      }
      const earlier = seen.get(key);
      if (earlier !== undefined)
        fail(rowNumber, reasonText(language, 'duplicateInFile', { field: column, row: earlier }));
    }
    if (!failures.has(rowNumber) && patient !== undefined) {
      for (const { key } of keys) seen.set(key, rowNumber);
      accepted.push({ rowNumber, value, patient });
    }
  }

  const now = context.clock.now();
  for (let start = 0; start < accepted.length; start += INSERT_CHUNK) {
    const chunk = accepted.slice(start, start + INSERT_CHUNK).map(({ rowNumber, value, patient }) => ({
      rowNumber,
      row: {
        tenantId,
        id: uuidv7(),
        model: value.model,
        serialNumber: value.serialNumber,
        macAddress: value.macAddress,
        patientId: patient.id,
        accountUsername: patient.username,
        boundAt: now,
        importedAt: now,
        createdAt: now,
        updatedAt: now,
      },
    }));
    const inserted = await tx
      .insert(devices)
      .values(chunk.map((entry) => entry.row))
      .onConflictDoNothing()
      .returning({ id: devices.id });
    const insertedIds = new Set(inserted.map((row) => row.id));
    for (const { rowNumber, row } of chunk) {
      if (!insertedIds.has(row.id))
        fail(
          rowNumber,
          reasonText(language, 'exists', { field: FIELD_COLUMNS.macAddress, value: row.macAddress }),
        );
    }
  }
  return [...failures.entries()]
    .map(([rowNumber, reasons]) => ({ rowNumber, reasons }))
    .sort((left, right) => left.rowNumber - right.rowNumber);
}

/** Device import: account name, MAC, device type, serial (spec §5). */
export const deviceImportKind: ImportKind<DeviceImportRow> = {
  kind: 'DEVICE',
  headers: DEVICE_IMPORT_HEADERS,
  exampleRows: [['BNCS10001', 'D4:3B:04:00:A1:10', 'V19', 'SN202700001']],
  parseRow: (cells, context) => parseDeviceRow(cells, context.language),
  insertBatch: insertDeviceBatch,
};
