import type {
  ConnectionHistoryItem,
  ConnectionHistoryQuery,
  ConnectionStatus,
  PhoneHistoryItem,
  PhoneHistoryQuery,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import type { TenantTransaction } from '../../db/database.js';
import { recordPatientReads } from '../audit/reads.js';
import * as store from './history-store.js';
import type { DeviceEnvironment } from './service.js';
import { findPatientsByAccountNames } from './store.js';

// Connection and phone histories (spec §7 "Health prefix"), read for the caller: rows of devices
// and patients of centers they cannot see are not there. A page names its patients' accounts, so
// it is a PHI read, audited with the patients it revealed.

async function recordHistoryRead(
  tx: TenantTransaction,
  environment: DeviceEnvironment,
  action: 'DEVICE_HISTORY_VIEWED' | 'PHONE_HISTORY_VIEWED',
  patientIds: Iterable<string | null>,
  details: Record<string, unknown>,
): Promise<void> {
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    { action, targetType: 'device', patientIds, details },
    environment.clock.now(),
  );
}

export interface HistoryPage<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
}

export function searchConnectionHistory(
  environment: DeviceEnvironment,
  query: ConnectionHistoryQuery,
): Promise<HistoryPage<ConnectionHistoryItem>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items, total } = await store.listConnectionHistory(tx, query);
    // Rows keep the account name, not the patient: the names are resolved among visible patients.
    const named = await findPatientsByAccountNames(tx, [
      ...new Set(items.map(({ history }) => history.username)),
    ]);
    await recordHistoryRead(
      tx,
      environment,
      'DEVICE_HISTORY_VIEWED',
      named.map((patient) => patient.id),
      {
        ...query,
        shown: items.length,
      },
    );
    return {
      items: items.map(({ history, macAddress }) => ({
        id: history.id,
        deviceId: history.deviceId,
        username: history.username,
        deviceName: history.deviceName,
        model: history.model as ConnectionHistoryItem['model'],
        macAddress,
        status: history.status as ConnectionStatus,
        connectedAt: history.connectedAt.toISOString(),
        disconnectedAt: history.disconnectedAt?.toISOString() ?? null,
        appVersion: history.appVersion,
        phoneName: history.phoneName,
      })),
      page: query.page,
      size: query.size,
      total,
    };
  });
}

export function listDeviceNames(
  environment: DeviceEnvironment,
  username: string | undefined,
): Promise<string[]> {
  return withCaller(environment.database, environment.auth, (tx) => store.deviceNames(tx, username));
}

type PhoneRow = Pick<PhoneHistoryItem, 'id' | 'username' | 'phoneName' | 'osVersion' | 'appVersion'> & {
  os: string;
  status: string;
  recordedAt: Date;
};

const toPhoneItem = (row: PhoneRow): PhoneHistoryItem => ({
  id: row.id,
  username: row.username,
  phoneName: row.phoneName,
  os: row.os as PhoneHistoryItem['os'],
  osVersion: row.osVersion,
  appVersion: row.appVersion,
  status: row.status as PhoneHistoryItem['status'],
  recordedAt: row.recordedAt.toISOString(),
});

export function searchPhoneHistory(
  environment: DeviceEnvironment,
  query: PhoneHistoryQuery,
): Promise<HistoryPage<PhoneHistoryItem>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items, total } = await store.listPhoneHistory(tx, query);
    await recordHistoryRead(
      tx,
      environment,
      'PHONE_HISTORY_VIEWED',
      items.map((item) => item.patientId),
      {
        ...query,
        shown: items.length,
      },
    );
    return { items: items.map(toPhoneItem), page: query.page, size: query.size, total };
  });
}

export function listPhoneValues(
  environment: DeviceEnvironment,
  column: 'phoneName' | 'appVersion',
  username: string | undefined,
): Promise<string[]> {
  return withCaller(environment.database, environment.auth, (tx) => store.phoneValues(tx, column, username));
}

/** The latest phone of each account the caller sees. */
export function listLatestPhones(
  environment: DeviceEnvironment,
  query: { page: number; size: number; username?: string | undefined },
): Promise<HistoryPage<PhoneHistoryItem>> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items, total } = await store.latestPhones(tx, query);
    await recordHistoryRead(
      tx,
      environment,
      'PHONE_HISTORY_VIEWED',
      items.map((item) => item.patientId),
      {
        ...query,
        latest: true,
        shown: items.length,
      },
    );
    return { items: items.map(toPhoneItem), page: query.page, size: query.size, total };
  });
}
