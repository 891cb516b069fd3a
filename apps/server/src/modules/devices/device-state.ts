import { CONNECTION_STATUS, type AppStatus, type ConnectionStatus } from '@rpm/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { devices } from '../../db/schema.js';

/** What the stored columns say about a device's state. */
export interface StoredDeviceState {
  connectionStatus: number;
  appStatus: string;
  activatedAt: Date | null;
  firstConnectedAt: Date | null;
  lastSyncedAt: Date | null;
}

/** What the product shows: two facts that cannot contradict each other. */
export interface DeviceState {
  /** Spec §3: 1 connected, 0 disconnected, -1 not activated, 2 unknown. */
  connectionStatus: ConnectionStatus;
  /** Spec §4 app status; NO_SYNC for a device that never synced. */
  appStatus: AppStatus;
  isActivated: boolean;
}

const APP_STATUSES_KNOWN: readonly string[] = ['ONLINE', 'OFFLINE', 'KILLED', 'NO_SYNC'];

/**
 * A device is activated once it connected or sent data: activation is a fact of its history, not
 * only of the last connection status written. Readings arriving set the sync time and app status
 * without touching the connection status, so a syncing watch could read "not activated" and
 * "online" at once.
 */
export function isActivatedDevice(device: StoredDeviceState): boolean {
  return (
    device.connectionStatus !== CONNECTION_STATUS.notActivated ||
    device.activatedAt !== null ||
    device.firstConnectedAt !== null ||
    device.lastSyncedAt !== null
  );
}

/**
 * The device's state as shown. An activated device is never NOT_ACTIVATED: while its app syncs
 * (ONLINE) it is connected, otherwise disconnected. A device never activated has no app status
 * but NO_SYNC ("no sync or not active").
 */
export function deviceStateOf(device: StoredDeviceState): DeviceState {
  const isActivated = isActivatedDevice(device);
  const appStatus = (
    APP_STATUSES_KNOWN.includes(device.appStatus) ? device.appStatus : 'NO_SYNC'
  ) as AppStatus;
  if (!isActivated) {
    return { connectionStatus: CONNECTION_STATUS.notActivated, appStatus: 'NO_SYNC', isActivated };
  }
  const stored = device.connectionStatus as ConnectionStatus;
  const connectionStatus =
    stored === CONNECTION_STATUS.notActivated
      ? appStatus === 'ONLINE'
        ? CONNECTION_STATUS.connected
        : CONNECTION_STATUS.disconnected
      : stored;
  return { connectionStatus, appStatus, isActivated };
}

const ACTIVATED_SQL = sql`(${devices.connectionStatus} <> -1 OR ${devices.activatedAt} IS NOT NULL OR ${devices.firstConnectedAt} IS NOT NULL OR ${devices.lastSyncedAt} IS NOT NULL)`;

/** deviceStateOf's connection status in SQL, so list filters, sorting and counts match the rows shown. */
export const connectionStatusSql: SQL<number> = sql<number>`(CASE
  WHEN NOT ${ACTIVATED_SQL} THEN -1
  WHEN ${devices.connectionStatus} = -1 THEN (CASE WHEN ${devices.appStatus} = 'ONLINE' THEN 1 ELSE 0 END)
  ELSE ${devices.connectionStatus} END)`;

/** deviceStateOf's app status in SQL. */
export const appStatusSql: SQL<string> = sql<string>`(CASE WHEN ${ACTIVATED_SQL} THEN ${devices.appStatus} ELSE 'NO_SYNC' END)`;
