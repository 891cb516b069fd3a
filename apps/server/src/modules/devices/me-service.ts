import {
  DEVICE_MODELS,
  watchSettingsSchema,
  type BindMyDevice,
  type MyDevice,
  type WatchSettings,
} from '@rpm/contracts';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { devices } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { withVitalsPatient, type VitalsPatient } from '../vitals/patient-access.js';
import { deviceStateOf } from './device-state.js';
import type { DeviceEnvironment } from './service.js';
import * as store from './store.js';

type DeviceRecord = typeof devices.$inferSelect;

const isoOrNull = (value: Date | null) => (value === null ? null : value.toISOString());

export function toMyDevice(device: DeviceRecord): MyDevice {
  const parsed = watchSettingsSchema.safeParse(device.watchSettings);
  return {
    id: device.id,
    model: device.model as MyDevice['model'],
    serialNumber: device.serialNumber,
    macAddress: device.macAddress,
    firmwareVersion: device.firmwareVersion,
    connectionStatus: deviceStateOf(device).connectionStatus,
    lastSyncedAt: isoOrNull(device.lastSyncedAt),
    boundAt: isoOrNull(device.boundAt),
    settings: parsed.success ? parsed.data : watchSettingsSchema.parse({}),
  };
}

/**
 * Runs `work` for the calling patient's own record (a PATIENT session only: staff have no record
 * of their own and get health.noPatientProfile). Writes need an active account.
 */
function withOwnPatient<T>(
  environment: DeviceEnvironment,
  write: boolean,
  work: (tx: TenantTransaction, patient: VitalsPatient) => Promise<T>,
): Promise<T> {
  if (environment.auth.role !== 'PATIENT') throw new AppError('health.noPatientProfile');
  return withVitalsPatient(
    environment,
    { patientId: undefined, permission: 'health.view', lock: false, write },
    work,
  );
}

async function ownDevices(tx: TenantTransaction, patientId: string): Promise<DeviceRecord[]> {
  return tx
    .select()
    .from(devices)
    .where(eq(devices.patientId, patientId))
    .orderBy(sql`${devices.boundAt} DESC NULLS LAST`, devices.id);
}

/** One of the patient's own watches, locked for the rest of the transaction; device.notFound otherwise. */
async function requireOwnDevice(tx: TenantTransaction, patientId: string, deviceId: string): Promise<DeviceRecord> {
  const [device] = await tx
    .select()
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.patientId, patientId)))
    .for('update');
  if (device === undefined) throw new AppError('device.notFound');
  return device;
}

/** The watches bound to the calling patient, newest binding first. Audited (names the patient). */
export function listMyDevices(environment: DeviceEnvironment): Promise<MyDevice[]> {
  return withOwnPatient(environment, false, async (tx, patient) => {
    const list = (await ownDevices(tx, patient.id)).map(toMyDevice);
    await recordPatientReads(
      tx,
      environment.auth.tenantId,
      environment.audit,
      {
        action: 'PATIENT_DEVICES_VIEWED',
        targetId: patient.id,
        patientIds: [patient.id],
        details: { shown: list.length, own: true },
      },
      environment.clock.now(),
    );
    return list;
  });
}

/**
 * Whether a watch of this model and serial number is bound to another patient of the tenant. The
 * patient's own transaction cannot see such a device (row-level security), so this looks at the
 * tenant's whole stock and answers only yes or no.
 */
async function isBoundElsewhere(environment: DeviceEnvironment, input: BindMyDevice): Promise<boolean> {
  return environment.database.withTenant(environment.auth.tenantId, async (tx) => {
    const rows = await tx
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(
          eq(devices.model, input.model),
          sql`lower(${devices.serialNumber}) = lower(${input.serialNumber})`,
          isNotNull(devices.patientId),
        ),
      )
      .limit(1);
    return rows.length > 0;
  });
}

