import type { DeviceDetail, DeviceInput, DeviceListQuery, DeviceSummary } from '@rpm/contracts';
import { uuidv7 } from 'uuidv7';
import { withCaller } from '../../db/caller.js';
import type { Database, TenantTransaction } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit, type AuditContext } from '../audit/store.js';
import { isDeviceConflict, requireDeviceIdentity } from './device-input.js';
import { deviceStateOf, isActivatedDevice } from './device-state.js';
import * as store from './store.js';

export interface DeviceEnvironment {
  database: Database;
  clock: Clock;
  auth: AuthContext;
  audit: AuditContext;
}

export interface DevicePage {
  items: DeviceSummary[];
  page: number;
  size: number;
  total: number;
}

const isoOrNull = (value: Date | null) => (value === null ? null : value.toISOString());

export function toSummary({ device, patient }: store.DeviceRow): DeviceSummary {
  const state = deviceStateOf(device);
  return {
    id: device.id,
    model: device.model as DeviceSummary['model'],
    serialNumber: device.serialNumber,
    macAddress: device.macAddress,
    imei: device.imei,
    accountUsername: device.accountUsername,
    patient:
      patient === null
        ? null
        : {
            id: patient.id,
            patientCode: patient.patientCode,
            fullName: `${patient.firstName} ${patient.lastName}`.trim(),
          },
    connectionStatus: state.connectionStatus,
    appStatus: state.appStatus,
    dataSource: device.dataSource as DeviceSummary['dataSource'],
    firstConnectedAt: isoOrNull(device.firstConnectedAt),
    lastConnectedAt: isoOrNull(device.lastConnectedAt),
    lastSyncedAt: isoOrNull(device.lastSyncedAt),
    osVersion: device.osVersion,
    firmwareVersion: device.firmwareVersion,
    activatedAt: isoOrNull(device.activatedAt),
    importedAt: device.importedAt.toISOString(),
    importId: device.importId,
    createdAt: device.createdAt.toISOString(),
    updatedAt: device.updatedAt.toISOString(),
  };
}

/**
 * Audits a read of devices (a PHI read when they are bound: the answer names their patients),
 * in the transaction that read them.
 */
export async function recordDeviceRead(
  tx: TenantTransaction,
  environment: DeviceEnvironment,
  action: 'DEVICES_LISTED' | 'DEVICE_VIEWED',
  items: readonly DeviceSummary[],
  details: Record<string, unknown> & { targetId?: string },
): Promise<void> {
  const { targetId, ...rest } = details;
  await recordPatientReads(
    tx,
    environment.auth.tenantId,
    environment.audit,
    {
      action,
      targetType: 'device',
      ...(targetId === undefined ? {} : { targetId }),
      patientIds: items.map((item) => item.patient?.id),
      details: { ...rest, shown: items.length },
    },
    environment.clock.now(),
  );
}

export function filterOf(query: DeviceListQuery, scope: store.DeviceScope = {}): store.DeviceFilter {
  return {
    search: query.search,
    category: query.category,
    status: query.status,
    appStatus: query.appStatus,
    bound: query.bound,
    ...scope,
  };
}

/** A page of the devices the caller sees (devices bound to patients of other centers are not seen). */
export function listDevices(
  environment: DeviceEnvironment,
  query: DeviceListQuery,
  scope: store.DeviceScope = {},
): Promise<DevicePage> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items, total } = await store.listDevices(tx, filterOf(query, scope), query);
    const page = items.map(toSummary);
    await recordDeviceRead(tx, environment, 'DEVICES_LISTED', page, { ...query, ...scope, total });
    return { items: page, page: query.page, size: query.size, total };
  });
}

async function requireDevice(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<store.DeviceRow> {
  const row = await store.findDevice(tx, id, options);
  if (row === undefined) throw new AppError('device.notFound');
  return row;
}

async function detailAfterWrite(tx: TenantTransaction, id: string): Promise<DeviceDetail> {
  return toSummary(await requireDevice(tx, id));
}

export function readDevice(environment: DeviceEnvironment, id: string): Promise<DeviceDetail> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const detail = toSummary(await requireDevice(tx, id));
    await recordDeviceRead(tx, environment, 'DEVICE_VIEWED', [detail], { targetId: id });
    return detail;
  });
}

async function rethrowConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isDeviceConflict(error)) throw new AppError('device.exists', { cause: error });
    throw error;
  }
}

/** Adds a device to the stock: not activated, bound to nobody. */
export function createDevice(environment: DeviceEnvironment, input: DeviceInput): Promise<DeviceDetail> {
  const identity = requireDeviceIdentity(input);
  const { auth, clock } = environment;
  const id = uuidv7();
  return rethrowConflict(
    withCaller(environment.database, auth, async (tx) => {
      const now = clock.now();
      await store.insertDevices(tx, [
        {
          tenantId: auth.tenantId,
          id,
          ...identity,
          dataSource: input.dataSource,
          importedAt: now,
          createdAt: now,
          updatedAt: now,
        },
      ]);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'DEVICE_CREATED',
        targetType: 'device',
        targetId: id,
        details: { ...identity },
        at: now,
      });
      return detailAfterWrite(tx, id);
    }),
  );
}

