import type { DeviceListQuery } from '@rpm/contracts';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { devices, patients, users } from '../../db/schema.js';
import { appStatusSql, connectionStatusSql } from './device-state.js';

/** A device with the patient it is bound to (null when unbound). Joins see what the caller sees. */
export interface DeviceRow {
  device: typeof devices.$inferSelect;
  patient: { id: string; patientCode: string; firstName: string; lastName: string } | null;
}

export type DeviceInsert = typeof devices.$inferInsert;

const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

function selectDevices(tx: TenantTransaction) {
  return tx
    .select({
      device: devices,
      patientId: patients.id,
      patientCode: patients.patientCode,
      firstName: patients.firstName,
      lastName: patients.lastName,
    })
    .from(devices)
    .leftJoin(patients, and(eq(patients.tenantId, devices.tenantId), eq(patients.id, devices.patientId)));
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectDevices>['execute']>>[number];

function toRow(row: SelectedRow): DeviceRow {
  const { device, patientId, patientCode, firstName, lastName } = row;
  return {
    device,
    patient:
      patientId === null || patientCode === null
        ? null
        : { id: patientId, patientCode, firstName: firstName ?? '', lastName: lastName ?? '' },
  };
}

/** What a device list is narrowed to, besides the query's own filters. */
export interface DeviceScope {
  patientId?: string | undefined;
  /** Devices bound to patients of this health center. */
  centerId?: string | undefined;
  /** Devices bound to the patient with this user account. */
  patientUserId?: string | undefined;
  /** The account user name, compared case-insensitively. */
  username?: string | undefined;
}

export type DeviceFilter = Omit<DeviceListQuery, 'page' | 'size' | 'sortField' | 'sortType'> & DeviceScope;

function conditionsOf(filter: DeviceFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(devices.imei, pattern),
        ilike(devices.macAddress, pattern),
        ilike(sql`replace(${devices.macAddress}, ':', '')`, pattern),
        ilike(devices.serialNumber, pattern),
        ilike(devices.accountUsername, pattern),
      ),
    );
  }
  if (filter.category !== undefined) conditions.push(eq(devices.model, filter.category));
  if (filter.status !== undefined) conditions.push(sql`${connectionStatusSql} = ${filter.status}`);
  if (filter.appStatus !== undefined) conditions.push(sql`${appStatusSql} = ${filter.appStatus}`);
  if (filter.bound === 'true') conditions.push(isNotNull(devices.patientId));
  if (filter.bound === 'false') conditions.push(isNull(devices.patientId));
  if (filter.patientId !== undefined) conditions.push(eq(devices.patientId, filter.patientId));
  if (filter.centerId !== undefined) {
    conditions.push(
      sql`${devices.patientId} IN (SELECT center_patient.id FROM patients center_patient WHERE center_patient.health_center_id = ${filter.centerId})`,
    );
  }
  if (filter.patientUserId !== undefined) {
    conditions.push(
      sql`${devices.patientId} IN (SELECT account_patient.id FROM patients account_patient WHERE account_patient.user_id = ${filter.patientUserId})`,
    );
  }
  if (filter.username !== undefined)
    conditions.push(sql`lower(${devices.accountUsername}) = lower(${filter.username})`);
  return and(...conditions);
}

function orderOf(sortField: DeviceListQuery['sortField'], sortType: DeviceListQuery['sortType']): SQL[] {
  const direction = sortType === 'desc' ? desc : asc;
  const nullsLast = (column: SQL | typeof devices.lastConnectedAt) =>
    sql`${column} ${sql.raw(sortType === 'desc' ? 'DESC' : 'ASC')} NULLS LAST`;
  switch (sortField) {
    case 'created':
      return [direction(devices.createdAt), direction(devices.id)];
    case 'model':
      return [direction(devices.model), asc(devices.serialNumber), asc(devices.id)];
    case 'serialNumber':
      return [direction(devices.serialNumber), asc(devices.id)];
    case 'macAddress':
      return [nullsLast(sql`${devices.macAddress}`), asc(devices.id)];
    case 'lastConnected':
      return [nullsLast(devices.lastConnectedAt), asc(devices.id)];
    case 'lastSync':
      return [nullsLast(sql`${devices.lastSyncedAt}`), asc(devices.id)];
    case 'status':
      return [direction(connectionStatusSql), asc(devices.serialNumber), asc(devices.id)];
  }
}

export interface DevicePageRequest {
  page: number;
  size: number;
  sortField: DeviceListQuery['sortField'];
  sortType: DeviceListQuery['sortType'];
}

/** One page of devices and the total, within what the transaction may see. */
export async function listDevices(
  tx: TenantTransaction,
  filter: DeviceFilter,
  paging: DevicePageRequest,
): Promise<{ items: DeviceRow[]; total: number }> {
  const where = conditionsOf(filter);
  const rows = await selectDevices(tx)
    .where(where)
    .orderBy(...orderOf(paging.sortField, paging.sortType))
    .limit(paging.size)
    .offset(paging.page * paging.size);
  const totals = await tx.select({ total: count() }).from(devices).where(where);
  return { items: rows.map(toRow), total: totals[0]?.total ?? 0 };
}

