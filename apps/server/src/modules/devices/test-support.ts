/** Test support for the device tests: an organisation with patients, devices and histories. */
import type { LightMyRequestResponse } from 'fastify';
import { uuidv7 } from 'uuidv7';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenantUser } from '../../../test/factories.js';
import { deviceConnectionHistory, devices, phoneHistory } from '../../db/schema.js';
import { organisation } from '../staff/test-support.js';

export { call, logInAs } from '../staff/test-support.js';

let macCounter = 0x100;
/** A MAC address no other test uses (upper case, colons). */
export function freshMac(): string {
  macCounter += 1;
  const random = uuidv7().replaceAll('-', '').slice(-6).toUpperCase();
  const counter = macCounter.toString(16).toUpperCase().padStart(6, '0');
  return `${counter.slice(0, 2)}:${counter.slice(2, 4)}:${counter.slice(4, 6)}:${random.slice(0, 2)}:${random.slice(2, 4)}:${random.slice(4, 6)}`;
}

export const freshSerial = () => `SN-${uuidv7().slice(-12)}`;

/** The organisation of the staff tests plus a patient with an account in each center and a CSKH. */
export async function deviceOrganisation(testDb: TestDatabase) {
  const org = await organisation(testDb);
  const { database } = testDb;
  const accountA = await createTenantUser(database, org.tenant.id, {
    role: 'PATIENT',
    healthCenterId: org.centerA.id,
    email: `pa-${uuidv7().slice(-8)}@test.example`,
  });
  const patientA = await createPatient(database, org.tenant.id, {
    healthCenterId: org.centerA.id,
    userId: accountA.id,
    firstName: 'Anh',
    lastName: 'Le',
  });
  const patientB = await createPatient(database, org.tenant.id, {
    healthCenterId: org.centerB.id,
    firstName: 'Binh',
    lastName: 'Vo',
  });
  const cskh = await createTenantUser(database, org.tenant.id, { role: 'CSKH' });
  const assistantA = await createTenantUser(database, org.tenant.id, {
    role: 'DOCTOR_ASSISTANT',
    healthCenterId: org.centerA.id,
  });
  return { ...org, accountA, patientA, patientB, cskh, assistantA };
}
export type DeviceOrganisation = Awaited<ReturnType<typeof deviceOrganisation>>;

/** Inserts a device straight into the tenant (as a watch that connected would be). */
export async function insertDevice(
  testDb: TestDatabase,
  tenantId: string,
  values: Partial<typeof devices.$inferInsert> = {},
) {
  const row = {
    tenantId,
    id: uuidv7(),
    model: 'V19',
    serialNumber: freshSerial(),
    macAddress: freshMac(),
    ...values,
  };
  await testDb.database.withTenant(tenantId, (tx) => tx.insert(devices).values(row));
  return row;
}

export async function insertConnection(
  testDb: TestDatabase,
  tenantId: string,
  values: Omit<typeof deviceConnectionHistory.$inferInsert, 'tenantId' | 'id'>,
) {
  const row = { tenantId, id: uuidv7(), ...values };
  await testDb.database.withTenant(tenantId, (tx) => tx.insert(deviceConnectionHistory).values(row));
  return row;
}

export async function insertPhone(
  testDb: TestDatabase,
  tenantId: string,
  values: Omit<typeof phoneHistory.$inferInsert, 'tenantId' | 'id'>,
) {
  const row = { tenantId, id: uuidv7(), ...values };
  await testDb.database.withTenant(tenantId, (tx) => tx.insert(phoneHistory).values(row));
  return row;
}

export interface StoredDevice {
  id: string;
  tenant_id: string;
  model: string;
  serial_number: string;
  mac_address: string | null;
  imei: string | null;
  patient_id: string | null;
  account_username: string | null;
  connection_status: number;
  activated_at: Date | null;
}

/** The device as stored (read as the owner, past row level security). */
export async function storedDevice(ownerUrl: string, id: string): Promise<StoredDevice | undefined> {
  const [row] = await asOwner<StoredDevice>(ownerUrl, 'SELECT * FROM devices WHERE id = $1', [id]);
  return row;
}

export async function deviceAudit(
  ownerUrl: string,
  deviceId: string,
): Promise<{ action: string; details: Record<string, unknown> }[]> {
  return asOwner(
    ownerUrl,
    `SELECT action, details FROM audit_log WHERE target_type = 'device' AND target_id = $1 ORDER BY occurred_at, id`,
    [deviceId],
  );
}

export interface PageBody<T> {
  data: { items: T[]; page: number; size: number; total: number };
}
export interface DeviceBody {
  id: string;
  model: string;
  serialNumber: string;
  macAddress: string | null;
  imei: string | null;
  accountUsername: string | null;
  patient: { id: string; patientCode: string; fullName: string } | null;
  connectionStatus: number;
  activatedAt: string | null;
}

export const itemsOf = <T = DeviceBody>(response: LightMyRequestResponse) =>
  response.json<PageBody<T>>().data.items;
export const idsOf = (response: LightMyRequestResponse) =>
  itemsOf<{ id: string }>(response).map((item) => item.id);
export const codeOf = (response: LightMyRequestResponse) => response.json<{ code?: string }>().code;
