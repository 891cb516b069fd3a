import { APP_STATUSES, DEVICE_MODELS, type PHONE_OS } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { deviceConnectionHistory, devices, phoneHistory } from '../db/schema.js';
import { DAY, HOUR, MINUTE } from '../lib/clock.js';
import type { DemoTenantData } from './demo.js';

const PHONES = [
  { name: 'iPhone 13', os: 'IOS', osVersion: '17.5' },
  { name: 'Galaxy A54', os: 'ANDROID', osVersion: '14' },
  { name: 'Redmi Note 12', os: 'ANDROID', osVersion: '13' },
  { name: 'iPhone 15 Pro', os: 'IOS', osVersion: '18.1' },
  { name: 'Pixel 7', os: 'ANDROID', osVersion: '15' },
] as const satisfies readonly { name: string; os: (typeof PHONE_OS)[number]; osVersion: string }[];
const APP_VERSIONS = ['2.3.1', '2.4.0', '2.4.2'] as const;
const FIRMWARE = ['1.0.8', '1.1.2', '1.2.0'] as const;

/** A 15-digit IMEI with its Luhn check digit, from a 14-digit body. */
function imeiOf(body: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index++) {
    let digit = Number(body[13 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length] as T;
const deviceNameOf = (model: string, mac: string) => `${model}-${mac.replaceAll(':', '').slice(-4)}`;

/**
 * Demo device details (versions, connection times, app states, data sources), ten unbound watches
 * in stock (two of them returned after use), and connection and phone histories of the demo
 * patients' devices.
 */
export async function seedDemoDevices(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const { tenantId } = data;
  const now = Date.now();
  const patientsById = new Map(data.patients.map((patient, index) => [patient.id, { ...patient, index }]));
  const usernameOf = (patient: { userId: string | null; patientCode: string; index: number }) =>
    patient.userId !== null && patient.index === 0 ? 'patient@demo.example' : patient.patientCode;

  const connections: (typeof deviceConnectionHistory.$inferInsert)[] = [];
  const phones: (typeof phoneHistory.$inferInsert)[] = [];

  for (const [index, device] of data.devices.entries()) {
    const patient = patientsById.get(device.patientId);
    if (patient === undefined) continue;
    const username = usernameOf(patient);
    const stored = await tx
      .select({ connectionStatus: devices.connectionStatus })
      .from(devices)
      .where(eq(devices.id, device.id));
    const status = stored[0]?.connectionStatus ?? -1;
    if (status === -1) {
      await tx
        .update(devices)
        .set({ accountUsername: username, appStatus: 'NO_SYNC', dataSource: 'WIRELESS_DEVICE' })
        .where(eq(devices.id, device.id));
      continue;
    }
    const firstConnected = new Date(now - (20 + ((index * 11) % 180)) * DAY);
    const lastConnected = new Date(
      now - (status === 1 ? (index % 5) * 10 * MINUTE : (1 + (index % 6)) * DAY),
    );
    const phone = pick(PHONES, index);
    const appVersion = pick(APP_VERSIONS, index);
    const appStatus =
      status === 1 ? pick(['ONLINE', 'ONLINE', 'OFFLINE'] as const, index) : pick(APP_STATUSES, index);
    await tx
      .update(devices)
      .set({
        accountUsername: username,
        firstConnectedAt: firstConnected,
        activatedAt: firstConnected,
        lastConnectedAt: lastConnected,
        lastSyncedAt: new Date(lastConnected.getTime() + 5 * MINUTE),
        osVersion: phone.osVersion,
        firmwareVersion: pick(FIRMWARE, index),
        appStatus,
        dataSource: index % 9 === 4 ? 'PHOTO_OCR' : index % 9 === 7 ? 'MANUAL' : 'WIRELESS_DEVICE',
        importedAt: new Date(firstConnected.getTime() - 3 * DAY),
        createdAt: new Date(firstConnected.getTime() - 3 * DAY),
      })
      .where(eq(devices.id, device.id));

    // Earlier sessions ended; the latest one has the device's current state.
    const sessions = 3 + (index % 4);
    for (let session = sessions - 1; session >= 0; session--) {
      const connectedAt = new Date(lastConnected.getTime() - session * (2 * DAY + (index % 7) * HOUR));
      const isLatest = session === 0;
      connections.push({
        tenantId,
        id: uuidv7(),
        deviceId: device.id,
        username,
        deviceName: deviceNameOf(device.model, device.macAddress),
        model: device.model,
        status: isLatest ? status : session % 5 === 3 ? 2 : 0,
        connectedAt,
        disconnectedAt:
          isLatest && status === 1 ? null : new Date(connectedAt.getTime() + (6 + (session % 10)) * HOUR),
        appVersion: session > 1 ? pick(APP_VERSIONS, index + 2) : appVersion,
        phoneName: phone.name,
      });
    }
    const phoneRecords = 2 + (index % 2);
    for (let record = phoneRecords - 1; record >= 0; record--) {
      const used = record === 0 ? phone : pick(PHONES, index + record + 1);
      phones.push({
        tenantId,
        id: uuidv7(),
        patientId: patient.id,
        username,
        phoneName: used.name,
        os: used.os,
        osVersion: used.osVersion,
        appVersion: record === 0 ? appVersion : pick(APP_VERSIONS, index + record),
        status: record === 0 ? appStatus : 'OFFLINE',
        recordedAt: new Date(lastConnected.getTime() - record * 15 * DAY),
      });
    }
  }

  // Stock: ten unbound watches; the last two were used before and returned.
  const stock = Array.from({ length: 10 }, (_, index) => {
    const model = pick(DEVICE_MODELS, index + 2);
    const macAddress = `D4:3B:05:00:${(0x20 + index).toString(16).toUpperCase().padStart(2, '0')}:${(0x31 + index * 3).toString(16).toUpperCase().padStart(2, '0')}`;
    const isReturned = index >= 8;
    const firstConnected = new Date(now - (120 + index) * DAY);
    return {
      tenantId,
      id: uuidv7(),
      model,
      serialNumber: `SN${202700001 + index}`,
      macAddress,
      imei: index % 3 === 0 ? imeiOf(`3569870${String(4500000 + index * 17).padStart(7, '0')}`) : null,
      patientId: null,
      connectionStatus: isReturned ? 0 : -1,
      ...(isReturned
        ? {
            firstConnectedAt: firstConnected,
            activatedAt: firstConnected,
            lastConnectedAt: new Date(now - 40 * DAY),
            osVersion: '14',
            firmwareVersion: '1.1.2',
            appStatus: 'OFFLINE',
          }
        : {}),
      importedAt: new Date(now - (130 + index) * DAY),
      createdAt: new Date(now - (130 + index) * DAY),
    };
  });
  await tx.insert(devices).values(stock);
  for (const device of stock.filter((candidate) => candidate.connectionStatus === 0)) {
    connections.push({
      tenantId,
      id: uuidv7(),
      deviceId: device.id,
      username: 'BNCS10040',
      deviceName: deviceNameOf(device.model, device.macAddress),
      model: device.model,
      status: 0,
      connectedAt: new Date(now - 60 * DAY),
      disconnectedAt: new Date(now - 40 * DAY),
      appVersion: '2.3.1',
      phoneName: 'Galaxy A54',
    });
  }
  await tx.insert(deviceConnectionHistory).values(connections);
  if (phones.length > 0) await tx.insert(phoneHistory).values(phones);
}
