import type {
  ConnectionHistoryItem,
  ConnectionHistoryQuery,
  ConnectionStatus,
  PhoneHistoryItem,
  PhoneHistoryQuery,
} from '@rpm/contracts';
import { withCaller } from '../../db/caller.js';
import * as store from './history-store.js';
import type { DeviceEnvironment } from './service.js';

// Connection and phone histories (spec §7 "Health prefix"), read for the caller: rows of devices
// and patients of centers they cannot see are not there.

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
    return { items: items.map(toPhoneItem), page: query.page, size: query.size, total };
  });
}