/** Edits a device that has never connected (spec §4: an activated device cannot be edited). */
export function updateDevice(
  environment: DeviceEnvironment,
  id: string,
  input: DeviceInput,
): Promise<DeviceDetail> {
  const identity = requireDeviceIdentity(input);
  const { auth, clock } = environment;
  return rethrowConflict(
    withCaller(environment.database, auth, async (tx) => {
      const { device } = await requireDevice(tx, id, { lock: true });
      if (isActivatedDevice(device)) throw new AppError('device.activated');
      const now = clock.now();
      await store.updateDevice(tx, id, { ...identity, dataSource: input.dataSource }, now);
      await recordAudit(tx, auth.tenantId, environment.audit, {
        action: 'DEVICE_UPDATED',
        targetType: 'device',
        targetId: id,
        details: {
          before: {
            model: device.model,
            serialNumber: device.serialNumber,
            macAddress: device.macAddress,
            imei: device.imei,
          },
          after: identity,
        },
        at: now,
      });
      return detailAfterWrite(tx, id);
    }),
  );
}

/** Deletes a device that never connected and is bound to nobody. */
export function deleteDevice(environment: DeviceEnvironment, id: string): Promise<void> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const { device } = await requireDevice(tx, id, { lock: true });
    if (isActivatedDevice(device) || device.patientId !== null) throw new AppError('device.cannotDelete');
    await store.deleteDevice(tx, id);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_DELETED',
      targetType: 'device',
      targetId: id,
      details: {
        model: device.model,
        serialNumber: device.serialNumber,
        macAddress: device.macAddress,
        imei: device.imei,
      },
      at: clock.now(),
    });
  });
}

/**
 * Binds a device to a patient the caller sees. A device bound to another patient must be unbound
 * first (device.connectedByAnotherUser); binding it again to the same patient changes nothing.
 */
export function bindDevice(
  environment: DeviceEnvironment,
  id: string,
  patientId: string,
): Promise<DeviceDetail> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const { device } = await requireDevice(tx, id, { lock: true });
    const patient = await store.findPatient(tx, patientId);
    if (patient === undefined) throw new AppError('patient.notFound');
    if (device.patientId === patient.id) return detailAfterWrite(tx, id);
    if (device.patientId !== null) throw new AppError('device.connectedByAnotherUser');
    const now = clock.now();
    await store.updateDevice(
      tx,
      id,
      { patientId: patient.id, accountUsername: patient.username, boundAt: now },
      now,
    );
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_BOUND',
      targetType: 'device',
      targetId: id,
      details: { patientId: patient.id, patientCode: patient.patientCode, username: patient.username },
      at: now,
    });
    return detailAfterWrite(tx, id);
  });
}

/** Unbinds a device from its patient (an unbound device stays as it is). */
export function unbindDevice(environment: DeviceEnvironment, id: string): Promise<DeviceDetail> {
  const { auth, clock } = environment;
  return withCaller(environment.database, auth, async (tx) => {
    const { device } = await requireDevice(tx, id, { lock: true });
    if (device.patientId === null) return detailAfterWrite(tx, id);
    const now = clock.now();
    await store.updateDevice(tx, id, { patientId: null, accountUsername: null, boundAt: null }, now);
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_UNBOUND',
      targetType: 'device',
      targetId: id,
      details: { patientId: device.patientId, username: device.accountUsername },
      at: now,
    });
    return detailAfterWrite(tx, id);
  });
}

/** The devices bound to a patient the caller sees (patient.notFound otherwise). */
export function listPatientDevices(
  environment: DeviceEnvironment,
  patientId: string,
): Promise<DeviceSummary[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    if ((await store.findPatient(tx, patientId)) === undefined) throw new AppError('patient.notFound');
    const { items } = await store.listDevices(
      tx,
      { patientId },
      { page: 0, size: 200, sortField: 'created', sortType: 'desc' },
    );
    const list = items.map(toSummary);
    // Named even when no device is bound: the answer says what the patient wears.
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_DEVICES_VIEWED',
        targetId: patientId,
        patientIds: [patientId],
        details: { shown: list.length },
      },
      environment.clock.now(),
    );
    return list;
  });
}

/** The devices of one account user name (spec §7 device/getUserDevicesByUsername). */
export function listDevicesOfUsername(
  environment: DeviceEnvironment,
  username: string,
): Promise<DeviceSummary[]> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const { items } = await store.listDevices(
      tx,
      { username },
      { page: 0, size: 200, sortField: 'created', sortType: 'desc' },
    );
    const list = items.map(toSummary);
    await recordDeviceRead(tx, environment, 'DEVICES_LISTED', list, { username });
    return list;
  });
}

export function countDisconnectedDevices(environment: DeviceEnvironment): Promise<{ count: number }> {
  return withCaller(environment.database, environment.auth, async (tx) => ({
    count: await store.countDisconnected(tx),
  }));
}