export async function countDevices(tx: TenantTransaction, filter: DeviceFilter): Promise<number> {
  const totals = await tx.select({ total: count() }).from(devices).where(conditionsOf(filter));
  return totals[0]?.total ?? 0;
}

/** The patients the matching devices are bound to (what an export of them reveals). */
export async function boundPatientIds(tx: TenantTransaction, filter: DeviceFilter): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ patientId: devices.patientId })
    .from(devices)
    .where(and(conditionsOf(filter), isNotNull(devices.patientId)));
  return rows.flatMap((row) => (row.patientId === null ? [] : [row.patientId]));
}

/** A visible device, locked for the rest of the transaction when asked. */
export async function findDevice(
  tx: TenantTransaction,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DeviceRow | undefined> {
  if (options.lock === true) {
    const locked = await tx.select({ id: devices.id }).from(devices).where(eq(devices.id, id)).for('update');
    if (locked.length === 0) return undefined;
  }
  const rows = await selectDevices(tx).where(eq(devices.id, id)).limit(1);
  const row = rows[0];
  return row === undefined ? undefined : toRow(row);
}

export async function insertDevices(tx: TenantTransaction, values: DeviceInsert[]): Promise<void> {
  if (values.length === 0) return;
  await tx.insert(devices).values(values);
}

export type DeviceChanges = Partial<
  Pick<
    DeviceInsert,
    | 'model'
    | 'serialNumber'
    | 'macAddress'
    | 'imei'
    | 'dataSource'
    | 'patientId'
    | 'accountUsername'
    | 'boundAt'
  >
>;

export async function updateDevice(
  tx: TenantTransaction,
  id: string,
  changes: DeviceChanges,
  now: Date,
): Promise<void> {
  await tx
    .update(devices)
    .set({ ...changes, updatedAt: now })
    .where(eq(devices.id, id));
}

export async function deleteDevice(tx: TenantTransaction, id: string): Promise<void> {
  await tx.delete(devices).where(eq(devices.id, id));
}

/** Devices counted as disconnected (status 0, as shown) among the visible ones. */
export async function countDisconnected(tx: TenantTransaction): Promise<number> {
  const rows = await tx
    .select({ total: count() })
    .from(devices)
    .where(sql`${connectionStatusSql} = 0`);
  return rows[0]?.total ?? 0;
}

// Patients -------------------------------------------------------------------------------------

export interface BindablePatient {
  id: string;
  patientCode: string;
  firstName: string;
  lastName: string;
  /** The name the patient's account signs in with: the account's email or phone, else the patient code. */
  username: string;
}

const usernameOf = sql<string>`coalesce(${users.email}, ${users.phone}, ${patients.patientCode})`;

function selectPatients(tx: TenantTransaction) {
  return tx
    .select({
      id: patients.id,
      patientCode: patients.patientCode,
      firstName: patients.firstName,
      lastName: patients.lastName,
      username: usernameOf,
    })
    .from(patients)
    .leftJoin(users, and(eq(users.tenantId, patients.tenantId), eq(users.id, patients.userId)));
}

/** A patient the transaction may see. */
export async function findPatient(tx: TenantTransaction, id: string): Promise<BindablePatient | undefined> {
  const rows = await selectPatients(tx).where(eq(patients.id, id)).limit(1);
  return rows[0];
}

/**
 * Visible patients matching any of the account names: the email or phone of their user account,
 * or their patient code (case-insensitive). Each match comes with the name it matched.
 */
export async function findPatientsByAccountNames(
  tx: TenantTransaction,
  names: readonly string[],
): Promise<(BindablePatient & { matched: string })[]> {
  if (names.length === 0) return [];
  const lowered = [...new Set(names.map((name) => name.toLowerCase()))];
  const rows = await tx
    .select({
      id: patients.id,
      patientCode: patients.patientCode,
      firstName: patients.firstName,
      lastName: patients.lastName,
      username: usernameOf,
      email: users.email,
      phone: users.phone,
    })
    .from(patients)
    .leftJoin(users, and(eq(users.tenantId, patients.tenantId), eq(users.id, patients.userId)))
    .where(
      or(
        inArray(sql`lower(${patients.patientCode})`, lowered),
        inArray(sql`lower(${users.email})`, lowered),
        inArray(users.phone, lowered),
      ),
    );
  return rows.flatMap(({ email, phone, ...patient }) =>
    [patient.patientCode, email, phone]
      .filter(
        (candidate): candidate is string => candidate !== null && lowered.includes(candidate.toLowerCase()),
      )
      .map((matched) => ({ ...patient, matched: matched.toLowerCase() })),
  );
}