/**
 * Binds a watch of the tenant's stock (spec §3 models) to the calling patient by model and serial
 * number. Binding one's own watch again changes nothing; a watch bound to someone else is refused
 * (device.connectedByAnotherUser); an unknown one, or another tenant's, is device.notFound.
 */
export async function bindMyDevice(environment: DeviceEnvironment, input: BindMyDevice): Promise<MyDevice> {
  if (!(DEVICE_MODELS as readonly string[]).includes(input.model)) throw new AppError('device.unsupportedType');
  const { auth, clock } = environment;
  const outcome = await withOwnPatient(environment, true, async (tx, patient) => {
    const [found] = await tx
      .select()
      .from(devices)
      .where(and(eq(devices.model, input.model), sql`lower(${devices.serialNumber}) = lower(${input.serialNumber})`))
      .for('update')
      .limit(1);
    if (found === undefined) return null;
    if (found.patientId === patient.id) return toMyDevice(found);
    if (found.patientId !== null) throw new AppError('device.connectedByAnotherUser');
    const owner = await store.findPatient(tx, patient.id);
    const now = clock.now();
    const [bound] = await tx
      .update(devices)
      .set({
        patientId: patient.id,
        accountUsername: owner?.username ?? null,
        boundAt: now,
        watchSettings: {},
        updatedAt: now,
      })
      .where(eq(devices.id, found.id))
      .returning();
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_BOUND',
      subjectUserId: auth.userId,
      targetType: 'device',
      targetId: found.id,
      details: { patientId: patient.id, byPatient: true, model: found.model, serialNumber: found.serialNumber },
      at: now,
    });
    if (bound === undefined) throw new AppError('device.notFound');
    return toMyDevice(bound);
  });
  if (outcome !== null) return outcome;
  throw new AppError((await isBoundElsewhere(environment, input)) ? 'device.connectedByAnotherUser' : 'device.notFound');
}

/** Unbinds one of the calling patient's watches (it returns to the stock; its settings are cleared). */
export function unbindMyDevice(environment: DeviceEnvironment, deviceId: string): Promise<void> {
  const { auth, clock } = environment;
  return withOwnPatient(environment, true, async (tx, patient) => {
    const device = await requireOwnDevice(tx, patient.id, deviceId);
    const now = clock.now();
    await tx
      .update(devices)
      .set({ patientId: null, accountUsername: null, boundAt: null, watchSettings: {}, updatedAt: now })
      .where(eq(devices.id, device.id));
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_UNBOUND',
      subjectUserId: auth.userId,
      targetType: 'device',
      targetId: device.id,
      details: { patientId: patient.id, byPatient: true },
      at: now,
    });
  });
}

/** Changes one of the calling patient's watches: its settings, or the firmware version it now runs. */
export function updateMyDevice(
  environment: DeviceEnvironment,
  deviceId: string,
  change: { settings: WatchSettings } | { firmwareVersion: string },
): Promise<MyDevice> {
  const { auth, clock } = environment;
  return withOwnPatient(environment, true, async (tx, patient) => {
    const device = await requireOwnDevice(tx, patient.id, deviceId);
    const now = clock.now();
    const values =
      'settings' in change ? { watchSettings: { ...change.settings } } : { firmwareVersion: change.firmwareVersion };
    const [updated] = await tx
      .update(devices)
      .set({ ...values, updatedAt: now })
      .where(eq(devices.id, device.id))
      .returning();
    await recordAudit(tx, auth.tenantId, environment.audit, {
      action: 'DEVICE_UPDATED',
      subjectUserId: auth.userId,
      targetType: 'device',
      targetId: device.id,
      details:
        'settings' in change
          ? { patientId: patient.id, settings: change.settings }
          : { patientId: patient.id, firmware: { before: device.firmwareVersion, after: change.firmwareVersion } },
      at: now,
    });
    if (updated === undefined) throw new AppError('device.notFound');
    return toMyDevice(updated);
  });
}
