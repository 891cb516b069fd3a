import { CONNECTION_STATUS_NAMES, type DeviceListQuery } from '@rpm/contracts';
import { resources, type SupportedLanguage } from '@rpm/i18n';
import type { Readable } from 'node:stream';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import { xlsxStream, type XlsxColumn, type XlsxValue } from '../../lib/xlsx.js';
import { recordPatientReads } from '../audit/reads.js';
import { filterOf, type DeviceEnvironment } from './service.js';
import { deviceStateOf } from './device-state.js';
import * as store from './store.js';

const PAGE_SIZE = 500;

type Catalogue = (typeof resources)['en']['devices'];

const COLUMN_KEYS = [
  'number',
  'macAddress',
  'imei',
  'model',
  'serialNumber',
  'account',
  'patientCode',
  'patient',
  'connectionStatus',
  'appStatus',
  'dataSource',
  'firstConnectedAt',
  'lastConnectedAt',
  'lastSyncedAt',
  'osVersion',
  'firmwareVersion',
  'importedAt',
] as const satisfies readonly (keyof Catalogue['export']['columns'])[];

function rowOf(catalogue: Catalogue, number: number, { device, patient }: store.DeviceRow): XlsxValue[] {
  const state = deviceStateOf(device);
  const connection = CONNECTION_STATUS_NAMES[state.connectionStatus];
  return [
    number,
    device.macAddress,
    device.imei,
    device.model,
    device.serialNumber,
    device.accountUsername,
    patient?.patientCode ?? null,
    patient === null ? null : `${patient.firstName} ${patient.lastName}`.trim(),
    catalogue.connectionStatus[connection],
    catalogue.appStatus[state.appStatus],
    catalogue.dataSource[device.dataSource as keyof Catalogue['dataSource']],
    device.firstConnectedAt,
    device.lastConnectedAt,
    device.lastSyncedAt,
    device.osVersion,
    device.firmwareVersion,
    device.importedAt,
  ];
}

/**
 * The device list as an xlsx file, with the list's filters and order (export.noData when nothing
 * matches). Each page of rows is read in its own short transaction for the caller while the file
 * streams out, so a long export holds no transaction open.
 */
export async function exportDevices(
  environment: DeviceEnvironment,
  query: DeviceListQuery,
  language: SupportedLanguage,
): Promise<{ fileName: string; stream: Readable }> {
  const { database, auth, clock } = environment;
  const filter = filterOf(query);
  const now = clock.now();
  await withCaller(database, auth, async (tx) => {
    const total = await store.countDevices(tx, filter);
    if (total === 0) throw new AppError('export.noData');
    await recordPatientReads(
      tx,
      auth.tenantId,
      environment.audit,
      {
        action: 'DEVICE_EXPORTED',
        targetType: 'device',
        patientIds: await store.boundPatientIds(tx, filter),
        details: { total, filter },
      },
      now,
    );
  });
  const catalogue = resources[language].devices;
  const columns: XlsxColumn[] = COLUMN_KEYS.map((key) => ({
    header: catalogue.export.columns[key],
    width: key === 'number' ? 6 : 20,
  }));
  async function* rows() {
    let number = 0;
    for (let page = 0; ; page++) {
      const { items } = await withCaller(database, auth, (tx) =>
        store.listDevices(tx, filter, {
          page,
          size: PAGE_SIZE,
          sortField: query.sortField,
          sortType: query.sortType,
        }),
      );
      for (const item of items) yield rowOf(catalogue, ++number, item);
      if (items.length < PAGE_SIZE) return;
    }
  }
  const stamp = now.toISOString().slice(0, 10);
  return {
    fileName: `${catalogue.export.fileName}-${stamp}.xlsx`,
    stream: xlsxStream(catalogue.export.sheet, columns, rows()),
  };
}
